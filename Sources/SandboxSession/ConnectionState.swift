/// A connection of this thread: what it does, and its last accepted pointer `seq` (strictly
/// increasing per connection, across sessions it drives).
struct ConnectionState: Equatable {
    enum Role: Equatable {
        case driver(String)
        case viewer(String)
        case remoteViewer(String)
        case idle
    }
    var role: Role
    /// The session of another thread this connection asked to watch, until that thread answers:
    /// it keeps its role meanwhile, so a refusal there changes nothing here
    /// (`SessionHubFanOutTests.aRemoteRefusalChangesNothingHere`).
    var remoteJoin: String?
    /// Its simulated network (`NetworkLink`, carried out by the executor).
    var network: NetworkConditions
    var lastSeq: Int?
    /// Whether it asked for the tracking table (`configure`'s `prediction`, `SessionHub+Prediction`),
    /// and the bucket of tables it may still be built.
    var prediction = false
    var tableTokens = SessionHub.tableBurst
    var tableRefilled: Double?
    /// The scene-message bucket (`SessionHub.spendSceneMessage`).
    var sceneTokens = SessionHub.sceneMessageBurst
    var sceneRefilled: Double?
    /// Whether its socket takes output (`SessionHub.outputBlocked`): a session none of whose
    /// connections can take a frame is not ticked.
    var output = Output.flowing

    enum Output: Equatable {
        case flowing
        /// The executor found the socket full; a frame for it would wait (and be replaced).
        case blocked
    }
}
