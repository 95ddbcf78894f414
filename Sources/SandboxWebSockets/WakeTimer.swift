import CLibWebSockets

/// A one-shot timer that wakes the loop's `poll` when it is due, to the microsecond: a timerfd
/// adopted into the context as a raw file (`clws_timerfd_adopt`), firing from
/// LWS_CALLBACK_RAW_RX_FILE. For the display links, which fire every frame (or every phase of
/// one). An `LWSTimer` would do the same job at a cost: libwebsockets 4.1.6 hands `poll` its
/// timeout in whole milliseconds, truncated, so for the last fraction of a millisecond before
/// every timer its loop spins on `poll(…, 0)` — measured at 1,771 of 2,013 polls in 2 s for 10
/// sessions at one tick a period, 26,066 of 27,978 at eight (strace on the 2-core VM).
///
/// Lives on the loop's thread; one per service thread (`DisplayClock`). If no
/// timerfd can be made (the descriptor limit), it uses an `LWSTimer`: slower, never wrong.
final class WakeTimer {
    private let fired: () -> Void
    /// The adopted timerfd and its wsi while lws holds it (nil before, after a failure, and once
    /// released or closed by lws).
    private var wsi: OpaquePointer?
    private var fd: Int32 = -1
    /// lws closed it with the context: nothing to adopt into any more.
    private var contextGone = false
    private lazy var fallback = LWSTimer { [unowned self] in self.fired() }

    init(_ fired: @escaping () -> Void) {
        self.fired = fired
    }

    deinit { release() }

    /// Fires once, `seconds` from now; re-scheduling replaces a pending shot.
    func schedule(on context: OpaquePointer, after seconds: Double) {
        if wsi == nil, !contextGone {
            var descriptor: Int32 = -1
            wsi = clws_timerfd_adopt(context, Unmanaged.passUnretained(self).toOpaque(), &descriptor)
            if wsi != nil { fd = descriptor }
        }
        let microseconds = Int64(max(0, min(seconds, 3600)) * 1e6)
        if wsi == nil || clws_timerfd_arm(fd, microseconds, 0) != 0 {
            fallback.schedule(on: context, after: seconds)
        }
    }

    func cancel(on context: OpaquePointer?) {
        if wsi != nil { _ = clws_timerfd_arm(fd, 0, 1) }
        fallback.cancel(on: context)
    }

    /// Gives the timerfd back (lws closes it at its loop's next turn). Call while the context
    /// lives (`SandboxServer.run` does, before destroying it); if the context went first, lws
    /// closed it and said so (`closed`).
    func release() {
        guard let wsi else { return }
        clws_timerfd_release(wsi)
        forget()
    }

    private func forget() {
        wsi = nil
        fd = -1
    }

    // MARK: - From the callbacks (protocol "http")

    /// LWS_CALLBACK_RAW_RX_FILE: the timerfd is readable.
    static func expired(_ wsi: OpaquePointer) {
        // Drained whoever owns it: an unread timerfd stays readable and would spin the loop.
        let expirations = clws_timerfd_drain(lws_get_socket_fd(wsi))
        guard expirations > 0, let owner = lws_get_opaque_user_data(wsi) else { return }
        Unmanaged<WakeTimer>.fromOpaque(owner).takeUnretainedValue().fired()
    }

    /// LWS_CALLBACK_RAW_CLOSE_FILE: lws closed the descriptor (the context is going).
    static func closed(_ wsi: OpaquePointer) {
        guard let owner = lws_get_opaque_user_data(wsi) else { return }
        let timer = Unmanaged<WakeTimer>.fromOpaque(owner).takeUnretainedValue()
        timer.forget()
        timer.contextGone = true
    }
}
