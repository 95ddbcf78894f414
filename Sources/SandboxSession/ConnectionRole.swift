/// What a connection does, as logs and metrics name it: drives its session, watches another's, or
/// neither (its session ended under it, or its `join` found nothing).
public enum ConnectionRole: String, Sendable, CaseIterable {
    case driver, viewer, idle
}
