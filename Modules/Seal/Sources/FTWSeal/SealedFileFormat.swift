import FTWBus
import FTWCrypto
package import FTWSealInterface

/// The bytes of one sealed file, and the checks that decide whether they open.
///
/// ```
/// offset  size  field
///      0     4  magic "FTWS"
///      4     1  format version (1)
///      5     1  kind (snapshot 1, home 2, ring 3, tiles 4, kept 5)
///      6    16  site id, ASCII hex
///     22    12  nonce, fresh and random for every write
///     34     n  ciphertext (AES-256-GCM)
///   34+n    16  tag
/// ```
///
/// The associated data is the 22-byte header followed by the file name in UTF-8, so a file renamed to another
/// kind, site or model, or with a changed header, does not open. The header is also checked in the clear first, so
/// the reason a file was dropped can be told apart from a plain authentication failure.
///
/// Package-wide so the fuzzer (`fuzz-sealed` in `Tools/Fuzz`) can seal and open bytes without a disk.
package enum SealedFileFormat {
    static let magic = Array("FTWS".utf8)
    /// The format version this build writes. Every earlier version a release wrote stays readable here (the
    /// golden corpus in Tests/EndToEndTests/Fixtures holds a folder of each); a newer one is kept, never dropped.
    package static let version: UInt8 = 1
    static let headerSize = 22
    /// The bytes a sealed file has beyond its contents: header, nonce and tag.
    package static let overhead = headerSize + AEADAlgorithm.nonceSize + AEADAlgorithm.tagSize

    private static let versionOffset = 4
    private static let kindOffset = 5
    private static let siteOffset = 6

    /// The file that holds `contents` as `name`, sealed under `key` with a fresh nonce.
    ///
    /// - Throws: `SealError` with `.tooLarge` when the file would pass `name.sizeLimit` (no store makes a file it
    ///   would refuse to read back), `.keyUnavailable` when the cipher refuses the key.
    package static func seal(_ contents: [UInt8], as name: SealedFileName, key: [UInt8]) throws(SealError) -> [UInt8] {
        var cipher = try sealingCipher(key: key)
        return try seal(contents, as: name, cipher: &cipher)
    }

    /// A cipher keyed for sealing files under `key`, to keep for the next writes.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the cipher refuses the key.
    static func sealingCipher(key: [UInt8]) throws(SealError) -> AEADCipher {
        do {
            return try AEADCipher(.aes256GCM, key: key)
        } catch {
            throw SealError(.keyUnavailable, "the cipher refused the key: \(error)", cause: error)
        }
    }

    /// ``seal(_:as:key:)`` with a cipher already keyed (``sealingCipher(key:)``): a store that writes the same
    /// file every 15 s keys one once rather than for every write.
    static func seal(
        _ contents: [UInt8],
        as name: SealedFileName,
        cipher: inout AEADCipher
    ) throws(SealError) -> [UInt8] {
        let size = contents.count + overhead
        guard size <= name.sizeLimit else {
            throw SealError(.tooLarge, "\(name) would hold \(size) bytes, more than the \(name.sizeLimit) its kind may")
        }
        let header = header(for: name)
        let nonce = freshNonce()
        // The ciphertext is written straight after the header and nonce: joining the parts afterwards copied the
        // whole file once more (a ring file is written every 15 s).
        var file = header + nonce
        file.reserveCapacity(size)
        do {
            try cipher.seal(
                contents[...],
                nonce: nonce,
                associatedData: associatedData(header, name)[...],
                appendingTo: &file
            )
            return file
        } catch {
            throw SealError(.keyUnavailable, "the cipher refused the key: \(error)", cause: error)
        }
    }

    /// A random 96-bit nonce from the kernel's generator (`getrandom`, through the standard library's generator,
    /// which is cryptographically secure on every platform this builds for): libcrypto's `RAND_bytes` costs 7 k
    /// instructions a call, and the ring file is sealed every 15 s.
    private static func freshNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var nonce: [UInt8] = []
        nonce.reserveCapacity(AEADAlgorithm.nonceSize)
        while nonce.count < AEADAlgorithm.nonceSize {
            let bits: UInt64 = generator.next()
            withUnsafeBytes(of: bits) { nonce.append(contentsOf: $0.prefix(AEADAlgorithm.nonceSize - nonce.count)) }
        }
        return nonce
    }

    /// Checks what can be checked without the key: length, magic, version, kind and site.
    ///
    /// - Throws: `SealError` with `.truncated`, `.badMagic`, `.unknownVersion` (a version no build wrote),
    ///   `.newerFormat` (a newer build's, which is kept), `.wrongKind` or `.wrongSite`.
    static func checkHeader(_ file: [UInt8], as name: SealedFileName) throws(SealError) {
        guard file.count >= overhead else {
            throw SealError(.truncated, "\(file.count) bytes cannot hold a sealed file's \(overhead)")
        }
        let expected = header(for: name)
        guard file.starts(with: magic) else { throw SealError(.badMagic, "\(name) is not a sealed file") }
        guard file[versionOffset] <= version else {
            throw SealError(
                .newerFormat,
                "\(name) was written by a newer build, in format \(file[versionOffset]) (this build reads format"
                    + " \(version) and older); it is kept for that build, and its model starts empty"
            )
        }
        guard file[versionOffset] == version else {
            throw SealError(
                .unknownVersion,
                "\(name) is in format version \(file[versionOffset]), which no build wrote; this build reads \(version)"
            )
        }
        guard file[kindOffset] == expected[kindOffset] else {
            throw SealError(.wrongKind, "\(name) holds kind \(file[kindOffset]), not \(expected[kindOffset])")
        }
        guard file[siteOffset..<headerSize].elementsEqual(expected[siteOffset...]) else {
            throw SealError(.wrongSite, "\(name) holds another site's file")
        }
    }

    /// The contents of `file`, opened as `name` under `key`.
    ///
    /// - Throws: `SealError` with a ``checkHeader(_:as:)`` code, `.authenticationFailed` when the tag does not match
    ///   (changed bytes, another key, another model's name), or `.keyUnavailable` when the cipher refuses the key.
    package static func open(_ file: [UInt8], as name: SealedFileName, key: [UInt8]) throws(SealError) -> [UInt8] {
        try checkHeader(file, as: name)
        let nonceEnd = headerSize + AEADAlgorithm.nonceSize
        do {
            return try AEADAlgorithm.aes256GCM.open(
                Array(file[nonceEnd...]),
                key: key,
                nonce: Array(file[headerSize..<nonceEnd]),
                associatedData: associatedData(Array(file[..<headerSize]), name)
            )
        } catch  where error.code == .authenticationFailed {
            throw SealError(.authenticationFailed, "\(name) does not open under this phone's key")
        } catch {
            throw SealError(.keyUnavailable, "the cipher refused the key: \(error)", cause: error)
        }
    }

    /// The contents of `file` as `name`: checked in the clear first, so a file proven bad (too large, a wrong
    /// header) is told apart from a key that is not at hand, then opened under the key.
    ///
    /// - Throws: `SealError` with `.tooLarge`, a ``checkHeader(_:as:)`` code, the key's failure, or
    ///   `.authenticationFailed` when the tag does not match.
    package static func open(
        _ file: [UInt8],
        as name: SealedFileName,
        key: Result<[UInt8], SealError>
    ) throws(SealError) -> [UInt8] {
        guard file.count <= name.sizeLimit else {
            throw SealError(
                .tooLarge,
                "\(name) holds \(file.count) bytes, more than the \(name.sizeLimit) its kind may"
            )
        }
        try checkHeader(file, as: name)
        return try open(file, as: name, key: key.get())
    }

    private static func header(for name: SealedFileName) -> [UInt8] {
        magic + [version, code(of: name.kind)] + Array(name.site.rawValue.utf8)
    }

    private static func associatedData(_ header: [UInt8], _ name: SealedFileName) -> [UInt8] {
        header + Array(name.fileName.utf8)
    }

    /// The kind's byte on disk: fixed here, never derived from the enum's order, so adding a kind moves no file.
    private static func code(of kind: SealedFileKind) -> UInt8 {
        switch kind {
        case .snapshot: 1
        case .home: 2
        case .ring: 3
        case .tiles: 4
        case .kept: 5
        }
    }
}
