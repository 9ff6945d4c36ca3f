/// The TLS records a client sent, read off the wire by their 5-byte headers (RFC 8446 §5.1).
struct TLSRecords {
    /// One record: its outer content type and its length.
    struct Record: Equatable {
        let type: UInt8
        let length: Int
    }

    static let changeCipherSpec: UInt8 = 20
    static let alert: UInt8 = 21
    static let handshake: UInt8 = 22
    static let applicationData: UInt8 = 23
    /// The longest TLS 1.3 record that can only be an alert: 2 bytes of alert, 1 of inner type, 16 of tag.
    static let longestEncryptedAlert = 19

    /// The records in order; nil when the bytes are not whole TLS records.
    let records: [Record]?

    init(_ bytes: [UInt8]) {
        var found: [Record] = []
        var offset = 0
        while offset + 5 <= bytes.count {
            let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            found.append(Record(type: bytes[offset], length: length))
            offset += 5 + length
        }
        records = offset == bytes.count ? found : nil
    }

    /// Whether the client sent a ClientHello and after it at most a ChangeCipherSpec and alerts: no Finished, so
    /// no key it could have sent application data under, and no WebSocket byte.
    var endsAfterTheHello: Bool {
        guard let records, records.first?.type == Self.handshake else { return false }
        return records.dropFirst().allSatisfy { record in
            record.type == Self.changeCipherSpec || record.type == Self.alert
                || (record.type == Self.applicationData && record.length <= Self.longestEncryptedAlert)
        }
    }

    /// Whether the client sent exactly one record, its ClientHello.
    var isOnlyTheHello: Bool { records?.map(\.type) == [Self.handshake] }
}
