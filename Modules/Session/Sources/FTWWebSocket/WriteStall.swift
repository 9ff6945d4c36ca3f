/// Fails a socket whose writes made no progress for a whole write timeout, on the injected clock: a peer that stopped
/// reading must not hold a connection (and its queued frames) forever.
///
/// ## Concurrency
/// Loop-confined, like the ``SocketChannel`` that owns it; its timer is a task sleeping on the clock that comes back
/// to the loop to look.
final class WriteStall {
    private let clock: any Clock<Duration>
    private let timeout: Duration
    private var progress = 0
    private var timer: Task<Void, Never>?

    /// A watch with `timeout` on `clock`.
    init(clock: any Clock<Duration>, timeout: Duration) {
        self.clock = clock
        self.timeout = timeout
    }

    deinit { timer?.cancel() }

    /// Some bytes were written.
    func progressed() { progress &+= 1 }

    /// The kernel took no more: start the timeout unless it runs.
    func arm(_ channel: SocketChannel) {
        guard timer == nil else { return }
        let mark = progress
        timer = Task(executorPreference: channel.loop) { [clock, timeout, weak channel] in
            guard (try? await clock.sleep(for: timeout)) != nil, let channel else { return }
            channel.onLoop { channel.stallTimerFired(mark: mark) }
        }
    }

    /// Everything was written: no timeout.
    func disarm() {
        timer?.cancel()
        timer = nil
    }

    /// The timer ran out: whether nothing was written since it started (if something was, it starts again).
    func expired(mark: Int, _ channel: SocketChannel) -> Bool {
        timer = nil
        guard progress == mark else {
            arm(channel)
            return false
        }
        return true
    }
}
