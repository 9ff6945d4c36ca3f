/// A CBOR map that keeps its entries in order.
///
/// Order is part of the bytes, not of the meaning: the app writes its request bodies in the order of the spec's
/// tables and the box sorts its own (RFC 8949 core deterministic), and both must be reproduced byte for byte. So
/// the map keeps the order it was built or decoded in, the encoder writes it as given (or sorts it when asked),
/// and equality ignores it: two maps are equal when they hold the same entries.
public struct CBORMap: Sendable {
    /// One key and its value.
    public struct Entry: Sendable, Hashable {
        /// The key; any CBOR value, though the box only uses text keys.
        public var key: CBOR
        /// The value.
        public var value: CBOR

        /// Makes an entry.
        public init(key: CBOR, value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The entries, in the order they are written.
    public var entries: [Entry]

    /// Makes a map of `entries`, in that order.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Makes a map with text keys, in the order given.
    public init(_ pairs: [(String, CBOR)]) {
        self.entries = pairs.map { Entry(key: .text($0.0), value: $0.1) }
    }

    /// How many entries the map holds.
    public var count: Int { entries.count }

    /// Whether the map holds no entry.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value under the text key `key`, or nil when there is none.
    ///
    /// Setting a value replaces the entry in place (keeping its position) or appends a new one; setting nil
    /// removes the entry.
    public subscript(_ key: String) -> CBOR? {
        get { firstIndex(ofText: key).map { entries[$0].value } }
        set { self[key: .text(key)] = newValue }
    }

    /// Where the entry under the text key `text` is, or nil.
    ///
    /// Compared as text in place: wrapping `text` in a CBOR value and comparing values costs several times more,
    /// and every message reads its fields, and the decoder checks every new key, this way.
    func firstIndex(ofText text: String) -> Int? {
        for index in entries.indices {
            if case .text(let key) = entries[index].key, CBOR.sameUTF8(key, text) { return index }
        }
        return nil
    }

    /// The value under `key`, for maps whose keys are not text.
    public subscript(key key: CBOR) -> CBOR? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The map with its entries sorted as RFC 8949 core deterministic encoding sorts them: bytewise on each key's
    /// encoded form, so shorter text keys come first. Nested maps are left as they are.
    public var sortedByEncodedKey: CBORMap {
        let encoder = CBOREncoder()
        let keyed = entries.map { (key: encoder.encode($0.key), entry: $0) }
        return CBORMap(entries: keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry))
    }
}

extension CBORMap: ExpressibleByDictionaryLiteral {
    /// Makes a map with text keys from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, CBOR)...) {
        self.init(elements)
    }
}

extension CBORMap: Hashable {
    /// Whether both maps hold the same entries, whatever their order.
    public static func == (lhs: CBORMap, rhs: CBORMap) -> Bool {
        lhs.entries == rhs.entries || lhs.canonicalBytes == rhs.canonicalBytes
    }

    /// Hashes the entries independently of their order, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalBytes)
    }

    /// The deterministic encoding: one byte string per set of entries, whatever order they were given in.
    private var canonicalBytes: [UInt8] {
        CBOREncoder(keyOrder: .deterministic).encode(.map(self))
    }
}
