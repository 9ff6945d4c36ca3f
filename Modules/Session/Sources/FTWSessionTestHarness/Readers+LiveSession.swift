import FTWSession
import FTWSessionInterface

extension LiveSession {
    /// Reads as a caller would, keeping the outcome.
    func result(of read: Readers.Asked) async -> Result<ReadAnswer, SessionError> {
        do throws(SessionError) {
            return .success(try await self.readAnswer(read.request, order: read.order, onChunk: read.onChunk))
        } catch {
            return .failure(error)
        }
    }
}
