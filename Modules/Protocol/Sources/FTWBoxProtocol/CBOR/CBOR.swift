/// One CBOR data item (RFC 8949), the value every wire message is made of.
///
/// The cases follow the major types, with the simple values the protocol uses (`bool`, `null`, `undefined`) and
/// floats given their own cases, so code that reads a message can match on what it needs. Integers keep their
/// sign in the case: ``negative(_:)`` holds `n` for the value `-1 - n`, which is how CBOR covers all of
/// `-2^64 ... 2^64-1` without overflow. Indefinite-length strings are joined on decode, so a value never records
/// how it was chunked.
///
/// Two values are equal when they are the same data item: floats compare by their bits (so `NaN == NaN`, and
/// `0.0 != -0.0`), text compares by its UTF-8 bytes (not by Unicode canonical equivalence), and maps compare
/// their entries whatever their order (see ``CBORMap``).
///
/// Only ``tagged(_:_:)`` is indirect: the other cases hold scalars or values that are already references (arrays,
/// strings), so a decoded integer or string costs no box of its own.
public enum CBOR: Sendable {
    /// An unsigned integer, major type 0.
    case unsigned(UInt64)
    /// A negative integer, major type 1, holding `n` for the value `-1 - n`.
    case negative(UInt64)
    /// A byte string, major type 2.
    case bytes([UInt8])
    /// A text string, major type 3.
    case text(String)
    /// An array, major type 4.
    case array([CBOR])
    /// A map, major type 5, with its entries in order.
    case map(CBORMap)
    /// A tagged item, major type 6.
    indirect case tagged(UInt64, CBOR)
    /// A simple value other than false, true, null and undefined, major type 7.
    case simple(UInt8)
    /// `false` or `true` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22): "this field has no value", which the box keeps distinct from an absent field.
    case null
    /// `undefined` (simple value 23).
    case undefined
    /// A half, single or double precision float; the encoder picks the shortest width that holds it exactly.
    case float(Double)
}
