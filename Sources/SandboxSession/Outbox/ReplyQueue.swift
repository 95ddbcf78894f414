/// The replies waiting for the socket, oldest first, with their payload bytes counted: a FIFO
/// over one array (taken from the front by an index, compacted as it drains).
struct ReplyQueue {
    private var items: [EncodedMessage] = []
    private var head = 0
    private(set) var bytes = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }
    var first: EncodedMessage? { isEmpty ? nil : items[head] }

    mutating func append(_ message: EncodedMessage) {
        items.append(message)
        bytes += message.payloadCount
    }

    mutating func removeFirst() {
        bytes -= items[head].payloadCount
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        items.removeAll()
        head = 0
        bytes = 0
    }
}
