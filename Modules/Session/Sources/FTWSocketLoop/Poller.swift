#if canImport(CFTWEpoll)
import CFTWEpoll
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel said about one descriptor after a wait.
struct Readiness {
    /// The descriptor.
    let descriptor: Int32
    /// It can be read, has hung up or has failed: a read says which.
    let isReadable: Bool
    /// It can be written (or has failed: a write says so).
    let isWritable: Bool
}

/// The kernel's readiness API behind one small interface: epoll on Linux, `poll` elsewhere (kqueue could take its
/// place on Apple platforms without the loop noticing), plus a wake-up descriptor another thread can signal.
///
/// Not thread-safe: only the loop's thread calls it, except ``wake()``, which any thread may call.
final class Poller {
    #if canImport(CFTWEpoll)
    private let epoll: Int32
    private let wakeDescriptor: Int32
    // Unchecked exclusivity: the loop's thread alone touches it, at each of its waits.
    @exclusivity(unchecked) private var events: [epoll_event]
    #else
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var interests: [Int32: Int16] = [:]
    #endif

    /// Makes the kernel's objects.
    ///
    /// - Throws: ``EventLoopError`` when the descriptors cannot be made (the process is out of them).
    init(capacity: Int = 64) throws(EventLoopError) {
        #if canImport(CFTWEpoll)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw EventLoopError.lastError("epoll_create1") }
        wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeDescriptor >= 0 else {
            close(epoll)
            throw EventLoopError.lastError("eventfd")
        }
        events = [epoll_event](repeating: epoll_event(), count: capacity)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeDescriptor
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, wakeDescriptor, &event)
        #else
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw EventLoopError.lastError("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        #endif
    }

    deinit {
        #if canImport(CFTWEpoll)
        close(epoll)
        close(wakeDescriptor)
        #else
        close(wakeRead)
        close(wakeWrite)
        #endif
    }

    /// Watches `descriptor` for what is asked, or changes what it is watched for.
    ///
    /// - Returns: Whether the kernel accepted it.
    @discardableResult
    func watch(_ descriptor: Int32, reading: Bool, writing: Bool, isNew: Bool) -> Bool {
        #if canImport(CFTWEpoll)
        var event = epoll_event()
        event.events = (reading ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (writing ? EPOLLOUT.rawValue : 0)
        event.data.fd = descriptor
        return epoll_ctl(epoll, isNew ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, descriptor, &event) == 0
        #else
        interests[descriptor] = (reading ? Int16(POLLIN) : 0) | (writing ? Int16(POLLOUT) : 0)
        return true
        #endif
    }

    /// Stops watching `descriptor`; call before closing it.
    func forget(_ descriptor: Int32) {
        #if canImport(CFTWEpoll)
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &event)
        #else
        interests[descriptor] = nil
        #endif
    }

    /// Waits until a watched descriptor is ready, ``wake()`` is called or `timeout` passes, and reports each ready
    /// descriptor.
    ///
    /// - Parameter timeoutMs: How long to wait at most, in milliseconds: -1 for as long as it takes, zero to only look.
    /// - Returns: Whether the wake-up descriptor fired.
    func wait(timeoutMs milliseconds: Int32, _ report: (Readiness) -> Void) -> Bool {
        #if canImport(CFTWEpoll)
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        var woken = false
        for index in 0..<max(0, Int(count)) {
            let event = events[index]
            let descriptor = event.data.fd
            if descriptor == wakeDescriptor {
                var value: UInt64 = 0
                _ = read(wakeDescriptor, &value, 8)
                woken = true
                continue
            }
            let failed = event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
            report(
                Readiness(
                    descriptor: descriptor,
                    isReadable: failed || event.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                    isWritable: failed || event.events & EPOLLOUT.rawValue != 0
                )
            )
        }
        return woken
        #else
        var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        for (descriptor, interest) in interests where interest != 0 {
            entries.append(pollfd(fd: descriptor, events: interest, revents: 0))
        }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        guard count > 0 else { return false }
        var woken = false
        if entries[0].revents != 0 {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &bytes, bytes.count) > 0 {}
            woken = true
        }
        for entry in entries.dropFirst() where entry.revents != 0 {
            let failed = entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
            report(
                Readiness(
                    descriptor: entry.fd,
                    isReadable: failed || entry.revents & Int16(POLLIN) != 0,
                    isWritable: failed || entry.revents & Int16(POLLOUT) != 0
                )
            )
        }
        return woken
        #endif
    }

    /// Makes a blocked ``wait(blocking:_:)`` return; safe from any thread.
    func wake() {
        #if canImport(CFTWEpoll)
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
        #else
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        #endif
    }
}
