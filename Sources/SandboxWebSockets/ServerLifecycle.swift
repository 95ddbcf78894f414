/// Where one service thread is in its life (`SandboxServer.lifecycle`): serving; draining, its
/// connections closed with 1001 and the loop turned until they are gone or the deadline
/// (`ShutdownDeadline`, on the server clock) passes; stopped, the context being destroyed (no
/// hub left to tell of a close).
/// Held by `test_hostile.py`'s and `test_observability.py`'s shutdown tests.
enum ServerLifecycle: Equatable {
    case serving
    case draining(deadline: Double)
    case stopped
}
