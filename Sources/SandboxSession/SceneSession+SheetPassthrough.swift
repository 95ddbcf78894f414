import TransitionCore

/// Who a down beside a sheet with detents belongs to: at or below its largest undimmed detent,
/// the presenter beneath takes the touches outside the card (Apple,
/// `largestUndimmedDetentIdentifier`: "Without a dimming view, the undimmed area around the
/// sheet responds to user interaction, allowing for a nonmodal experience"
/// — https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller/largestundimmeddetentidentifier).
/// The presenter's own gesture — its navigation stack's edge-swipe pop, and from iOS 26 its
/// content swipe — is armed for such a down; anywhere else the sheet's gesture is armed again.
/// SessionSheetPassthroughTests.
extension SceneSession {
    /// The top-most sheet's presentation when it rests undimmed (at or below its largest
    /// undimmed detent) and `point` lies off its card: nil otherwise.
    func undimmedPresenter(at point: Point) -> String? {
        guard let state = scene.sheetDetents, sheetDrag == nil, let id = state.configuration.largestUndimmedDetent,
            let undimmed = state.detents.first(where: { $0.id == id }), state.top >= undimmed.top - 0.5,
            point.y < state.top, let presentation = scene.presentations.last,
            presentation.presented.id == state.controller
        else { return nil }
        return presentation.presenter
    }

    /// Arms what a down at `point` belongs to beside a sheet with detents; true when what is
    /// armed changed (the engine is then configured afresh). Only the scene's own gestures are
    /// re-armed: an app's armed request is left as it is.
    mutating func armForDownBesideSheet(at point: Point) -> Bool {
        guard rotation == nil, flight == nil, let armed, armed.isDefault else { return false }
        let presenterPop: Bool = if case .pop(.some) = armed.command.request { true } else { false }
        guard let presenter = undimmedPresenter(at: point) else {
            // The presenter's pop was armed for an earlier down: the sheet's gesture again.
            guard presenterPop else { return false }
            armDefault()
            return true
        }
        guard !presenterPop else { return false }
        let pop = SceneCommand(request: .pop(presenter), animated: true, interactive: true)
        guard let plan = try? trial(pop) else { return false }
        arm(pop, plan: plan, isDefault: true)
        return true
    }
}
