import Bus
import ClockSeam
import SessionInterface

extension LiveSession {
    /// Records one request frame: the asks log line (category `asks`), the event, the count of its stay.
    func recordAsk(type: String, id: UInt32, detail: String) {
        let stay = stays.current
        let record = AskRecord(type: type, id: id, atMs: wallClock.nowMs, stay: stay, detail: detail)
        asks.append(record)
        stays.count(in: stay)
        log.log("asks", atMs: record.atMs, "stay \(stay) \(type) #\(id) \(detail)")
        publish(.asked(record))
    }
}
