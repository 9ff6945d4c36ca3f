import FTWCrypto

/// The sealed folder's record of which key sealed its files: the file `.key-id`, holding 16 hex digits that name the
/// key (the first 8 bytes of HMAC-SHA256 under the key of a fixed label), and a newline.
///
/// AES-GCM fails the same way for a changed byte and for a wrong key, so a file that does not open proves nothing
/// by itself: with the mark, the store tells a file damaged under its own key (dropped) from a key that is not the
/// folder's (another phone's `phone.key` put in its place: every file is kept, nothing is written over them, and the
/// right key back opens them all). The mark names the key without revealing anything of it, and is no sealed file's
/// name (a dot file, as a write's temporary files are), so listings, readers of the folder such as
/// `ftw-launch-baseline`, and every older build pass it by.
///
/// The sealed files keep their format (version 1), so older builds read them as before. A folder an older build
/// made has no mark: the store writes one when it first needs to know whether its key is the folder's (the first
/// file that does not open, or the first write), once one of the folder's files opens under it, or before its first
/// write into a folder that holds none.
package enum KeyMark {
    /// The mark's file name in the sealed folder.
    package static let fileName = ".key-id"
    /// The layout of the mark (16 hex digits and a newline): a change to it bumps this, and the golden corpus
    /// (Tests/SealedCorpus) gets a folder with the new mark.
    package static let version: UInt8 = 1
    /// Longer than any mark, so a stray large file there is never read whole.
    static let sizeLimit = 64

    private static let label = Array("ftw.seal.key-id".utf8)

    /// The name of `key`: 16 lowercase hex digits.
    package static func id(of key: [UInt8]) -> String {
        HMAC.sha256(key: key, message: label).prefix(8).lowercaseHex
    }

    /// The file that marks a folder as sealed under the key named `id`.
    static func contents(id: String) -> [UInt8] {
        Array("\(id)\n".utf8)
    }

    /// The key name a mark file holds, or nil when it holds no mark.
    static func id(in contents: [UInt8]) -> String? {
        let text = String(decoding: contents, as: UTF8.self)
        let id = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard id.utf8.count == 16, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        return id
    }
}
