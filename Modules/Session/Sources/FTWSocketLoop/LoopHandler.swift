/// What a socket registered with an ``EventLoop`` does when the kernel says it is ready; called on the loop's thread.
///
/// A call may be spurious (the socket was read meanwhile, or a new socket took a closed one's number in the same
/// wait), so a handler treats "would block" as nothing to do.
package protocol LoopHandler: AnyObject {
    /// The socket can be read, has hung up, or has failed: a read says which.
    func readable()
    /// The socket can be written, or has failed.
    func writable()
}
