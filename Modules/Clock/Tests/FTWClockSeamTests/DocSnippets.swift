import FTWClockSeamTesting

// The Swift blocks of this module's `///` comments, compiled here (Tools/check-doc-snippets.sh finds them): a file
// of the module's tests, since the FTWDocSnippets target may import FTWClient alone.

/// `Simulation`'s doc comment: a deterministic world stepped by hand.
func simulated() async {
    let simulation = Simulation(originMs: 1_764_669_660_000)
    await simulation.run { simulation in
        // build modules with `simulation.clock` as both their Clock and their WallClock, start their services…
        await simulation.advance(by: .seconds(30))
    }
}
