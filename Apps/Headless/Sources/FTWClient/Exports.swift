// `import FTWClient` is the one import an integrator writes. The client's API is built from the modules' own types
// (the models, their values and events, the session's events, the sealed store, the clocks), so FTWClient re-exports
// the modules it hands out rather than copying their types into wrappers: a rule or a value stays written once, as
// swift-nio's `NIO` module re-exports `NIOCore` and `NIOPosix`. Only this file may re-export
// (`Tools/check-boundaries.sh`); the API check (`Tools/check-api.sh`) guards every module listed here.
@_exported public import FTWBoxProtocol
@_exported public import FTWBus
@_exported public import FTWCache
@_exported public import FTWClockSeam
@_exported public import FTWHistory
@_exported public import FTWNoise
@_exported public import FTWPrices
@_exported public import FTWSeal
@_exported public import FTWSealInterface
@_exported public import FTWSession
@_exported public import FTWSessionInterface
@_exported public import FTWSite
@_exported public import FTWSocketLoop
@_exported public import FTWTrace
@_exported public import FTWWebSocket
