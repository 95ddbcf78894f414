import TransitionCore

/// What a session is apart from its connections and its clock: the settings, the engine, the
/// frame counter, the acknowledged input, and the mapping of a client's clock onto the
/// engine's. The live server (`Session`) and the virtual one (`VirtualSession`, for headless
/// replays) share it, so a script replayed in-process takes exactly the server's code path.
struct SessionCore {
    let id: String
    private(set) var settings: SessionSettings
    private(set) var engine: InteractiveTransition
    /// Frame counter, +1 per new state; the first frame (after `welcome`) is 1.
    private(set) var frameNumber = 1
    /// The highest pointer `seq` applied, and when (server ms) it was received.
    private(set) var ack: Int?
    private(set) var ackReceived: Double?
    /// Client clock (s) + offset = engine time (s); anchored when a gesture starts.
    private var clockOffset: Double?

    init(id: String, settings: SessionSettings) {
        self.id = id
        self.settings = settings
        // The server's defaults are validated at startup; a failure here is a programming error.
        engine = try! InteractiveTransition(configuration: settings.configuration)
    }

    /// A new configuration starts a new engine; answered by a fresh frame.
    mutating func configure(_ fields: MessageFields) throws(WireError) -> Reaction {
        let next = try settings.applying(fields)
        // A pointer that is down (even before its pan begins) belongs to the current engine:
        // a new one would not know it, and its next move would be refused.
        guard engine.phase.isAtRest, !engine.isPointerDown else {
            throw WireError(.busy, "the transition is \(engine.phase.rawValue)\(engine.isPointerDown ? " with a pointer down" : ""); configure it when it rests")
        }
        // Validated by applying(_:), so this cannot fail.
        engine = try! InteractiveTransition(configuration: next.configuration)
        settings = next
        clockOffset = nil
        return counted(Reaction(frame: true))
    }

    /// How far ahead of its arrival a pointer's time may map, in seconds. Within a gesture the
    /// client's clock runs the engine's (see `clockOffset(for:receivedAt:)`), so a client's
    /// time can put events ahead of the server's clock; a real client's never are by much (its
    /// events leave in order, after the down that anchored the clock; only a down held up in
    /// the network makes the ones after it map ahead, by that delay). Unbounded, one `up` at
    /// t = 1e300 started a completion 1e297 s ahead: ticks before it are ignored, so the
    /// session stayed `finishing` for good and every `configure` was `busy`. Clamped (the anchor
    /// moves), a release completes at most this plus `TransitionConfiguration.longestAnimation`
    /// (+ one tick) after it arrives.
    static let maximumLead = 10.0

    /// `received` is the server's clock in seconds.
    mutating func pointer(_ message: PointerMessage, receivedAt received: Double) throws(WireError) -> Reaction {
        var offset = clockOffset(for: message, receivedAt: received)
        // A down that anchors the clock maps to `received` itself. Any other event mapping more
        // than `maximumLead` ahead moves the anchor back so that it maps exactly that far: the
        // gesture's own spacing (and velocity) from there on is kept, and a client whose down
        // was held up (a network stall, a hung page) can still release — refusing it would
        // leave the pointer down for good.
        let lead = message.time / 1000 + offset - received
        if lead > Self.maximumLead { offset -= lead - Self.maximumLead }
        let mapped = message.time / 1000 + offset
        let time = max(mapped, engine.time)
        let event = PointerEvent(message.phase, x: message.x, y: message.y, time: time, pointerID: message.pointerID)
        let reaction: Reaction
        do {
            reaction = try engine.handle(event)
        } catch {
            throw WireError(error, seq: message.seq)
        }
        clockOffset = offset  // only once the event is accepted: a refused one changes nothing
        ack = message.seq
        ackReceived = received * 1000
        return counted(reaction)
    }

    /// Runs the whole transition without a pan (a tap that presents), from the server's clock.
    mutating func play(at now: Double) throws(WireError) -> Reaction {
        do {
            return counted(try engine.play(at: now))
        } catch {
            throw WireError(.busy, "the transition is \(engine.phase.rawValue)\(engine.isPointerDown ? " with a pointer down" : ""); play it when it rests")
        }
    }

    mutating func tick(at now: Double) -> Reaction {
        counted(engine.advance(to: now))
    }

    private mutating func counted(_ reaction: Reaction) -> Reaction {
        if reaction.frame { frameNumber += 1 }
        return reaction
    }

    /// The offset mapping a client timestamp onto the engine's axis (engine s = client s +
    /// offset). It is anchored at the pointer-down that starts a gesture (receive time − client
    /// time), so within a gesture the client's own timing — and with it the velocity — is kept
    /// exactly, even when events arrive in a burst. A release that maps ahead of the server clock
    /// (by at most `maximumLead`) starts its completion then: ticks before it are ignored. The
    /// caller keeps the engine's time from going backwards.
    private func clockOffset(for message: PointerMessage, receivedAt received: Double) -> Double {
        if let clockOffset, message.phase != .down || engine.isPointerDown { return clockOffset }
        return received - message.time / 1000
    }
}
