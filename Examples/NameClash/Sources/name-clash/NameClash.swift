import Bus
import Cache
import ClockSeam
import Crypto
import FTWClient
import History
import NIOCore
import Noise
import Prices
import Seal
import Session
import Site
import Trace
import WebSocket

/// Names one type of each neighbour beside ftw-core's client, so both packages' modules are linked into one program.
@main struct NameClash {
    static func main() {
        let neighbours: [Any.Type] = [
            Bus.Marker.self, Cache.Marker.self, ClockSeam.Marker.self, Crypto.Marker.self, History.Marker.self,
            NIOCore.Marker.self, Noise.Marker.self, Prices.Marker.self, Seal.Marker.self, Session.Marker.self,
            Site.Marker.self, Trace.Marker.self, WebSocket.Marker.self,
        ]
        print("ftw-core's \(HeadlessClient.self) beside \(neighbours.count) modules of the same plain names")
    }
}
