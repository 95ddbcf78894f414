/// How a service thread waits for its sockets (`serve --event-loop`).
public enum EventLoop: String, CaseIterable, Sendable {
    /// libwebsockets' own loop: `poll` over every descriptor of the thread at each turn, two
    /// turns a tick phase (docs/PERFORMANCE.md, "Frame cost": 21 % of the server's CPU at 1,000
    /// sessions without making frames).
    case poll
    /// libwebsockets' libev event library on an epoll loop: the kernel keeps the watched
    /// descriptors, a turn costs what is ready, and a socket's write interest is one
    /// `epoll_ctl` when it changes.
    case epoll
}
