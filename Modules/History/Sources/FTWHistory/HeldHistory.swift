import FTWBoxProtocol
import FTWCache

/// Everything the model holds of the window: tiles by id, the gaps the box named, and the name it was asked under.
///
/// This is what the sealed file carries, so after a kill the window draws and its name stands exactly as before.
struct HeldHistory: Sendable, Equatable {
    var tiles: [String: HeldTile] = [:]
    var gaps: [HistGap] = []
    var askedUnder: AskName?
    var askedAtMs: Int64?

    /// Keeps `tile`, replacing the one of the same id: the only way a tile leaves the screen, so the open tile
    /// stays until its replacement lands.
    mutating func keep(_ tile: HeldTile) {
        tiles[tile.id] = tile
    }

    /// The box's word on `[fromMs, toMs)` replaces what it said before about that range.
    mutating func replaceGaps(fromMs: Int64, toMs: Int64, with named: [HistGap]) {
        gaps.removeAll { $0.fromMs < toMs && $0.toMs > fromMs }
        gaps.append(contentsOf: named)
    }

    /// Drops tiles and gaps that end before `fromMs`: out of the window, they are never drawn nor asked again.
    mutating func drop(endingBy fromMs: Int64) {
        tiles = tiles.filter { $0.value.endMs > fromMs }
        gaps.removeAll { $0.toMs <= fromMs }
    }

    /// The closed tiles held among the ones `plan` covers: what the box may skip. Never a partial tile, whose etag
    /// is that of data still filling.
    func have(in plan: HistoryPlan) -> [HaveEntry] {
        plan.tiles.compactMap { ref in
            guard let tile = tiles[ref.id], !tile.partial else { return nil }
            return HaveEntry(tileId: ref.id, etag: tile.etag)
        }
    }

    /// Whether a tile `plan` counts as closed is not held closed yet.
    func lacksClosedTile(of plan: HistoryPlan) -> Bool {
        plan.tiles.contains { ref in !ref.partial && tiles[ref.id]?.partial ?? true }
    }
}
