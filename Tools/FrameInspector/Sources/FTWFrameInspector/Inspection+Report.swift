import FTWBoxProtocol

extension Inspection {
    /// The report `ftw-frame decode` prints: the frame header, the envelope in diagnostic notation, the typed
    /// message, and the error (with the bytes around it) when decoding stopped.
    public func report(of bytes: [UInt8]) -> String {
        var lines: [String] = []
        if let frame {
            let padding = frame.bucket - Frame.headerSize - frame.payload.count
            lines.append(
                "frame     version \(Frame.version), lane \(frame.lane.rawValue) (\(frame.lane)), flags 0x"
                    + Hex.string([frame.flags.rawValue]) + ", payload \(frame.payload.count) bytes, "
                    + "\(frame.bucket) bytes in all (\(padding) of padding)"
            )
        } else if error == nil || envelope != nil {
            lines.append("frame     none: a bare envelope")
        }
        if let envelope { lines.append("envelope  " + envelope.diagnostic) }
        if let message {
            lines.append("message")
            lines += MessageDump.lines(message, id: id).map { "  " + $0 }
        }
        if let error {
            lines.append("error     \(error.message)")
            if let offset = error.offset { lines += Self.context(of: bytes, at: offset) }
        }
        return lines.joined(separator: "\n")
    }

    /// Up to eight bytes either side of `offset`, with a caret under the byte at fault.
    static func context(of bytes: [UInt8], at offset: Int) -> [String] {
        let start = max(0, offset - 8)
        let end = min(bytes.count, offset + 9)
        guard start < end else { return ["          (byte \(offset) is past the end of the \(bytes.count) bytes)"] }
        let shown = bytes[start..<end].map { Hex.string([$0]) }.joined(separator: " ")
        let caret = String(repeating: " ", count: (offset - start) * 3) + (offset < bytes.count ? "^^" : "^ end")
        return [
            "          \(start > 0 ? "…" : "")\(shown)\(end < bytes.count ? " …" : "")",
            "          \(start > 0 ? " " : "")\(caret)",
        ]
    }
}
