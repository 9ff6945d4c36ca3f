import FTWBoxProtocol

/// What `ftw-bench frame` streams: the demo box's snapshot (fields 1-6 and 10, the power fields pointing at the
/// meter) and, each second, a `delta` in which the four power fields and the state of charge moved, as a home's
/// 1 Hz stream mostly reads.
enum FrameMix {
    /// How many frames the box seals before any is measured: more than any run sends.
    static let sealedAhead = 64

    /// The snapshot that opens the stream.
    static let snap = Snap(
        uptimeMs: 1_000,
        controlRev: 1,
        dict: Dictionary(
            uniqueKeysWithValues: FieldID.frozen.filter { [1, 2, 3, 4, 5, 6, 10].contains($0.id) }.map { field in
                (field.id, FieldDef(name: field.name, unit: field.unit, srcId: field.kind == "power" ? "meter" : nil))
            }
        ),
        fields: [FieldID.mode: 0, FieldID.grid: 1_200, FieldID.pv: 800, FieldID.battery: -300, FieldID.load: 1_700],
        sources: [:]
    )

    /// The `n`th second's delta.
    static func delta(_ n: Int) -> Message {
        let wobble = Int64(n % 7) * 13
        return .delta(
            Delta(
                seq: UInt64(n + 1),
                uptimeMs: 2_000 + Int64(n) * 1_000,
                fields: [
                    FieldID.grid: 1_200 + wobble, FieldID.pv: 800 - wobble, FieldID.battery: -300 + wobble,
                    FieldID.load: 1_700 + wobble, FieldID.batterySoc: 55,
                ]
            )
        )
    }

    /// Every delta a run may send.
    static var deltas: [Message] { (0..<sealedAhead).map(delta) }
}
