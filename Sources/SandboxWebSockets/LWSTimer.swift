import CLibWebSockets

/// A one-shot timer on a libwebsockets context's own loop (lws' sorted usec list), running a
/// closure on the loop's thread. The one trampoline for every timer of the server and the
/// clients (the write retry, the watchdog, shutdown, a client's deadline) but the display
/// links, which wake the loop exactly with a `WakeTimer` (and fall back to this).
/// Re-scheduling replaces a pending shot. Cancel (or let it fire) before the context goes.
final class LWSTimer {
    private let native: UnsafeMutablePointer<clws_timer>
    private let fired: () -> Void
    private(set) var isScheduled = false

    init(_ fired: @escaping () -> Void) {
        self.fired = fired
        native = clws_timer_create(nil)!
        native.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { free(native) }

    /// Fires once, `seconds` from now (0 or less: at the next turn of the loop).
    func schedule(on context: OpaquePointer, after seconds: Double) {
        isScheduled = true
        clws_timer_schedule(context, native, lwsTimerFired, Int64(max(0, seconds) * 1e6))
    }

    func cancel(on context: OpaquePointer?) {
        guard isScheduled, let context else { return }
        isScheduled = false
        clws_timer_cancel(context, native)
    }

    fileprivate func fire() {
        isScheduled = false
        fired()
    }
}

private func lwsTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<LWSTimer>.fromOpaque(owner).takeUnretainedValue().fire()
}
