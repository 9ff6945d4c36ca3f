extension SealedFileName {
    /// The largest a file of this name may be on disk, the seal's 50 bytes included: a few times what it holds in a
    /// real home (the Seal README's table), so a stray or hostile file is refused before it is read and costs no
    /// memory, and a write past it is refused so the store never makes a file it would not read back.
    public var sizeLimit: Int {
        switch kind {
        // The demo home (a meter and a charger) seals to under 2 KB; the limit leaves room for dozens of devices.
        case .snapshot, .home: 64 << 10
        // The largest ring file the writer can make (32 rings of 360 points at 20 bytes a point) is about 230 KB.
        case .ring: 256 << 10
        // 48 hours of four series is 11.5 KiB; the limit leaves room for about 80 series.
        case .tiles: 256 << 10
        case .kept: model.flatMap { Self.keptSizeLimits[$0] } ?? Self.keptSizeLimit
        }
    }

    /// The limit of a kept file whose model has none of its own in ``keptSizeLimits``.
    public static let keptSizeLimit = 1 << 20

    /// The limits of the kept files the app's models make, by model name.
    public static let keptSizeLimits: [String: Int] = [
        "pairing": 16 << 10,
        "prices": 128 << 10,
        "plan": 128 << 10,
        "chargers": 64 << 10,
        "prefs": 16 << 10,
        "status": 64 << 10,
    ]
}
