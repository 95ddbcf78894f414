"""`serve --event-loop epoll`: libwebsockets' libev event library on an epoll loop instead of its
own poll over every descriptor. The server must behave exactly as with poll: every session at its
rate, the hostile bounds (nothing half-written inside lws, never-readers throttled then cut),
service threads and their hand-over, TLS, SIGTERM. The whole integration suite also passed with
epoll made the default (docs/PERFORMANCE.md, "Frame cost"); these keep the main paths covered."""
import json
import socket
import struct
import time

import pytest

import rawws
import test_hostile as hostile
import test_tls as tls
import test_transitions as transitions
from sandbox_env import ROOT, run_sandbox
from test_tls import certificate  # noqa: F401 (the module-scoped fixture)

EPOLL = ("--event-loop", "epoll")


def with_epoll(make_server):
    return lambda *extra, **options: make_server(*EPOLL, *extra, **options)


def test_every_session_streams_at_its_rate_on_epoll():
    result = run_sandbox(
        "bench", "--sessions", "30", "--fps", "30", "--seconds", "2", "--server-event-loop", "epoll", "--json",
        timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads(result.stdout)[0]["result"]
    assert run["connected"] == 30 and run["errors"] == 0
    assert 27 <= run["slowestSessionFPS"] and run["meanSessionFPS"] <= 31


@pytest.mark.parametrize("command", [["serve", "--event-loop"], ["bench", "--server-event-loop"]])
@pytest.mark.parametrize("value", ["select", "", "EPOLL"])
def test_event_loop_must_be_poll_or_epoll(command, value):
    bad = run_sandbox(*command, value, timeout=60, cwd=ROOT)
    assert bad.returncode == 64 and "event-loop" in bad.stderr


def test_server_event_loop_is_for_the_server_bench_starts():
    bad = run_sandbox("bench", "--url", "ws://127.0.0.1:9/", "--server-event-loop", "epoll", timeout=60, cwd=ROOT)
    assert bad.returncode == 64 and "not with --url" in bad.stderr


def test_a_full_socket_then_half_close_leaves_no_partial_write(make_server):
    hostile.test_a_reader_that_stops_with_the_socket_full_then_half_closes(make_server(*EPOLL))


def test_a_client_that_never_reads_is_throttled_then_cut(make_server):
    hostile.test_a_client_that_never_reads_is_throttled_then_cut(with_epoll(make_server))


def test_service_threads_and_viewers_across_them(make_server):
    transitions.test_service_threads_deal_connections_and_viewers_join_across_threads(with_epoll(make_server))


def test_threads_churn_leaves_no_descriptor(make_server):
    hostile.test_threads_churn_leaves_no_descriptor_and_sigterm_during_churn_exits_0(with_epoll(make_server))


def test_tls_with_service_threads(make_server, certificate):  # noqa: F811
    tls.test_tls_with_service_threads(with_epoll(make_server), certificate)


def test_connections_reset_mid_stream_and_the_rest_stream_on(make_server):
    server = make_server(*EPOLL)
    sockets = []
    for _ in range(40):  # each playing a 60 s completion, as bench does: a frame every tick
        s = rawws.websocket(server.host, server.port)
        s.sendall(rawws.frame(json.dumps({"type": "configure", "duration": 60})))
        s.sendall(rawws.frame(json.dumps({"type": "play"})))
        sockets.append(s)
    for s in sockets:
        rawws.read_frame(s)  # welcome: each is up
    for s in sockets[::2]:  # half reset at once (RST, no close frame) while their frames are due
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    deadline = time.monotonic() + 5
    for s in sockets[1::2]:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        frames = 0
        while frames < 3:
            opcode, payload = rawws.read_frame(s)
            if opcode == 1 and json.loads(payload)["type"] == "frame":
                frames += 1
    hostile.assert_healthy(server)
    for s in sockets[1::2]:
        s.close()
    hostile.assert_stops_cleanly(server)


def _epoll_descriptors(pid):
    import os
    found = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            found += os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[eventpoll]"
        except OSError:
            pass  # closed meanwhile
    return found


@pytest.mark.parametrize("threads", ["1", "3"])
def test_each_service_thread_waits_on_its_own_epoll_only_when_asked(make_server, threads):
    # An epoll descriptor more per service thread with --event-loop epoll than with lws' own poll
    # (libdispatch keeps one of its own for the signal sources either way).
    polling = _epoll_descriptors(make_server("--threads", threads).process.pid)
    assert _epoll_descriptors(make_server(*EPOLL, "--threads", threads).process.pid) == polling + int(threads)
