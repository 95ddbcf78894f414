import SandboxSession

/// The storage of an `[OutboxAction]`, kept between calls so that gathering a message's or a
/// frame's actions allocates nothing once it has grown (`ActionBufferTests`; `make alloc-count`).
///
/// `take()` hands the storage out (empty, its capacity kept) and `giveBack` empties it and keeps
/// it: a call nested in the same path (a message's actions cause another message's on the same
/// connection) finds nothing to take and gathers into an array of its own, so no two callers
/// ever share the storage.
struct ActionBuffer {
    private var storage: [OutboxAction] = []

    mutating func take() -> [OutboxAction] {
        var taken: [OutboxAction] = []
        swap(&taken, &storage)
        return taken
    }

    /// Keeps the larger of the two storages (the one handed out, emptied, or one kept meanwhile).
    mutating func giveBack(_ actions: inout [OutboxAction]) {
        actions.removeAll(keepingCapacity: true)
        if actions.capacity > storage.capacity { swap(&actions, &storage) }
    }

    /// What the storage can hold without growing (tests).
    var capacity: Int { storage.capacity }
}
