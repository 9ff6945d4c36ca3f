/// What ``HeadlessClient/forget(_:)`` erases: the client's home, or everything this phone keeps.
public enum ForgetScope: Sendable, Hashable {
    /// The client's site: its sealed files, its pairing record last (the home was removed from this phone), as
    /// `ftw-headless forget SITE` does. Other sites and the phone's key stay.
    case site
    /// The whole phone: every site's sealed files, then the key's mark, then the phone's key (the phone was signed
    /// out or handed on), as `ftw-headless forget --all` does.
    case phone
}
