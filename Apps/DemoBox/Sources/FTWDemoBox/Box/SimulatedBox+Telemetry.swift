import FTWBoxProtocol
import FTWClockSeam
import FTWCrypto

extension SimulatedBox {
    /// What the shipping box advertises when it has a state DB, a loadpoint and a price zone (§2.2).
    static let capabilities: [Capability] = [
        .statusCore, .cmdLease, .cmdPrecondition, .cmdReadback, .planDispatch, .history5m, .history1h,
        .historyEtag, .derEV, .priceSpot, .apiPassthrough,
    ]

    /// The snapshot's field dictionary: fids 1-6 and 10, the power fields pointing at the site meter.
    static let dictionary: [Int: FieldDef] = Dictionary(
        uniqueKeysWithValues: FieldID.frozen.filter { [1, 2, 3, 4, 5, 6, 10].contains($0.id) }.map { field in
            let source = field.id == FieldID.mode || field.id == FieldID.ev ? nil : LiveHouse.meter
            return (field.id, FieldDef(name: field.name, unit: field.unit, srcId: source))
        }
    )

    /// First 16 hex digits of SHA-256 over the sorted caps, each followed by a zero byte.
    static func capsHash(_ caps: [Capability]) -> String {
        let names = caps.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let bytes = names.flatMap { name -> [UInt8] in Array(name.utf8) + [0] }
        return SHA256.hash(bytes).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `hello` → `hello_ok` (then `snap` when it carried a `sub`); an undecodable hello gets no answer. A `booting`
    /// box says so in `hello_ok.mode` and streams nothing yet: the phone says hello again.
    func onHello(_ envelope: Envelope, session number: Int, booting: Bool = false) {
        guard let body = envelope.body, let hello = try? Hello(body: body), let index = index(of: number) else {
            return
        }
        guard let device = enrolment.device(appKey: sessions[index].appKey) else {
            return terminateRevoked(session: number)
        }
        let proto = hello.proto.max >= 1 ? 1 : max(0, hello.proto.max)
        sessions[index].proto = proto
        let role = Role(rawValue: device.role)
        let isFloor = proto == 0
        let caps = isFloor ? [Capability.statusCore] : Self.capabilities
        let answer = HelloOK(
            proto: proto,
            mode: booting ? "booting" : isFloor ? "floor" : Self.canWrite(role) ? "full" : "readonly",
            box: BoxInfo(id: boxID, build: build, tz: configuration.timeZone),
            clock: ClockInfo(syncedAtMs: 0, uptimeMs: uptime.nowMs),
            caps: caps,
            capsHash: Self.capsHash(caps),
            modes: ModeCatalogue.modes,
            hint: isFloor ? "app_update" : nil,
            role: role,
            scopes: role.scopes,
            subscribed: hello.sub != nil && !booting
        )
        send(.helloOK(answer), id: envelope.id, to: number)
        if let sub = hello.sub, !booting { applySub(sub, session: number) }
    }

    /// The box's id: the first 16 hex digits of SHA-256 of its static key, as the app names the site.
    var boxID: String {
        SHA256.hash(identity.staticPublicKey).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            .joined()
    }

    static func canWrite(_ role: Role) -> Bool {
        !Set(role.scopes).isDisjoint(with: [.dispatchWrite, .modeWrite, .membersWrite])
    }

    func onSub(_ envelope: Envelope, session number: Int) {
        guard let body = envelope.body, let sub = try? Sub(body: body) else { return }
        applySub(sub, session: number)
    }

    /// The first `sub` fixes the bucket, sends the snapshot and only then starts the stream; later ones retune.
    func applySub(_ sub: Sub, session number: Int) {
        guard let index = index(of: number) else { return }
        guard sessions[index].stream == nil else {
            sessions[index].stream?.retune(sub)
            return
        }
        let snap = snapshot(proto: sessions[index].proto)
        send(.snap(snap), id: nil, to: number)
        if let index = self.index(of: number) { sessions[index].stream = TelemetryStream(sub: sub, after: snap) }
    }

    /// The whole site now; the floor (proto 0) sees fields 1-9 only.
    func snapshot(proto: Int) -> Snap {
        let uptimeMs = uptime.nowMs
        let sources = house.sources(uptimeMs: uptimeMs, staleAfterMs: configuration.staleAfterMs)
        let visible: (Int) -> Bool = { proto > 0 || $0 <= FieldID.sourceBattery }
        return Snap(
            uptimeMs: uptimeMs,
            controlRev: controlRev,
            dict: Self.dictionary.filter { visible($0.key) },
            fields: house.fields(modeIndex: ModeCatalogue.index(of: house.mode)).filter { visible($0.key) },
            sources: sources,
            dispatchBlockedBy: sources[LiveHouse.meter]?.state == .live ? [] : [LiveHouse.meter]
        )
    }

    /// One pulse of session `number`'s stream.
    func streamPulse(session number: Int) {
        guard let index = index(of: number), var stream = sessions[index].stream else { return }
        let frames = stream.pulse(snapshot(proto: sessions[index].proto))
        sessions[index].stream = stream
        for frame in frames { send(frame.message, id: nil, to: number, flags: frame.flags) }
    }
}
