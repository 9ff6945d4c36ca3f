import FTWBoxProtocol
import FTWClockSeam
import Foundation

extension SimulatedBox {
    private static let maxDays = 30

    /// Runs a route's handler now; its answer goes out after the service time.
    func handle(_ handler: APIRoute.Handler, _ parameters: [String], _ request: APIRequest) -> APIAnswer {
        switch handler {
        case .loadpoints: return .json([loadpoint()])
        case .plannerPreferences: return .json(APIDocuments.PlannerPreferences())
        case .status: return .json(status())
        case .mpcPlan: return .json(mpcPlan())
        case .energyDaily: return energyDaily(days: request.query["days"])
        case .devices:
            return .json(
                enrolment.devices.map {
                    APIDocuments.Device(id: $0.deviceId, role: $0.role, enrolledAtMs: $0.enrolledAtMs)
                }
            )
        case .putSchedule: return putSchedule(loadpoint: parameters.first, body: request.requestBody)
        case .deleteSchedule: return deleteSchedule(loadpoint: parameters.first)
        case .pairing: return pairing(body: request.requestBody)
        case .revokeDevice: return revoke(deviceId: parameters.first ?? "")
        case .changeDevice: return changeRole(deviceId: parameters.first ?? "", body: request.requestBody)
        case .replan:
            regeneratePlan()
            return .json(APIDocuments.Done(rev: plan.rev))
        case .none: return .failure(404, "not found")
        }
    }

    private func loadpoint() -> APIDocuments.Loadpoint {
        let wallMs = wallClock.nowMs
        return APIDocuments.Loadpoint(
            id: LiveHouse.loadpointID,
            name: "Garage",
            maxPowerW: Int(HouseModel.chargerMaxW),
            powerW: house.readings.carW,
            connected: true,
            hold: house.car.hold.map { APIDocuments.Hold(powerW: $0.powerW, untilUptimeMs: $0.untilUptimeMs) },
            boostUntilMs: house.car.isBoosting(wallMs: wallMs) ? house.car.boost?.untilWallMs : nil,
            schedule: schedules[LiveHouse.loadpointID]
        )
    }

    private func status() -> APIDocuments.Status {
        let uptimeMs = uptime.nowMs
        let fields = house.fields(modeIndex: ModeCatalogue.index(of: house.mode))
        let names = Dictionary(uniqueKeysWithValues: FieldID.frozen.map { ($0.id, $0.name) })
        return APIDocuments.Status(
            mode: house.mode.rawValue,
            uptimeMs: uptimeMs,
            fields: Dictionary(uniqueKeysWithValues: fields.map { (names[$0.key] ?? String($0.key), $0.value) }),
            drivers: house.sources(uptimeMs: uptimeMs, staleAfterMs: configuration.staleAfterMs)
                .mapValues(\.state.rawValue)
        )
    }

    private func mpcPlan() -> APIDocuments.MPCPlan {
        refreshPlanIfQuarterTurned(wallMs: wallClock.nowMs)
        let slots = plan.slots.map { slot in
            APIDocuments.MPCSlot(
                startMs: slot.startMs,
                endMs: slot.startMs + slot.durationMs,
                durationMs: slot.durationMs,
                batteryW: slot.batteryW,
                gridW: slot.gridW,
                priceMinor: slot.priceMinor,
                reason: slot.reason.rawValue,
                batteryAction: slot.batteryW > 100 ? "charge" : slot.batteryW < -100 ? "discharge" : "hold"
            )
        }
        return APIDocuments.MPCPlan(rev: plan.rev, generatedAtMs: plan.generatedAtMs, slots: slots)
    }

