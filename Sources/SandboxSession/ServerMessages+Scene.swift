import TransitionCore

/// `scene-state`: the scene as the wire describes it (docs/PROTOCOL.md, "The scene").
extension ServerMessages {
    fileprivate static func writeRect(_ rect: Rect, to w: inout JSONWriter) {
        w.numbers([rect.minX, rect.minY, rect.width, rect.height])
    }

    static func sceneState(_ report: SceneReport?, id: RequestID? = nil, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 2048)
        w.beginObject()
        w.key("type"); w.string("scene-state")
        writeID(id, to: &w)
        guard let report else {
            w.key("root"); w.null()
            w.endObject()
            return w.finish()
        }
        let state = report.state
        w.key("device"); w.string(state.device.rawValue)
        w.key("ios"); w.string(state.ios.rawValue)
        w.key("size"); w.pair(state.device.size.width, state.device.size.height)
        w.key("interruptible"); w.bool(report.interruptible)
        if !state.contentPop { w.key("contentPop"); w.bool(false) }
        w.key("root"); write(state.root, to: &w)
        w.key("presentations")
        w.beginArray()
        for presentation in state.presentations {
            w.beginObject()
            w.key("presenter"); w.string(presentation.presenter)
            w.key("presented"); w.string(presentation.presented)
            w.key("source"); w.string(presentation.source)
            w.key("style"); w.string(presentation.style.rawValue)
            w.key("transition"); w.string(presentation.transition.rawValue)
            if let zoom = presentation.sourceView {
                w.key("sourceView")
                w.beginObject()
                w.key("controller"); w.string(zoom.controller)
                w.key("view"); w.string(zoom.view)
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        w.key("navigationStacks")
        w.beginArray()
        for stack in state.navigationStacks {
            w.beginObject()
            w.key("navigation"); w.string(stack.navigation)
            w.key("stack")
            w.beginArray()
            for id in stack.stack { w.string(id) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("topMost"); w.string(state.topMost)
        w.key("appeared")
        w.beginArray()
        for id in state.appeared { w.string(id) }
        w.endArray()
        w.key("inFlight")
        if let action = state.inFlight { w.string(action.rawValue) } else { w.null() }
        w.key("orientation"); writeOrientation(state.orientation, to: &w)
        w.key("armed")
        if let armed = report.armed {
            w.beginObject()
            w.key("action"); w.string(armed.action.rawValue)
            w.key("from"); w.string(armed.from)
            w.key("to"); w.string(armed.to)
            w.key("kind"); w.string(armed.kind.rawValue)
            w.key("edgeSwipe"); w.bool(armed.edgeSwipe)
            w.key("default"); w.bool(armed.isDefault)
            w.endObject()
        } else {
            w.null()
        }
        if !report.sheets.isEmpty { w.key("sheets"); writeSheets(report.sheets, to: &w) }
        w.endObject()
        return w.finish()
    }

    /// Device versus interface, the window's bounds, and what is allowed with where each
    /// restriction comes from (the app, the window, the deciding controller).
    fileprivate static func writeOrientation(_ state: SceneOrientationState, to w: inout JSONWriter) {
        w.beginObject()
        w.key("device"); w.string(state.deviceOrientation.rawValue)
        w.key("interface"); w.string(state.interfaceOrientation.rawValue)
        w.key("bounds"); writeRect(state.windowBounds, to: &w)
        w.key("allowed"); writeMask(state.allowed, to: &w)
        w.key("decider"); w.string(state.resolution.decider)
        w.key("shouldAutorotate"); w.bool(state.resolution.shouldAutorotate)
        w.key("sources")
        w.beginArray()
        for (source, mask) in state.resolution.sources {
            w.beginObject()
            switch source {
            case .hardware: w.key("source"); w.string("hardware")
            case .app: w.key("source"); w.string("app")
            case .window: w.key("source"); w.string("window")
            case .controller(let id): w.key("source"); w.string("controller"); w.key("controller"); w.string(id)
            }
            w.key("mask"); w.integer(mask.rawValue)
            w.key("names"); w.strings(mask.names)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    fileprivate static func writeMask(_ mask: OrientationMask, to w: inout JSONWriter) {
        w.beginObject()
        w.key("mask"); w.integer(mask.rawValue)
        w.key("names"); w.strings(mask.names)
        w.endObject()
    }

    /// A controller tree as the wire describes it (what `scene` takes).
    fileprivate static func write(_ controller: SceneController, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(controller.id)
        w.key("title"); w.string(controller.title)
        w.key("kind"); w.string(controller.isNavigation ? "navigation" : "plain")
        if let stack = controller.stack {
            w.key("stack")
            w.beginArray()
            for child in stack { write(child, to: &w) }
            w.endArray()
        }
        w.key("presentationStyle"); w.string(controller.presentationStyle.rawValue)
        w.key("transitionStyle"); w.string(controller.transitionStyle.rawValue)
        w.key("definesPresentationContext"); w.bool(controller.definesPresentationContext)
        w.key("providesPresentationContextTransitionStyle");
        w.bool(controller.providesPresentationContextTransitionStyle)
        if let mask = controller.supportedMask { w.key("supportedOrientations"); w.strings(mask.names) }
        w.key("shouldAutorotate"); w.bool(controller.shouldAutorotate)
        if let preferred = controller.preferredOrientation {
            w.key("preferredOrientation"); w.string(preferred.rawValue)
        }
        if controller.isModalInPresentation { w.key("isModalInPresentation"); w.bool(true) }
        if !controller.views.isEmpty { w.key("views"); writeViews(controller.views, to: &w) }
        w.endObject()
    }

    /// A controller's named views as the wire gave them (SceneViewWireTests).
    fileprivate static func writeViews(_ views: [SceneView], to w: inout JSONWriter) {
        w.beginArray()
        for view in views {
            w.beginObject()
            w.key("id"); w.string(view.id)
            w.key("kind"); w.string(view.kind.rawValue)
            w.key("frame"); w.beginObject()
            w.key("x"); w.number(view.frame.minX)
            w.key("y"); w.number(view.frame.minY)
            w.key("width"); w.number(view.frame.width)
            w.key("height"); w.number(view.frame.height)
            w.endObject()
            if view.kind == .horizontalScroll, !view.atLeadingEdge { w.key("atLeadingEdge"); w.bool(false) }
            w.endObject()
        }
        w.endArray()
    }
}
