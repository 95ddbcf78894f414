import Testing

@testable import SandboxSession

/// `PartList`: appends past its capacity keep every element, `removeAll` keeps the storage, and
/// the buffers it lends are exactly the appended elements; an index out of range stops the process
/// rather than read another frame's parts.
struct PartListTests {
    @Test func appendsGrowAndKeepEveryElement() {
        var list = PartList<Int32>(capacity: 2)
        for value in 0..<100 { list.append(Int32(value)) }
        #expect(list.count == 100)
        #expect(list.capacity >= 100)
        #expect(Array(list.all) == (0..<100).map(Int32.init))
        #expect(Array(list[10..<13]) == [10, 11, 12])
        #expect(list[99] == 99)
        let capacity = list.capacity
        list.removeAll()
        #expect(list.count == 0 && list.capacity == capacity)
        list.append(7)
        #expect(Array(list.all) == [7])
        list.deallocate()
    }

    @Test func anIndexPastTheCountStops() async {
        await #expect(processExitsWith: .failure) {
            var list = PartList<Int32>(capacity: 8)
            list.append(1)
            _ = list[1]
        }
    }

    @Test func aRangePastTheCountStops() async {
        await #expect(processExitsWith: .failure) {
            var list = PartList<Int32>(capacity: 8)
            list.append(1)
            _ = list[0..<2]
        }
    }
}
