/// When a model's name can change with the clock alone, which says which live frames can matter to it.
///
/// A view that stays open asks again only when the name turns, and the stream's beat (a live frame a second) is how
/// the model notices. A model that says when its name turns is woken only by the frames after a turn; the others by
/// every frame.
public enum NameTurns: Sendable, Hashable {
    /// The name may change at any moment: every live frame is weighed.
    case anyTime
    /// The name changes only on whole multiples of this span since the Unix epoch (the quarter hour, the five
    /// minutes): every zone's offset is a whole number of quarter hours, so a local quarter, hour or midnight is one.
    case every(Duration)
    /// The name never changes with the clock (the chargers, the prefs, the status).
    case never
}
