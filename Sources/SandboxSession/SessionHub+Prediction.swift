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

    /// Tables a connection may be sent a second, sustained, and in a burst: a person changes a
    /// setting a few times a second. The thread's own budget (`PredictionTables`) bounds what all
    /// its connections make it build; this bounds what one of them takes of it.
    static let tablesPerSecond = 4.0
    static let tableBurst = 8.0

    /// Sends `connection` its `prediction` message: the table of the session it drives when it
    /// asked for prediction, `null` when it did not (or drives nothing, or the picture needs
    /// more samples or bytes than a table holds, or the connection's table bucket or the
    /// thread's build budget is empty). Every answer to a driver that asked takes a token of its
    /// bucket, `null` included. The table comes from the thread's cache when it holds the
    /// configuration (`PredictionTables`), built (and encoded, once) otherwise. Its bytes are
    /// charged to the connection's input budget like a viewer's copies (`Outbox.chargeFanOut`):
    /// a client that reconfigures in a loop pays for what it makes the server send.
    mutating func sendPrediction(to connection: ConnectionID, at now: Double, into actions: inout [SessionAction]) {
        guard var state = connections[connection] else { return }
        var table: TrackingTable?
        if state.prediction, case .driver(let id) = state.role, let core = sessions[id]?.core {
            let elapsed = max(now - (state.tableRefilled ?? now), 0)
            state.tableTokens = min(state.tableTokens + elapsed * Self.tablesPerSecond, Self.tableBurst)
            state.tableRefilled = now
            if state.tableTokens >= 1 {
                state.tableTokens -= 1
                table = predictionTables.table(for: core.engine.configuration, at: now).table
            }
            connections[connection] = state
        }
        actions.append(.send(connection, .prediction(table)))
        if let table { actions.append(.charge(connection, bytes: table.encodedCount)) }
    }
}

extension ServerMessages {
    static func prediction(_ table: TrackingTable?, id: RequestID?, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 64 + (table?.encodedCount ?? 0))
        w.beginObject()
        w.key("type"); w.string("prediction")
        writeID(id, to: &w)
        w.key("table")
        if let table { table.write(to: &w) } else { w.null() }
        w.endObject()
        return w.finish()
    }
}
