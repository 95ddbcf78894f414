import TransitionCore

extension SceneSession {
    /// Named views (`SceneView`) a scene may see over its life, in all: each is a layer of every
    /// frame and of every picture a scene operation composes. 32 controllers × 8 views measured
    /// 55 ms of CPU per operation and 88 KB frames (debug build, 2-core shared VM); 32 in all keeps
    /// a scene near its cost without views. SceneViewLimitTests.
    static let viewLimit = 32

    /// Refuses a scene whose instances name more than `viewLimit` views in all.
    static func checkViews(_ scene: Scene) throws(SceneError) {
        guard scene.viewCount <= viewLimit else {
            throw .invalidScene("a scene's controllers name at most \(viewLimit) views in all (`views`)")
        }
    }
}
