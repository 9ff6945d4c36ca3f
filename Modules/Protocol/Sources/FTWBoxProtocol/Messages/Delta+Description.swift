extension Delta: CustomStringConvertible {
    /// One line for a log, as `Message` prints it: counts and ids, never the whole body.
    public var description: String { Message.delta(self).description }
}
