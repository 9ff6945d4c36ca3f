import FTWBoxProtocol
import FTWFrameInspector
import Testing

/// The JSON the inspector writes for CBOR reads back as the same CBOR, for every kind of item.
@Suite struct CBORJSONTests {
    @Test(
        arguments: [
            (CBOR.unsigned(.max), "18446744073709551615"),
            (.negative(.max), "-18446744073709551616"),
            (.int(-1), "-1"),
            (.float(1.0), "1.0"),
            (.float(-0.0), "-0.0"),
            (.float(1e300), "1e+300"),
            (.float(.nan), #"{"$float": "NaN"}"#),
            (.float(-.infinity), #"{"$float": "-Infinity"}"#),
            (.bytes([0xde, 0xad]), #"{"$bytes": "dead"}"#),
            (.text("é \"\u{1}\n"), #""é \"\u0001\n""#),
            (.undefined, #"{"$undefined": true}"#),
            (.simple(99), #"{"$simple": 99}"#),
            (.tagged(1, .unsigned(5)), #"{"$tag": 1, "$value": 5}"#),
            (.map(CBORMap(entries: [CBORMap.Entry(key: 1, value: "a")])), #"{"$map": [[1, "a"]]}"#),
            (.map(["$t": 1]), #"{"$map": [["$t", 1]]}"#),
            (.map(["b": [.null, true], "a": [:]]), #"{"b": [null, true], "a": {}}"#),
        ]
    )
    func aValueIsWrittenAsDocumentedAndReadsBack(value: CBOR, json: String) throws {
        #expect(CBORJSON.json(value).text == json)
        #expect(try CBORJSON.cbor(try JSONParser.parse(json)) == value)
    }

    @Test func surrogatePairsAndEscapesReadAsTheirCharacters() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude42\u00e9\/\t""#) == .string("🙂é/\t"))
    }

    @Test(arguments: [
        "", "01", "[1,]", "{\"a\" 1}", "\"\\ud83d\"", "\"a", "tru", "1 2", "[" + String(repeating: "[", count: 70),
    ])
    func textThatIsNotJSONIsRefused(text: String) {
        #expect(throws: InspectorError.self) { try JSONParser.parse(text) }
    }
}
