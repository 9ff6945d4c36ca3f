extension CBOR: ExpressibleByIntegerLiteral {
    /// An integer, as in `let seq: CBOR = 41`.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension CBOR: ExpressibleByFloatLiteral {
    /// A float, as in `let hz: CBOR = 0.2`.
    public init(floatLiteral value: Double) {
        self = .float(value)
    }
}

extension CBOR: ExpressibleByStringLiteral {
    /// A text string, as in `let type: CBOR = "tick"`.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension CBOR: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension CBOR: ExpressibleByArrayLiteral {
    /// An array, as in `let locales: CBOR = ["sv"]`.
    public init(arrayLiteral elements: CBOR...) {
        self = .array(elements)
    }
}

extension CBOR: ExpressibleByDictionaryLiteral {
    /// A map in the literal's order, as in `let body: CBOR = ["seq": 41]`.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        self = .map(CBORMap(entries: elements.map { CBORMap.Entry(key: $0.0, value: $0.1) }))
    }
}
