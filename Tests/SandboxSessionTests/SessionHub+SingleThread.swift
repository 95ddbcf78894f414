import SandboxSession

extension SessionHub {
    /// One message received, with every `.lookUp` answered as a single thread (and
    /// `VirtualSession`) answers it: not found. The tests' one way to feed the hub a `join`.
    mutating func receiveOnOneThread(
        _ bytes: [UInt8], binary: Bool = false, from id: ConnectionID, at now: Double
    ) -> [SessionAction] {
        var actions: [SessionAction] = []
        receive(bytes, binary: binary, from: id, at: now, into: &actions)
        var answered: [SessionAction] = []
        for action in actions {
            guard case let .lookUp(connection, session, requestID) = action else {
                answered.append(action)
                continue
            }
            lookUpFailed(connection, session: session, requestID: requestID, into: &answered)
        }
        return answered
    }
}
