import Bus
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One resolved address, copied out of `getaddrinfo`'s list so the list can be freed.
struct SocketAddress: Sendable {
    let family: Int32
    let bytes: [UInt8]
    let length: socklen_t
}

/// Turns a host and port into addresses without holding up the event loop.
///
/// An address literal (the demo relay's 127.0.0.1) is read at once; a name goes to `getaddrinfo`, which blocks, on a
/// thread of its own that reports back once: the only blocking call left in a dial, and it ends with the lookup.
enum HostResolver {
    /// Every address of `host`, in the order the resolver gives them.
    ///
    /// - Throws: ``WebSocketError/Code/connectFailed`` naming the resolver's reason, or
    ///   ``WebSocketError/Code/cancelled`` when the dialling task is cancelled (the lookup's thread is left to end).
    static func addresses(of host: String, port: Int) async throws(WebSocketError) -> [SocketAddress] {
        if let literal = try? lookUp(host, port: port, flags: AI_NUMERICHOST) { return literal }
        let answer = OneShot<Result<[SocketAddress], WebSocketError>>()
        let thread = Thread {
            do throws(WebSocketError) {
                answer.fulfil(.success(try lookUp(host, port: port, flags: 0)))
            } catch {
                answer.fulfil(.failure(error))
            }
        }
        thread.name = "WebSocket name lookup"
        thread.start()
        let result = await withTaskCancellationHandler {
            await answer.value
        } onCancel: {
            answer.fulfil(.failure(WebSocketError(.cancelled, "the name lookup of \(host) was cancelled")))
        }
        return try result.get()
    }

    private static func lookUp(_ host: String, port: Int, flags: Int32) throws(WebSocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.streamType
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw WebSocketError(.connectFailed, "\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                addresses.append(SocketAddress(family: info.ai_family, bytes: Array(bytes), length: info.ai_addrlen))
            }
            entry = info.ai_next
        }
        return addresses
    }
}
