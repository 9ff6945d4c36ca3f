import FTWBoxProtocol

/// The box's mode catalogue as `hello_ok.modes` lists it: every registry mode in the registry's order, with the
/// box's own label and tooltip. Field 1 is an index into this list.
enum ModeCatalogue {
    static let modes: [ModeInfo] = ModeKey.all.map { key in
        let (label, tooltip) = wording(key)
        return ModeInfo(key: key.rawValue, label: label, tooltip: tooltip, tier: key.registryTier ?? "hidden")
    }

    /// The index of `mode` in the catalogue, or -1 when it is not listed.
    static func index(of mode: ModeKey) -> Int {
        ModeKey.all.firstIndex(of: mode) ?? -1
    }

    private static func wording(_ key: ModeKey) -> (String, String) {
        switch key {
        case .plannerPassiveArbitrage: ("Smart", "Plans the battery around prices and sun, never exporting from it")
        case .plannerArbitrage: ("Smart + trade", "Plans the battery around prices and sun, selling when it pays")
        case .idle: ("Idle", "The battery rests")
        case .selfConsumption: ("Self-consumption", "The battery takes surplus sun and covers the house")
        case .peakShaving: ("Peak shaving", "The battery keeps imports under the ceiling")
        case .charge: ("Charge", "The battery charges now")
        case .plannerSelf: ("Planner (self)", "Planner tuned for self-consumption")
        case .plannerCheap: ("Planner (cheap)", "Planner that charges in the cheapest hours")
        case .priority: ("Priority", "Devices served in a fixed order")
        case .weighted: ("Weighted", "Devices share by weight")
        default: (key.rawValue, "")
        }
    }
}
