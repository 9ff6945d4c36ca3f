import FTWBus
import FTWNoise

/// The code of the `NoiseError` that `body` throws, or nil when it succeeds (or throws something else), so a test
/// can say which rule refused an input in one line.
func errorCode(_ body: () throws -> Void) -> NoiseError.Code? {
    do {
        try body()
        return nil
    } catch {
        return (error as? NoiseError)?.code
    }
}
