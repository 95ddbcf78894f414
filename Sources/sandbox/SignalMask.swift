import Glibc

/// Blocks `signals` on this thread, and on every thread it starts afterwards (they inherit the
/// mask). `serve` and `bench` take their shutdown signals from libdispatch, which reads them
/// from a signalfd its manager thread registers asynchronously: blocked from the start, a
/// signal that comes before then stays pending and is read once registered, instead of being
/// lost or killing the process by its default action.
func blockSignals(_ signals: [Int32]) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
}
