"""`serve --frame-writes tick`: a tick's due frames are written right after its actions, each
through a WRITEABLE callback lws makes without a poll (SandboxServer.writeTickFrames). The same
bounds as the poll's way: a socket that cannot take a frame falls back to WRITEABLE, a closed one
is skipped, nothing is ever left half-written inside libwebsockets."""
import json
import socket
import struct
import time

import test_hostile as hostile
import rawws
from sandbox_env import ROOT, run_sandbox

TICK = ("--frame-writes", "tick")


def test_every_session_streams_at_its_rate_with_tick_writes():
    result = run_sandbox(
        "bench", "--sessions", "30", "--fps", "30", "--seconds", "2", "--server-frame-writes", "tick", "--json",
        timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads(result.stdout)[0]["result"]
    assert run["connected"] == 30 and run["errors"] == 0
    assert 27 <= run["slowestSessionFPS"] and run["meanSessionFPS"] <= 31


def test_frame_writes_must_be_poll_or_tick():
    bad = run_sandbox("serve", "--frame-writes", "now", timeout=60, cwd=ROOT)
    assert bad.returncode == 64 and "frame-writes" in bad.stderr
    bad = run_sandbox("bench", "--url", "ws://127.0.0.1:9/", "--server-frame-writes", "tick", timeout=60, cwd=ROOT)
    assert bad.returncode == 64 and "not with --url" in bad.stderr


def test_a_full_socket_then_half_close_leaves_no_partial_write(make_server):
    hostile.test_a_reader_that_stops_with_the_socket_full_then_half_closes(make_server(*TICK))


def test_a_client_that_never_reads_is_still_throttled_then_cut(make_server):
    hostile.test_a_client_that_never_reads_is_throttled_then_cut(
        lambda *extra, **options: make_server(*TICK, *extra, **options))


def _streaming(server, count):
    """`count` raw clients each playing a 60 s completion (as bench does): a frame every tick."""
    sockets = []
    for _ in range(count):
        s = rawws.websocket(server.host, server.port)
        s.sendall(rawws.frame(json.dumps({"type": "configure", "duration": 60})))
        s.sendall(rawws.frame(json.dumps({"type": "play"})))
        sockets.append(s)
    return sockets


def test_connections_reset_mid_stream_are_skipped_and_the_rest_stream_on(make_server):
    # Half the streaming clients reset at once (RST, no close frame) while their frames are
    # due: a tick's list may name connections gone by the time it writes.
    server = make_server(*TICK)
    sockets = _streaming(server, 40)
    for s in sockets:
        rawws.read_frame(s)  # welcome: each is up
    for s in sockets[::2]:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    kept = sockets[1::2]
    # Every kept client still receives frames a second later.
    deadline = time.monotonic() + 5
    for s in kept:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        frames = 0
        while frames < 3:
            opcode, payload = rawws.read_frame(s)
            if opcode == 1 and json.loads(payload)["type"] == "frame":
                frames += 1
    hostile.assert_healthy(server)
    for s in kept:
        s.close()
    hostile.assert_stops_cleanly(server)
