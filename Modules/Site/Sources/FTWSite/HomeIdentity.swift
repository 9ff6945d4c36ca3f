public import FTWBoxProtocol
import FTWBus
public import Foundation

/// Who the home's box is, from its `hello_ok`: its id, time zone, capabilities, modes, and what this phone may do
/// there. Sealed, so at launch the time zone and the capabilities are known before anything connects.
public struct HomeIdentity: Sendable, Hashable {
    /// The box's id.
    public var boxID: String
    /// The box's build.
    public var build: String
    /// The box's time zone, such as `Europe/Stockholm`: the zone prices and days are read in.
    public var timeZoneID: String
    /// The negotiated protocol version.
    public var proto: Int
    /// `full`, `floor`, `booting` or `readonly`.
    public var mode: String
    /// The capabilities the box advertises; absent means hide the feature.
    public var caps: [String]
    /// The box's mode catalogue, in its order.
    public var modes: [HomeMode]
    /// `owner` or `viewer`.
    public var role: String
    /// The role expanded into scopes.
    public var scopes: [String]

    /// Takes the box's hello answer.
    public init(hello: HelloOK) {
        boxID = hello.box.id
        build = hello.box.build
        timeZoneID = hello.box.tz
        proto = hello.proto
        mode = hello.mode
        caps = hello.caps.map(\.rawValue)
        modes = hello.modes.map { HomeMode(key: $0.key, label: $0.label, tooltip: $0.tooltip, tier: $0.tier) }
        role = hello.role.rawValue
        scopes = hello.scopes.map(\.rawValue)
    }

    /// The box's time zone.
    ///
    /// - Throws: ``SiteError`` `.unknownTimeZone` when this system does not know the zone the box names.
    public func zone() throws(SiteError) -> TimeZone {
        guard let zone = TimeZone(identifier: timeZoneID) else {
            throw SiteError(.unknownTimeZone, "the box's time zone \(timeZoneID.debugDescription) is unknown here")
        }
        return zone
    }

    /// Whether the box advertises `capability`.
    public func supports(_ capability: Capability) -> Bool { caps.contains(capability.rawValue) }

    /// Whether this phone holds `scope` on the box.
    public func holds(_ scope: Scope) -> Bool { scopes.contains(scope.rawValue) }
}
