/// What is on screen at rest: the presentation layers ("groups") bottom to top, their views,
/// the push-back under phone cards, the dimming under tablet sheets.
extension SceneHierarchy {
    struct Group: Equatable, Sendable {
        /// The root's id or the presented controller's id.
        var id: String
        var frame: Rect
        var layers: [SceneLayer]
        /// The presentations drawn in this group, bottom to top (its own first, then context ones).
        var members: [Int]
        var pushedBack = false
    }

    struct Composition: Equatable, Sendable {
        /// Visible groups, bottom to top.
        var groups: [Group]
        /// Every presentation index, bottom to top: the hidden ones (under a full-screen
        /// presentation, or whose context is hidden) first, then the visible groups' members.
        var zOrder: [Int]

        var layers: [SceneLayer] { groups.flatMap(\.layers) }
    }

    func composition() -> Composition {
        var groups = [
            Group(id: root.id, frame: bounds, layers: views(of: root, frame: bounds, group: root.id), members: [])
        ]
        var hidden: [Int] = []
        for (index, presentation) in presentations.enumerated() {
            let presented = presentation.presented
            let style = presentation.style
            if style.isContextBased {
                let context = presentation.presenter
                guard
                    let g = groups.lastIndex(where: {
                        $0.layers.contains { $0.controller == context && $0.role != .dimming }
                    })
                else {
                    hidden.append(index)
                    continue
                }
                if style == .currentContext {
                    let covered = Set(controller(context)?.allIDs ?? [context])
                    groups[g].layers.removeAll { covered.contains($0.controller) }
                }
                var layers = views(of: presented, frame: presentation.frame, group: groups[g].id)
                // Over a sheet's card: the card's rounded corners clip it (SceneContextWalkTests).
                if let own = groups[g].members.first, presentations[own].style.isSheet,
                    !device.sheetFillsWindow(in: interfaceOrientation)
                {
                    layers = layers.map { layer in
                        var layer = layer
                        layer.cornerRadius = SceneDevice.sheetCornerRadius
                        return layer
                    }
                }
                if groups[g].pushedBack {
                    layers = layers.map { pushedBack($0, in: groups[g].frame) }
                }
                groups[g].layers += layers
                groups[g].members.append(index)
                continue
            }
            var group = Group(
                id: presented.id, frame: presentation.frame,
                layers: views(of: presented, frame: presentation.frame, group: presented.id), members: [index])
            switch style {
            case .fullScreen:
                hidden += groups.flatMap(\.members)
                groups = []
            case .pageSheet, .formSheet:
                if device.sheetFillsWindow(in: interfaceOrientation) {
                    break  // the full window, the presenter as it was
                } else if let look = sheetLook(presentation) {
                    // A card with detents (Scene+SheetDetents.swift): pushed back at large only.
                    let last = groups.count - 1
                    if look.pushesBack, !groups[last].pushedBack {
                        groups[last].layers = groups[last].layers.map { pushedBack($0, in: groups[last].frame) }
                        groups[last].pushedBack = true
                    }
                    group.layers = lookedLayers(group.layers, of: presentation, look: look)
                } else if device.isCompact {
                    let last = groups.count - 1
                    if !groups[last].pushedBack {
                        groups[last].layers = groups[last].layers.map { pushedBack($0, in: groups[last].frame) }
                        groups[last].pushedBack = true
                    }
                    group.layers = group.layers.map { layer in
                        var layer = layer
                        layer.cornerRadius = SceneDevice.sheetCornerRadius
                        return layer
                    }
                } else {
                    let dimming = SceneLayer(
                        controller: presented.id, role: .dimming, frame: bounds,
                        opacity: SceneDevice.dimmingOpacity, group: presented.id)
                    group.layers =
                        [dimming]
                        + group.layers.map { layer in
                            var layer = layer
                            layer.cornerRadius = SceneDevice.sheetCornerRadius
                            return layer
                        }
                }
            case .overFullScreen, .currentContext, .overCurrentContext, .automatic:
                break
            }
            groups.append(group)
        }
        return Composition(groups: groups, zOrder: hidden + groups.flatMap(\.members))
    }

    /// A controller's own views at rest: a plain one's view, or a navigation controller's
    /// visible child below its bar.
    private func views(of controller: SceneController, frame: Rect, group: String) -> [SceneLayer] {
        guard let stack = controller.stack, let top = stack.last else {
            let role: SceneLayer.Role = controller.id == root.id ? .root : .presented
            return [SceneLayer(controller: controller.id, role: role, frame: frame, group: group)]
        }
        return [
            SceneLayer(
                controller: top.id, role: .child, frame: contentFrame(ofNavigation: controller.id), group: group),
            SceneLayer(
                controller: controller.id, role: .navigationBar, frame: barFrame(ofNavigation: controller.id),
                title: top.title, group: group),
        ]
    }

    /// A layer of a group pushed back under a phone card: the group scales by
    /// `pushedBackScale` about its horizontal centre and its top moves to the safe area's top,
    /// so 10 pt of it shows above the card; its corners round.
    private func pushedBack(_ layer: SceneLayer, in groupFrame: Rect) -> SceneLayer {
        let s = pushedBackScale
        let originX = groupFrame.midX - groupFrame.width * s / 2
        let originY = safeAreaTop
        var layer = layer
        layer.frame = Rect(
            x: originX + (layer.frame.minX - groupFrame.minX) * s,
            y: originY + (layer.frame.minY - groupFrame.minY) * s,
            width: layer.frame.width * s, height: layer.frame.height * s)
        layer.scale *= s
        layer.cornerRadius = SceneDevice.sheetCornerRadius
        return layer
    }

    /// The controllers whose views are in the window at rest (they have appeared), per group
    /// bottom to top; within a group a navigation controller before its child.
    func appearedGroups() -> [[String]] {
        composition().groups.map { group in
            var ids: [String] = []
            for layer in group.layers {
                switch layer.role {
                case .root, .presented:
                    ids.append(layer.controller)
                case .child:
                    if let parent = parent(of: layer.controller), !ids.contains(parent) { ids.append(parent) }
                    ids.append(layer.controller)
                case .navigationBar:
                    if !ids.contains(layer.controller) { ids.append(layer.controller) }
                case .dimming, .view, .grabber:
                    break
                }
            }
            return ids
        }
    }

    func appeared() -> [String] { appearedGroups().flatMap { $0 } }

    /// The top-most controller: the presented controller highest in z-order, else the root.
    var topMost: String {
        guard let last = composition().zOrder.last else { return root.id }
        return presentations[last].presented.id
    }
}
