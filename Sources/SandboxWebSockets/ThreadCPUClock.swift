import Glibc

/// The calling thread's CPU time, in seconds (`CLOCK_THREAD_CPUTIME_ID`): what the frame budget
/// measures a tick's cost with. Not the server clock: on a shared host the thread is preempted
/// in the middle of a tick, and wall time then charged the tick for others' work (a soak's
/// 60 fps witness was cut to 20 frames while the server used 0.15 of a core).
enum ThreadCPUClock {
    static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
