/// The XOR masking of RFC 6455 §5.3, which is its own inverse: the same call masks and unmasks.
enum WebSocketMask {
    /// XORs `payload` in place with `key`, whose most significant byte is the first key byte on the wire.
    static func apply(_ key: UInt32, to payload: inout [UInt8]) {
        let keyBytes = [UInt8(key >> 24), UInt8(key >> 16 & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)]
        payload.withUnsafeMutableBufferPointer { bytes in
            for index in bytes.indices { bytes[index] ^= keyBytes[index & 3] }
        }
    }
}
