import TransitionCore

/// What the next pan drives when no request is armed: the gestures UIKit offers by itself.
extension SceneSession {
    /// Arms the gesture the scene offers by itself: an edge-swipe pop of the top-most
    /// navigation stack, else the system dismissal gesture of an iOS 13+ sheet
    /// (`Scene.dismissGesture`), else nothing.
    mutating func armDefault() {
        disarm()
        let pop = SceneCommand(request: .pop(nil), animated: true, interactive: true)
        if let plan = try? trial(pop) {
            arm(pop, plan: plan, isDefault: true)
            return
        }
        if !armZoomDismissal() { _ = armSheetDismissal() }
    }

    /// Arms the sheet's swipe-down: a dismissal, or, for a sheet modal in presentation, one
    /// that resists (`plan.resists`: it starts nothing). False when there is no sheet gesture.
    private mutating func armSheetDismissal() -> Bool {
        let resists: Bool
        switch scene.dismissGesture {
        case .none: return false
        case .dismisses: resists = false
        case .resists: resists = true
        }
        let command = SceneCommand(request: .dismiss(nil), animated: true, interactive: true)
        guard var plan = try? trial(command) else { return false }
        plan.resists = resists
        arm(command, plan: plan, isDefault: true)
        return true
    }

    /// A down outside an edge swipe's band, with the default pop armed: UIKit's sheet dismissal
    /// gesture and the navigation controller's edge swipe coexist, so the pan goes to the
    /// sheet's gesture when there is one. True when it was armed instead.
    mutating func armDismissalInsteadOfPop() -> Bool {
        guard let armed, armed.isDefault, armed.plan.action == .pop else { return false }
        if armZoomDragInsteadOfEdgePop() { return true }
        return armSheetDismissal()
    }

    /// What is armed follows the committed scene: an armed plan's container was laid out
    /// for the old bounds, so it is tried again (and dropped if it no longer applies).
    mutating func refreshArmed() {
        guard let armed else { return }
        if var plan = try? trial(armed.command) {
            plan.resists = armed.plan.resists
            arm(armed.command, plan: plan, isDefault: armed.isDefault)
        } else {
            armDefault()
        }
    }
}
