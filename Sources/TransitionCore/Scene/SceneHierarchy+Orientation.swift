/// The hierarchy's geometry in its interface orientation, who decides the orientation, and
/// the relayout a rotation makes.
extension SceneHierarchy {
    /// The window's bounds in interface coordinates.
    var bounds: Rect { device.bounds(in: interfaceOrientation) }
    var safeAreaTop: Double { device.safeAreaTop(in: interfaceOrientation) }
    var navigationBarHeight: Double { device.navigationBarHeight(in: interfaceOrientation) }
    var pushedBackScale: Double { device.pushedBackScale(in: interfaceOrientation) }
    func frame(for style: PresentationStyle) -> Rect { device.frame(for: style, in: interfaceOrientation) }

    /// The root, or the presented controller highest in z-order whose presentation fills the
    /// window (`fullScreen`, `overFullScreen`; a context style that fell back is stored as one
    /// of those). Sheets and context presentations never decide.
    var fullScreenController: String {
        let zOrder = composition().zOrder
        let index = zOrder.last { presentations[$0].style == .fullScreen || presentations[$0].style == .overFullScreen }
        return index.map { presentations[$0].presented.id } ?? root.id
    }

    /// The allowed orientations and who decides them (see `OrientationResolution`).
    func orientationResolution(options: SceneOptions) -> OrientationResolution {
        let app = options.appOrientations ?? .deviceDefault(device)
        let window = options.windowOrientations ?? app
        let top = fullScreenController
        var decider = top
        if options.containerForwardsOrientation, let child = controller(top)?.stack?.last {
            decider = child.id
        }
        let deciding = controller(decider)
        // iOS 16 no longer consults `shouldAutorotate` (iOS & iPadOS 16 release notes: "has been
        // deprecated and is no longer supported"; the masks alone decide): read as YES from 16
        // (`SceneOrientationVersionTests.shouldAutorotateIgnoredFrom16`).
        let autorotates = options.ios.atLeast(16) || (deciding?.shouldAutorotate ?? true)
        return OrientationResolution(
            app: app, window: window, fullScreenController: top, decider: decider,
            controller: deciding?.supportedMask ?? .deviceDefault(device),
            shouldAutorotate: autorotates,
            preferred: deciding?.preferredOrientation, hardware: .deviceDefault(device),
            windowReplacesApp: options.windowOrientations != nil)
    }

    /// This hierarchy turned to `orientation`: every presentation's frame recomputed for the
    /// new bounds, in the order they were made (a context presentation takes its context's
    /// new frame).
    func reoriented(to orientation: InterfaceOrientation) -> SceneHierarchy {
        var turned = self
        turned.interfaceOrientation = orientation
        for index in turned.presentations.indices {
            let presentation = turned.presentations[index]
            turned.presentations[index].frame =
                presentation.style.isContextBased
                ? turned.frame(of: presentation.presenter)
                : turned.detentFrame(
                    turned.frame(for: presentation.style), presented: presentation.presented,
                    style: presentation.style)
        }
        return turned
    }

    /// Replaces the orientation properties of the controller `id` wherever it is.
    mutating func updateOrientation(of id: String, to properties: SceneController.OrientationProperties) {
        func update(_ tree: inout SceneController) {
            if tree.id == id { tree.orientationProperties = properties }
            if var stack = tree.stack {
                for index in stack.indices { update(&stack[index]) }
                tree.stack = stack
            }
        }
        update(&root)
        for index in presentations.indices { update(&presentations[index].presented) }
    }
}
