/// Where the app stands on screen, as the phone's scene phases say: what the session's lifecycle follows.
///
/// Coming back, the phone passes through `inactive` before `active`, so the session dials at `inactive` and the
/// handshake runs beside the app switch. A glance (active → inactive → active) keeps the session; only
/// `background` closes it.
public enum ScenePhase: String, Sendable, Hashable, CaseIterable {
    /// In front and taking touches: the stream runs at 1 Hz.
    case active
    /// Visible but not in front (Control Center, the app switcher, the way back from the background).
    case inactive
    /// Not visible: the session is closed and no carrier is attached.
    case background
}
