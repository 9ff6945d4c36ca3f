// `import FTWClient` is the one import an integrator writes, and it brings a curated list of types, not whole modules:
// the types the client's API names (its events, observed values, models, errors, the sealed store, the clocks and
// the log) and the values they are drawn from, each re-exported from the module that owns it (Hummingbird's
// Exports.swift way), so a rule or a value stays written once. The wire (`CBOR`, the messages), the event loop
// (`EventLoop`), the cipher and the WebSocket stay out of an app's namespace, where beside swift-nio or a CBOR library
// a plain `EventLoop` or `CBOR` would be ambiguous. A member or conformance a module declares on a listed type comes
// with it.
//
// Every module stays importable for a team that owns it or needs its plumbing: `import FTWSocketLoop` for the
// `EventLoop` that `RelayAddress.dialer(…loop:)` and `RelayDialer` take (nil, the default, is the shared loop);
// `import FTWWebSocket` and `import FTWNoise` for `RelayDialer`'s own initialiser (`TLSConfiguration`,
// `RelaySchedule`); `import FTWSealInterface` for `SealedCodable`'s `BinaryReader` and `BinaryWriter`;
// `import FTWBoxProtocol` to build wire values (a `Price` or a `Plan` for a test's sample).
//
// Only this file may re-export (`Tools/check-boundaries.sh`); the API check (`Tools/check-api.sh`) guards FTWClient
// and every module named here. A type joins the list when an integrator must name it.
@_exported public import struct FTWBoxProtocol.HelloOK
@_exported public import struct FTWBus.BusBuffering
@_exported public import struct FTWBus.BusStream
@_exported public import protocol FTWBus.ClientService
@_exported public import struct FTWBus.DiscardingLogSink
@_exported public import class FTWBus.EventBus
@_exported public import protocol FTWBus.FTWError
@_exported public import class FTWBus.InMemoryLogSink
@_exported public import struct FTWBus.LogEntry
@_exported public import protocol FTWBus.LogSink
@_exported public import struct FTWBus.ServiceError
@_exported public import struct FTWCache.AskName
@_exported public import enum FTWCache.AskPolicy
@_exported public import struct FTWCache.ShownAnswer
@_exported public import struct FTWCache.StoredAnswer
@_exported public import struct FTWClockSeam.AsOf
@_exported public import struct FTWClockSeam.SystemWallClock
@_exported public import protocol FTWClockSeam.WallClock
@_exported public import struct FTWHistory.HistoryColumn
@_exported public import class FTWHistory.HistoryModel
@_exported public import enum FTWHistory.HistorySample
@_exported public import struct FTWHistory.HistoryWindow
@_exported public import class FTWPrices.PlanModel
@_exported public import struct FTWPrices.PlannedSlot
@_exported public import struct FTWPrices.PriceDay
@_exported public import struct FTWPrices.PriceRate
@_exported public import enum FTWPrices.PriceSegment
@_exported public import struct FTWPrices.PriceWindow
@_exported public import class FTWPrices.PriceWindowModel
@_exported public import struct FTWPrices.ShownPlan
@_exported public import class FTWSeal.FileSealedStore
@_exported public import enum FTWSealInterface.KeepEvent
@_exported public import struct FTWSealInterface.SealError
@_exported public import enum FTWSealInterface.SealEvent
@_exported public import protocol FTWSealInterface.SealedStore
@_exported public import struct FTWSealInterface.SiteID
@_exported public import class FTWSession.LiveSession
@_exported public import protocol FTWSession.RandomSource
@_exported public import class FTWSession.RelayDialer
@_exported public import struct FTWSession.SessionIdentity
@_exported public import struct FTWSession.SystemRandomSource
@_exported public import struct FTWSessionInterface.AskRecord
@_exported public import struct FTWSessionInterface.BoxArrival
@_exported public import protocol FTWSessionInterface.CarrierDialer
@_exported public import enum FTWSessionInterface.ConnectionState
@_exported public import struct FTWSessionInterface.RetryWait
@_exported public import enum FTWSessionInterface.ScenePhase
@_exported public import struct FTWSessionInterface.SessionError
@_exported public import enum FTWSessionInterface.SessionEvent
@_exported public import enum FTWSessionInterface.StreamLiveness
@_exported public import struct FTWSite.Charger
@_exported public import struct FTWSite.ChargerList
@_exported public import typealias FTWSite.ChargersModel
@_exported public import struct FTWSite.HomeIdentity
@_exported public import struct FTWSite.HomeMode
@_exported public import class FTWSite.HomeModel
@_exported public import struct FTWSite.PlannerPrefs
@_exported public import typealias FTWSite.PrefsModel
@_exported public import struct FTWSite.ShownSnapshot
@_exported public import struct FTWSite.SiteStatus
@_exported public import class FTWSite.SnapshotModel
@_exported public import typealias FTWSite.StatusModel
@_exported public import struct FTWTrace.ChartSample
@_exported public import struct FTWTrace.FieldTrace
@_exported public import class FTWTrace.LiveTrace
@_exported public import struct FTWTrace.MissedTime
@_exported public import enum FTWTrace.TraceEvent
@_exported public import struct FTWTrace.TraceField
