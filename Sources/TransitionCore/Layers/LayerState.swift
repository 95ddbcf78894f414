/// The state of one visible layer at one instant, with `CALayer` semantics, flattened: every
/// layer — masks included — is placed in the container's coordinates.
///
/// The layer is drawn as its `bounds`-sized shape centred on the origin, transformed by
/// `transform` (or `transform3D`) about its centre, then moved to `center`.
public struct LayerState: Equatable, Hashable, Sendable {
    public var id: LayerID
    public var content: LayerContent
    public var shape: LayerShape = .rect
    public var center: Point
    public var bounds: Size
    public var transform: AffineTransform = .identity
    /// Set for 3-D layers (perspective); `transform` then holds its best 2-D stand-in.
    public var transform3D: Transform3D?
    public var cornerRadius: Double = 0
    public var opacity: Double = 1
    /// Higher draws later (on top).
    public var z: Int
    /// The mask layer clipping this one, if any.
    public var mask: LayerID?

    public init(
        id: LayerID, content: LayerContent, shape: LayerShape = .rect, center: Point, bounds: Size,
        transform: AffineTransform = .identity, transform3D: Transform3D? = nil, cornerRadius: Double = 0,
        opacity: Double = 1, z: Int, mask: LayerID? = nil
    ) {
        self.id = id
        self.content = content
        self.shape = shape
        self.center = center
        self.bounds = bounds
        self.transform = transform
        self.transform3D = transform3D
        self.cornerRadius = cornerRadius
        self.opacity = opacity
        self.z = z
        self.mask = mask
    }

    /// A layer filling the whole container.
    static func screen(_ id: LayerID, _ content: LayerContent, in container: Size, z: Int) -> LayerState {
        LayerState(
            id: id, content: content, center: Point(x: container.width / 2, y: container.height / 2),
            bounds: container, z: z)
    }

    /// The four corners (top-left, top-right, bottom-right, bottom-left) in container
    /// coordinates, through the 3-D transform with perspective when there is one.
    /// Nil when a corner falls behind the eye.
    public func projectedCorners() -> [Point]? {
        let w = bounds.width / 2
        let h = bounds.height / 2
        let local = [Point(x: -w, y: -h), Point(x: w, y: -h), Point(x: w, y: h), Point(x: -w, y: h)]
        var corners: [Point] = []
        corners.reserveCapacity(4)
        for corner in local {
            if let transform3D {
                guard let projected = transform3D.project(corner) else { return nil }
                corners.append(projected + center)
            } else {
                corners.append(transform.apply(to: corner) + center)
            }
        }
        return corners
    }
}
