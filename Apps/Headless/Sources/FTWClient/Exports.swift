// `import FTWClient` is the one import an integrator writes. The client's API is built from the modules' own types
// (the models, their values and events, the session's events, the sealed store, the clocks), so FTWClient re-exports
// the modules it hands out rather than copying their types into wrappers: a rule or a value stays written once, as
// swift-nio's `NIO` module re-exports `NIOCore` and `NIOPosix`. Only this file may re-export
// (`Tools/check-boundaries.sh`); the API check (`Tools/check-api.sh`) guards every module listed here.
@_exported public import BoxProtocol
@_exported public import Bus
@_exported public import Cache
@_exported public import ClockSeam
@_exported public import History
@_exported public import Noise
@_exported public import Prices
@_exported public import Seal
@_exported public import SealInterface
@_exported public import Session
@_exported public import SessionInterface
@_exported public import Site
@_exported public import SocketLoop
@_exported public import Trace
@_exported public import WebSocket
