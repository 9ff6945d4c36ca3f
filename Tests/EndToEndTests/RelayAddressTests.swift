import FTWClient
import Testing

/// The relay addresses a person types after `--relay`, and the ones refused with the part that is wrong.
@Suite struct RelayAddressTests {
    @Test(arguments: [
        ("wss://relay.ftw.energy", "wss://relay.ftw.energy:443"),
        ("wss://relay.ftw.energy/", "wss://relay.ftw.energy:443"),
        ("ws://127.0.0.1:8787", "ws://127.0.0.1:8787"),
        ("ws://localhost", "ws://localhost:80"),
        ("wss://127.0.0.1:8443", "wss://127.0.0.1:8443"),
        ("wss://[::1]:8443", "wss://[::1]:8443"),
        ("ws://[fe80::1]", "ws://[fe80::1]:80"),
    ])
    func readsWsAndWssWithDefaultPortsAndBracketedIPv6(text: String, read: String) throws {
        let address = try RelayAddress(parsing: text)
        #expect(address.description == read)
        #expect(try RelayAddress(parsing: address.description) == address)
    }

    @Test(arguments: [
        ("http://relay.ftw.energy", "it does not start with ws:// or wss://"),
        ("relay.ftw.energy", "it does not start with ws:// or wss://"),
        ("wss://", "the host is empty"),
        ("wss://relay.ftw.energy:0", "the port '0' is not a number from 1 to 65535"),
        ("ws://127.0.0.1:99999", "the port '99999' is not a number from 1 to 65535"),
        ("ws://127.0.0.1:http", "the port 'http' is not a number from 1 to 65535"),
        ("wss://relay.ftw.energy/r/1/app", "'/' has no place in it"),
        ("wss://user@relay.ftw.energy", "'@' has no place in it"),
        ("ws://::1:8787", "an IPv6 address goes in brackets"),
        ("ws://[::1", "the IPv6 literal has no ']'"),
        ("ws://[::1]8787", "only a port may follow the ']'"),
        ("ws://[relay]:1", "'relay' is not an IPv6 address"),
    ])
    func refusesAnythingElseSayingWhichPartIsWrong(text: String, why: String) {
        #expect(throws: EnrolmentError.self) { try RelayAddress(parsing: text) }
        do {
            _ = try RelayAddress(parsing: text)
        } catch {
            #expect(error.code == .relay)
            #expect(error.message.contains("(\(why))"), "\(error.message)")
        }
    }
}
