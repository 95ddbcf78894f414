import TransitionCore

/// `configure`'s `prediction`: a connection's choice to be sent the tracking table
/// (`TrackingTable`) of the session it drives, as a `prediction` message after each
/// `configured` — so a client draws the pan before the server's frame arrives. A connection
/// setting like `network`: it is the connection's, any connection may send it, and a `configure`
/// with only `prediction` (and `network`) starts no engine. Off by default: other clients' bytes
/// are unchanged. `PredictionSessionTests` holds each rule.
extension SessionHub {
    /// The `prediction` field, read and checked; nil when absent.
    static func predictionSetting(_ message: MessageFields) throws(WireError) -> Bool? {
        guard message.has("prediction") else { return nil }
        guard case .bool(let on) = try message.value("prediction") else {
            throw WireError(
                .invalidField, "'prediction' must be true or false, got \(try message.value("prediction").typeName)",
                field: "prediction")
        }
        return on
    }

    /// Tables a connection may be built a second, sustained, and in a burst: a table costs up to
    /// tens of milliseconds of a debug build's CPU (docs/ENGINE.md "Prediction"), where a
    /// person changes a setting a few times a second.
    static let tablesPerSecond = 4.0
    static let tableBurst = 8.0
    /// The largest table sent, in bytes: a quarter of the reply queue's byte bound
    /// (`ConnectionLimits.queuedBytes`), so one table never fills it.
    static let maximumTableBytes = 64 * 1024

    /// Sends `connection` its `prediction` message: the table of the session it drives when it
    /// asked for prediction, `null` when it did not (or drives nothing, or the picture needs
    /// more samples or bytes than a table holds, or the connection's table bucket is empty).
    /// The table's bytes are charged to the connection's input budget like a viewer's copies
    /// (`Outbox.chargeFanOut`): a client that reconfigures in a loop pays for what it makes the
    /// server build and send.
    mutating func sendPrediction(to connection: ConnectionID, at now: Double, into actions: inout [SessionAction]) {
        guard var state = connections[connection] else { return }
        var table: TrackingTable?
        if state.prediction, case .driver(let id) = state.role, let core = sessions[id]?.core,
            let picture = try? TrackingPicture(configuration: core.engine.configuration)
        {
            let elapsed = max(now - (state.tableRefilled ?? now), 0)
            state.tableTokens = min(state.tableTokens + elapsed * Self.tablesPerSecond, Self.tableBurst)
            state.tableRefilled = now
            if state.tableTokens >= 1 {
                state.tableTokens -= 1
                table = TrackingTable(picture)
            }
            connections[connection] = state
        }
        let bytes = table.map { ServerMessages.encode(.prediction($0), headroom: 0).payloadCount } ?? 0
        if bytes > Self.maximumTableBytes { table = nil }
        actions.append(.send(connection, .prediction(table)))
        if table != nil { actions.append(.charge(connection, bytes: bytes)) }
    }
}

extension ServerMessages {
    static func prediction(_ table: TrackingTable?, id: RequestID?, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: table == nil ? 64 : 16 * 1024)
        w.beginObject()
        w.key("type"); w.string("prediction")
        writeID(id, to: &w)
        w.key("table")
        if let table { table.write(to: &w) } else { w.null() }
        w.endObject()
        return w.finish()
    }
}
