/// One five-minute bucket of the energy ledger: the mean power of each flow, in W, site sign convention.
struct LedgerBucket: Sendable, Hashable {
    var gridW: Int32
    var pvW: Int32
    var batteryW: Int32
    var loadW: Int32
    var carW: Int32
    /// The battery's charge at the bucket's end.
    var storedWh: Double

    /// The mean of the history series `name` (`grid_w`, `pv_w`, `battery_w`, `load_w`); nil for a series the box
    /// does not keep, which the answer fills with MISSING.
    func value(of name: String) -> Int32? {
        switch name {
        case "grid_w": gridW
        case "pv_w": pvW
        case "battery_w": batteryW
        case "load_w": loadW
        default: nil
        }
    }
}