    /// The last `days` local days (today included), oldest first, from the ledger's complete buckets.
    private func energyDaily(days: String?) -> APIAnswer {
        guard let count = Int(days ?? "1"), (1...Self.maxDays).contains(count) else {
            return .failure(400, "days must be 1 to \(Self.maxDays)")
        }
        let nowMs = wallClock.nowMs
        let zone = house.model.zone
        var starts = [zone.dayStart(atMs: nowMs)]
        while starts.count < count, let first = starts.first { starts.insert(zone.dayStart(atMs: first - 1), at: 0) }
        let totals = starts.map { start in
            energy(
                dayStartMs: start,
                buckets: ledger.completeBuckets(
                    fromMs: start,
                    toMs: zone.nextDayStart(atMs: start),
                    nowMs: nowMs
                )
            )
        }
        return .json(totals)
    }

    private func energy(dayStartMs: Int64, buckets: [LedgerBucket]) -> APIDocuments.EnergyDay {
        func kWh(_ value: (LedgerBucket) -> Int32) -> Double {
            let wattHours = buckets.reduce(0.0) { $0 + Double(value($1)) } / 12
            return (wattHours).rounded() / 1000
        }
        return APIDocuments.EnergyDay(
            dayStartMs: dayStartMs,
            importKWh: kWh { max(0, $0.gridW) },
            exportKWh: kWh { max(0, -$0.gridW) },
            pvKWh: kWh { -$0.pvW },
            loadKWh: kWh(\.loadW),
            batteryChargeKWh: kWh { max(0, $0.batteryW) },
            batteryDischargeKWh: kWh { max(0, -$0.batteryW) },
            evKWh: kWh(\.carW)
        )
    }

    private func putSchedule(loadpoint: String?, body: [UInt8]) -> APIAnswer {
        guard loadpoint == LiveHouse.loadpointID else { return .failure(404, "no such loadpoint") }
        guard let goal = try? JSONDecoder().decode(APIDocuments.ChargeGoal.self, from: Data(body)) else {
            return .failure(400, "the body is not a charge goal")
        }
        schedules[LiveHouse.loadpointID] = goal
        return .json(APIDocuments.Done())
    }

    private func deleteSchedule(loadpoint: String?) -> APIAnswer {
        guard loadpoint == LiveHouse.loadpointID else { return .failure(404, "no such loadpoint") }
        schedules[LiveHouse.loadpointID] = nil
        return .json(APIDocuments.Done())
    }

    /// An invite: a fresh code for `role` (viewer unless the body says otherwise) and the link that carries it.
    private func pairing(body: [UInt8]) -> APIAnswer {
        let role =
            body.isEmpty
            ? Role.viewer.rawValue : (try? JSONDecoder().decode(APIDocuments.RoleBody.self, from: Data(body)))?.role
        guard let role, Role.all.map(\.rawValue).contains(role) else {
            return .failure(400, "role must be owner or viewer")
        }
        let code = mintPairingCode(role: role)
        return .json(
            APIDocuments.Pairing(
                url: identity.enrolmentURL(pairingCode: code, lanHint: lanHint),
                role: role,
                expiresAtMs: wallClock.nowMs + Enrolment.codeLifetimeMs
            )
        )
    }

    private func revoke(deviceId: String) -> APIAnswer {
        answer(enrolment.revoke(deviceId: deviceId)) { device in
            for session in sessions where session.appKey == device.appStaticKey {
                terminateRevoked(session: session.number)
            }
        }
    }

    private func changeRole(deviceId: String, body: [UInt8]) -> APIAnswer {
        guard let role = (try? JSONDecoder().decode(APIDocuments.RoleBody.self, from: Data(body)))?.role,
            Role.all.map(\.rawValue).contains(role)
        else { return .failure(400, "role must be owner or viewer") }
        return answer(enrolment.setRole(deviceId: deviceId, role: role)) { _ in }
    }

    private func answer(_ change: Enrolment.Change, then act: (EnrolledDevice) -> Void) -> APIAnswer {
        switch change {
        case .done(let device):
            notifyEnrolmentChanged()
            act(device)
            return .json(APIDocuments.Done())
        case .unknownDevice: return .failure(404, "no such device")
        case .lastOwner:
            return .failure(409, "the last owner cannot be removed", code: ErrorCode.lastOwnerProtected.rawValue)
        }
    }
}
