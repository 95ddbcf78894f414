/// Two encoded messages are equal when the client would read the same bytes (the headroom's
/// size counted too): what `OutboxAction`'s tests compare (`OutboxTests`).
extension EncodedMessage: Equatable {
    public static func == (a: EncodedMessage, b: EncodedMessage) -> Bool {
        a.headroom == b.headroom && a.payloadCount == b.payloadCount && a.text == b.text
    }
}
