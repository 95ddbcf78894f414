import SandboxSession
import Testing

@testable import SandboxWebSockets

/// What `SandboxServer.carryOut` gathers for viewers of other threads: a run of sends of one
/// message becomes one post per thread naming its viewers, and anything else ends the run.
@Suite("RemoteSends") struct RemoteSendsTests {
    let local = ConnectionID(thread: 0, number: 1)
    let near = (1...2).map { ConnectionID(thread: 1, number: $0) }
    let far = ConnectionID(thread: 2, number: 7)

    @Test func aBroadcastIsGatheredByThread() {
        let played = ServerMessage.transition(.played)
        var remote = RemoteSends()
        #expect(remote.continues(with: .frameDue(local)))  // nothing gathered: anything goes
        for viewer in [near[0], far, near[1]] {
            #expect(remote.continues(with: .send(viewer, played)))
            remote.add(viewer, played, watching: nil)
        }
        #expect(remote.message == played && remote.viewers == [1: near, 2: [far]])
        // The driver's own copy of the same message does not end the run.
        #expect(remote.continues(with: .send(local, played)))
        // Another message, or a frame, is carried out after the gathered one is posted.
        #expect(!remote.continues(with: .send(near[0], .transition(.cancelled))))
        #expect(!remote.continues(with: .frameDue(near[0])))
        remote.removeAll()
        #expect(remote.message == nil && remote.viewers.isEmpty && remote.continues(with: .frameDue(local)))
    }

    @Test func theSessionAJoinAnswersTravelsWithIt() {
        var remote = RemoteSends()
        remote.add(near[0], .sessionEnded("s"), watching: "s")
        #expect(remote.watched == "s" && remote.viewers == [1: [near[0]]])
    }
}
