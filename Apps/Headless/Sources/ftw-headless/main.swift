import FTWHeadlessTooling
import FTWSocketLoop
import Foundation

// The command runs as a task on the process's event loop, not on libdispatch's queues: the client it composes keeps
// its sockets, its services and its deadlines on that loop, so a client with nothing to do wakes nobody (the first
// job that reaches libdispatch's worker pool on Linux starts a monitor that wakes the process every second for good).
// The main thread only waits; with no async top-level code it is not parked in sigsuspend, so valgrind can run it.
let status: Int32
do {
    let loop = try EventLoop.shared()
    status = loop.runBlocking { await HeadlessCommand.run(Array(CommandLine.arguments.dropFirst())) }
} catch {
    FileHandle.standardError.write(Data("ftw-headless: \(error)\n".utf8))
    status = 1
}
exit(status)
