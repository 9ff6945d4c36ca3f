public import Foundation

/// The scenarios shipped with the app (`Resources/Scenarios/*.scenario`), by name.
public enum BuiltInScenario {
    /// The names of every shipped scenario, sorted.
    public static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "scenario" }.map { $0.deletingPathExtension().lastPathComponent }
            .sorted()
    }

    /// The file of the shipped scenario `name`.
    public static func url(_ name: String) -> URL {
        folder.appendingPathComponent("\(name).scenario")
    }

    /// Parses the shipped scenario `name`.
    ///
    /// - Throws: `ScenarioFileError` when no shipped scenario has that name or it cannot be read or parsed.
    public static func load(_ name: String) throws(ScenarioFileError) -> Scenario {
        let shipped = names
        guard shipped.contains(name) else { throw .notFound(name, shipped: shipped) }
        return try ScenarioFile.parse(ScenarioFile.text(atPath: url(name).path), file: name)
    }

    private static var folder: URL {
        Bundle.module.resourceURL?.appendingPathComponent("Scenarios") ?? URL(fileURLWithPath: "Scenarios")
    }
}
