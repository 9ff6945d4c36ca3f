import FTWBoxProtocol
import Testing

/// The Swift constants against `Vectors/registry.yaml`, the box's contract: a drift on either side fails here.
@Suite struct RegistryTests {
    let registry: RegistryFile

    init() throws {
        registry = try RegistryFile()
    }

    @Test func frozenFieldsMatch() {
        let fields = registry.keyedMaps("frozen_fields").map { entry in
            FrozenField(
                id: Int(entry.key) ?? -1,
                name: entry.fields["name"] ?? "",
                kind: entry.fields["kind"] ?? "",
                unit: entry.fields["unit"] == "null" ? nil : entry.fields["unit"]
            )
        }
        #expect(fields == FieldID.frozen)
        #expect(
            [FieldID.mode, FieldID.grid, FieldID.pv, FieldID.battery, FieldID.batterySoc, FieldID.load]
                == Array(1...6)
        )
        #expect([FieldID.sourceGrid, FieldID.sourcePV, FieldID.sourceBattery, FieldID.ev] == Array(7...10))
    }

    @Test func capabilitiesMatch() {
        #expect(registry.listItems("capabilities") == Capability.all.map(\.rawValue))
    }

    @Test func scopesMatch() {
        #expect(registry.mapItems("scopes").map { $0["name"] } == Scope.all.map(\.rawValue))
    }

    @Test func rolesMatch() {
        let roles = registry.roleScopes()
        #expect(Set(roles.keys) == Set(Role.all.map(\.rawValue)))
        for role in Role.all {
            let listed = roles[role.rawValue] ?? []
            let expected = listed == ["*"] ? Scope.all.map(\.rawValue) : listed
            #expect(role.scopes.map(\.rawValue) == expected, "\(role)")
        }
        #expect(Role("guest").scopes.isEmpty)
    }

    @Test func operationsAndTheirScopesMatch() {
        let ops = registry.mapItems("ops")
        #expect(ops.map { $0["name"] } == CommandOp.all.map(\.rawValue))
        #expect(ops.map { $0["scope"] } == CommandOp.all.map { $0.requiredScope?.rawValue })
    }

    @Test func modesAndTheirTiersMatch() {
        let modes = registry.mapItems("modes")
        #expect(modes.map { $0["key"] } == ModeKey.all.map(\.rawValue))
        #expect(modes.map { $0["tier"] } == ModeKey.all.map(\.registryTier))
    }

    @Test func errorCodesAndTheirRetryableFlagsMatch() {
        let box = registry.mapItems("errors")
        #expect(box.map { $0["code"] } == ErrorCode.boxCodes.map(\.rawValue))
        #expect(box.map { $0["retryable"] } == ErrorCode.boxCodes.map { String($0.isRetryable) })
        let client = registry.mapItems("client_errors")
        #expect(client.map { $0["code"] } == ErrorCode.clientCodes.map(\.rawValue))
        #expect(client.map { $0["retryable"] } == ErrorCode.clientCodes.map { String($0.isRetryable) })
    }

    @Test func treatsAnUnknownErrorCodeAsNotRetryable() {
        #expect(!ErrorCode("E_FROM_THE_FUTURE").isRetryable)
    }

    @Test func sourceStatesMatch() {
        #expect(registry.inlineList("source_states") == SourceState.all.map(\.rawValue))
    }

    @Test func resolutionsMatch() {
        let resolutions = registry.keyedMaps("resolutions")
        #expect(resolutions.map(\.key) == HistoryResolution.fineToCoarse.map(\.rawValue))
        for (key, fields) in resolutions {
            let resolution = HistoryResolution(rawValue: key)
            #expect(fields["tile_span_ms"] == resolution.map { String($0.tileSpanMs) })
            #expect(fields["retention_days"] == resolution.map { String($0.retentionDays) })
            #expect(fields["source"] == resolution?.store)
        }
    }

    @Test func readsAnUnknownTerminateReasonAsSuperseded() {
        #expect(TerminateReason("planet_exploded").known == .superseded)
        #expect(TerminateReason.revoked.known == .revoked)
    }
}
