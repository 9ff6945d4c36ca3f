import FTWHeadlessTooling

// The Swift blocks of this module's `///` comments, compiled here (Tools/check-doc-snippets.sh finds them): a file
// of the module's tests, since the FTWDocSnippets target may import FTWClient alone.

/// `Soak`'s doc comment: a day of random life, its totals and what it found.
func soaked() async throws {
    let result = try await Soak(seed: 7, hours: 24).run()
    print(result.totals.frames, result.findings)
}
