import FTWBus
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

    /// The address as a person writes it (`127.0.0.1`, `::1`), without the port.
    var text: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = bytes.withUnsafeBytes { raw in
            getnameinfo(
                raw.baseAddress?.assumingMemoryBound(to: sockaddr.self),
                length,
                &host,
                socklen_t(host.count),
                nil,
                0,
                NI_NUMERICHOST
            )
        }
        guard status == 0 else { return "an address of family \(family)" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether it is an IPv6 address: the family a dial tries first (RFC 8305 §4).
    var isIPv6: Bool { family == AF_INET6 }
}

/// Turns a host and port into addresses without holding up the event loop: the system's resolver, or a test's fixed
/// answer (a relay name whose first address is black-holed, on loopback).
///
/// An address literal (the demo relay's 127.0.0.1) is read at once; a name goes to `getaddrinfo` for both families
/// (`AF_UNSPEC`: its A and AAAA answers together), which blocks, on a thread of its own that reports back once: the
/// only blocking call left in a dial, and it ends with the lookup.
package struct HostResolver: Sendable {
    private let lookUp: @Sendable (String, Int) async throws(WebSocketError) -> [SocketAddress]

    /// Every address of `host`, in the order the resolver gives them (the dial interleaves their families).
    ///
    /// - Throws: ``WebSocketError/Code/connectFailed`` naming the host once and the resolver's reason, or
    ///   ``WebSocketError/Code/cancelled`` when the dialling task is cancelled (the lookup's thread is left to end).
    func addresses(of host: String, port: Int) async throws(WebSocketError) -> [SocketAddress] {
        try await lookUp(host, port)
    }

    /// The system's resolver.
    package static let system = HostResolver { host, port throws(WebSocketError) in
        try await systemAddresses(of: host, port: port)
    }

    /// Answers every name with `literals` (numeric addresses, in this order), each at the port asked: a test's relay
    /// name, whose addresses it chooses among loopback's.
    package static func answering(_ literals: [String]) -> HostResolver {
        HostResolver { _, port throws(WebSocketError) in
            var addresses: [SocketAddress] = []
            for literal in literals { addresses += try lookUp(literal, port: port, flags: AI_NUMERICHOST) }
            return addresses
        }
    }

    private static func systemAddresses(of host: String, port: Int) async throws(WebSocketError) -> [SocketAddress] {
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
            throw WebSocketError(
                .connectFailed,
                "\(SocketAddress.written(host: host, port: port)): name lookup: \(String(cString: gai_strerror(status)))"
            )
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

extension SocketAddress {
    /// `host:port` as a person writes it, an IPv6 literal in brackets (`[::1]:443`).
    static func written(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
