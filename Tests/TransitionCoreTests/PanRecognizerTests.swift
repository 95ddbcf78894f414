import Testing

@testable import TransitionCore

@Suite("Pan recognizer")
struct PanRecognizerTests {
    typealias E = PointerEvent

    /// Applies events and collects the non-nil updates.
    static func run(_ recognizer: inout PanRecognizer, _ events: [E]) throws -> [PanRecognizer.State] {
        var updates: [PanRecognizer.State] = []
        for event in events {
            if let update = try recognizer.handle(event) { updates.append(update) }
        }
        return updates
    }

    @Test("begins past the 10 pt slop, with the translation measured from the pointer-down point")
    func slop() throws {
        var pan = PanRecognizer()
        let updates = try Self.run(
            &pan,
            [
                E(.down, x: 100, y: 100, time: 0),
                E(.move, x: 105, y: 100, time: 0.016),
                E(.move, x: 112, y: 101, time: 0.032),
                E(.move, x: 130, y: 101, time: 0.048),
                E(.up, x: 130, y: 101, time: 0.064),
            ])
        #expect(updates == [.began, .changed, .ended])
        #expect(pan.translation == Point(x: 30, y: 1))
    }

    @Test("a tap (up inside the slop) fails and reports nothing")
    func tap() throws {
        var pan = PanRecognizer()
        let updates = try Self.run(
            &pan, [E(.down, x: 0, y: 0, time: 0), E(.move, x: 3, y: 2, time: 0.01), E(.up, x: 3, y: 2, time: 0.02)])
        #expect(updates.isEmpty)
        #expect(pan.state == .failed)
    }

    @Test("an x pan fails on vertical movement; a positive pan fails leftwards")
    func axisAndDirection() throws {
        var vertical = PanRecognizer(settings: PanSettings(axis: .x))
        #expect(
            try Self.run(
                &vertical,
                [E(.down, x: 0, y: 0, time: 0), E(.move, x: 2, y: 15, time: 0.01), E(.move, x: 50, y: 15, time: 0.02)]
            ).isEmpty)
        #expect(vertical.state == .failed)

        var leftwards = PanRecognizer(settings: PanSettings(axis: .x, direction: .positive))
        #expect(try Self.run(&leftwards, [E(.down, x: 0, y: 0, time: 0), E(.move, x: -12, y: 0, time: 0.01)]).isEmpty)
        #expect(leftwards.state == .failed)

        var upwards = PanRecognizer(settings: PanSettings(axis: .y, direction: .negative))
        #expect(
            try Self.run(&upwards, [E(.down, x: 0, y: 0, time: 0), E(.move, x: 0, y: -12, time: 0.01)]) == [.began])
    }

    @Test("velocity of a steady drag is exact; a pause before lifting makes it zero")
    func velocity() throws {
        var pan = PanRecognizer()
        var events = [E(.down, x: 0, y: 0, time: 0)]
        for i in 1...10 { events.append(E(.move, x: Double(i) * 8, y: Double(i) * -2, time: Double(i) * 0.008)) }
        _ = try Self.run(&pan, events)
        #expect(abs(pan.velocity.x - 1000) < 1e-6 && abs(pan.velocity.y + 250) < 1e-6)

        _ = try pan.handle(E(.up, x: 80, y: -20, time: 0.080 + 0.050))  // held still for 50 ms
        #expect(pan.velocity == .zero)
    }

    @Test("a second pointer neither starts a pan nor moves the first")
    func secondPointer() throws {
        var pan = PanRecognizer()
        let updates = try Self.run(
            &pan,
            [
                E(.down, x: 0, y: 0, time: 0, pointerID: 1),
                E(.move, x: 20, y: 0, time: 0.01, pointerID: 1),
                E(.down, x: 300, y: 300, time: 0.02, pointerID: 2),
                E(.move, x: 100, y: 300, time: 0.03, pointerID: 2),
                E(.up, x: 100, y: 300, time: 0.04, pointerID: 2),
                E(.move, x: 30, y: 0, time: 0.05, pointerID: 1),
            ])
        #expect(updates == [.began, .changed])
        #expect(pan.translation == Point(x: 30, y: 0))
    }

    @Test("refused events throw and change nothing")
    func refusals() throws {
        var pan = PanRecognizer()
        _ = try pan.handle(E(.down, x: 0, y: 0, time: 1))
        let before = pan
        #expect(throws: InputError.pointerNotDown(7)) { try pan.handle(E(.up, x: 0, y: 0, time: 2, pointerID: 7)) }
        #expect(throws: InputError.pointerAlreadyDown(0)) { try pan.handle(E(.down, x: 0, y: 0, time: 2)) }
        #expect(throws: InputError.timeWentBackwards(previous: 1, got: 0.5)) {
            try pan.handle(E(.move, x: 5, y: 0, time: 0.5))
        }
        #expect(throws: InputError.nonFiniteValue) { try pan.handle(E(.move, x: .nan, y: 0, time: 2)) }
        #expect(throws: InputError.nonFiniteValue) { try pan.handle(E(.move, x: 0, y: 0, time: .infinity)) }
        #expect(pan == before)
        for id in 1..<PanRecognizer.maximumPointers { _ = try pan.handle(E(.down, x: 0, y: 0, time: 3, pointerID: id)) }
        let full = pan
        #expect(throws: InputError.tooManyPointers(limit: 10)) {
            try pan.handle(E(.down, x: 0, y: 0, time: 3, pointerID: 99))
        }
        #expect(pan == full)
    }
}
