import FTWBoxProtocol

/// Lists cut to fit the largest bulk frame, as the box cuts plans and price answers: keep the first ¾ on each pass.
enum BulkFit {
    /// The message `build` makes from the longest head of `items` that fits one bulk frame with `id`; `build`
    /// learns whether anything was cut.
    static func fitting<Item>(_ items: [Item], id: UInt32?, build: ([Item], Bool) -> Message) -> Message {
        var kept = items
        var message = build(kept, false)
        while !kept.isEmpty, Frame.bulkBucket(forPayload: message.envelope(id: id).encoded().count) == nil {
            kept = Array(kept.prefix(kept.count * 3 / 4))
            message = build(kept, true)
        }
        return message
    }
}
