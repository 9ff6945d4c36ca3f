/// Who the box admits: the enrolled phones, and the pairing codes that can still enrol one (§8.2).
///
/// A code is single use, lives 10 minutes on the wall clock, and burns after 5 wrong guesses; the first phone ever
/// enrolled is an owner whatever its code said.
struct Enrolment: Sendable {
    static let codeLifetimeMs: Int64 = 600_000
    static let maxWrongGuesses = 5
    static let codeSize = 16

    private struct PairingCode: Sendable {
        let code: [UInt8]
        let role: String
        let expiresAtMs: Int64
        var wrongGuesses = 0
    }

    /// What became of a change to a device.
    enum Change: Sendable, Hashable {
        case done(EnrolledDevice)
        case unknownDevice
        case lastOwner
    }

    private(set) var devices: [EnrolledDevice]
    private var codes: [PairingCode] = []
    /// How many codes burnt after 5 wrong guesses so far: the box prints a fresh link for each.
    private(set) var burntCodes = 0

    init(devices: [EnrolledDevice]) {
        self.devices = devices
    }

    /// Makes `code` spendable by one phone, which will get `role`, until `nowMs` + 10 minutes.
    mutating func mint(code: [UInt8], role: String, nowMs: Int64) {
        codes.append(PairingCode(code: code, role: role, expiresAtMs: nowMs + Self.codeLifetimeMs))
    }

    /// The device to admit for a handshake from `appKey` carrying `payload`, or nil to refuse it (in silence).
    ///
    /// An empty payload admits a known phone; a 16-byte payload spends a matching code (and counts as a wrong
    /// guess against every live code otherwise); anything else (a spoken code, which is LAN-only) is refused.
    mutating func admit(appKey: [UInt8], payload: [UInt8], nowMs: Int64) -> EnrolledDevice? {
        codes.removeAll { $0.expiresAtMs <= nowMs }
        if payload.isEmpty { return device(appKey: appKey) }
        guard payload.count == Self.codeSize else { return nil }
        guard let index = codes.firstIndex(where: { Self.constantTimeEqual($0.code, payload) }) else {
            for index in codes.indices { codes[index].wrongGuesses += 1 }
            let live = codes.count
            codes.removeAll { $0.wrongGuesses >= Self.maxWrongGuesses }
            burntCodes += live - codes.count
            return nil
        }
        let code = codes.remove(at: index)
        let role = devices.isEmpty ? "owner" : code.role
        let device = EnrolledDevice(appStaticKey: appKey, role: role, enrolledAtMs: nowMs)
        devices.removeAll { $0.appStaticKey == appKey }
        devices.append(device)
        return device
    }

    /// The enrolled device with `appKey`, if it is still enrolled.
    func device(appKey: [UInt8]) -> EnrolledDevice? {
        devices.first { $0.appStaticKey == appKey }
    }

    /// Removes a device; the last owner stays.
    mutating func revoke(deviceId: String) -> Change {
        guard let device = devices.first(where: { $0.deviceId == deviceId }) else { return .unknownDevice }
        guard !isLastOwner(device) else { return .lastOwner }
        devices.removeAll { $0.deviceId == deviceId }
        return .done(device)
    }

    /// Changes a device's role; the last owner cannot be demoted.
    mutating func setRole(deviceId: String, role: String) -> Change {
        guard let index = devices.firstIndex(where: { $0.deviceId == deviceId }) else { return .unknownDevice }
        guard role == "owner" || !isLastOwner(devices[index]) else { return .lastOwner }
        devices[index].role = role
        return .done(devices[index])
    }

    private func isLastOwner(_ device: EnrolledDevice) -> Bool {
        device.role == "owner" && devices.filter { $0.role == "owner" }.count == 1
    }

    /// Compares without stopping at the first difference, so timing says nothing about a guess.
    private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
