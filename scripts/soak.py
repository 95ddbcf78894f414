#!/usr/bin/env python3
"""Soak: the release server (`serve --threads 2`) under a mix of honest and hostile clients for
--minutes N, with its memory and descriptors printed every minute (docs/SECURITY.md, "Sanitizers
and soak").

Load, all at once until the end:
- drivers that pan in a loop (pointer down, moves, up; wait for the transition to rest), now and
  then reconfiguring, and reconnecting after a few pans;
- viewers that `join` a live driver's session, watch it for a while, and leave;
- hostile clients, in turn: a never-reader (sends until the server stops reading, then neither
  reads nor closes: the server cuts it after --write-timeout), a message over 64 KiB (1009), a
  flood (`rate-limited`, then 1008), the livelock sequence (big replies unread, then half-close),
  `CONNECT` and `Upgrade: h2c` requests, a DNS-rebinding Host (403);
- reconnect churn: WebSocket connections opened and dropped without a close handshake, and page
  requests;
- idle readers (--idle-readers, default 8): viewers of the witness's session and 240 fps players
  (`configure {fps: 240, duration: 60}` + `play`) that never read a byte and hold on until the
  server cuts them (--write-timeout, or lws' ping hang-up), then come back;
- a witness: one session that plays a 1 s completion at 60 fps every few seconds and counts the
  frames the server made for it (the span of frame numbers `n`).

Every minute one line: minute, server RSS (VmRSS), open descriptors (/proc/PID/fd), connections
the clients opened so far, errors (anything that did not go as the protocol says). At the end
the verdict, each part printed:
- RSS flat: the last minute's RSS is within +RSS_SLACK MiB (10) of minute 1's;
- descriptors flat: once the clients are gone, the count is back to its idle baseline (taken
  before any load) within ±FD_SLACK (2);
- no errors (at most --max-errors), and the server never died;
- CPU bounded: the server's mean CPU over the soak is under --max-cpu of a core (1.5: --threads 2);
- the witness kept its frames: its median play was made at least 90 % of its 60 frames;
- the server still answers GET / with 200 and exits 0 on SIGTERM.
Exits 0 if all hold, 1 otherwise.
"""
import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
sys.path.insert(0, str(ROOT / "Tests"))

import rawws  # noqa: E402
from client import Client  # noqa: E402
from sandbox_env import wait_for_signal_sources  # noqa: E402

TAB_PING = '{"type":"ping","' + "\t" * 32700 + '":0}'
KINDS = ["pop", "reveal", "fade", "push", "cover-vertical", "flip-horizontal", "cross-dissolve", "partial-curl"]


# --- shared counters (one process drives, one is hostile; the monitor reads both) -----------

class Counters:
    def __init__(self):
        self.connections = mp.Value("q", 0)
        self.errors = mp.Value("q", 0)
        self.pans = mp.Value("q", 0)
        self.hostile = mp.Value("q", 0)
        self.scene_ops = mp.Value("q", 0)
        self.idle = mp.Value("q", 0)
        self.witness = mp.Queue()  # frames made for each of the witness's plays
        self.witness_session = mp.Array("c", 64)  # its session id, for the idle viewers
        self.notes = mp.Queue()  # the first few error messages, for the report

    def add(self, name, n=1):
        value = getattr(self, name)
        with value.get_lock():
            value.value += n

    def error(self, what):
        self.add("errors")
        try:
            self.notes.put_nowait(f"{time.strftime('%H:%M:%S')} {what}"[:300])
        except Exception:
            pass


# --- drivers, viewers (asyncio, the `websockets` client of the tests) ------------------------

# A scene refusal the random walk below can cause on purpose: answered, nothing changed.
SCENE_REFUSALS = {"already-presented", "already-presenting", "nothing-presented", "cannot-pop-root",
                  "not-in-navigation", "covered", "no-common-orientation"}


async def scene_reply(client, counters):
    """The answer to one scene message: its scene-state, or an expected refusal."""
    reply = await client.until(lambda m: m["type"] in ("scene-state", "error"))
    if reply["type"] == "error" and reply["code"] not in SCENE_REFUSALS:
        raise AssertionError(f"scene: {reply}")
    return reply


async def scene_round(client, counters, rng):
    """A scene: presents, pushes, pops, dismissals, device turns and an
    edge-swipe pop, then back to the plain transition."""
    await client.send({"type": "scene", "device": rng.choice(["phone", "tablet"]),
                       "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}],
                                "supportedOrientations": ["all"]}})
    state = await scene_reply(client, counters)
    for i in range(rng.randint(3, 10)):
        op = rng.choice(["present", "push", "pop", "dismiss", "device", "device"])
        if op == "present":
            message = {"type": "present", "animated": False,
                       "controller": {"id": f"p{i}", "presentationStyle": rng.choice(
                           ["fullScreen", "pageSheet", "formSheet", "overFullScreen", "currentContext"])}}
        elif op == "push":
            message = {"type": "push", "animated": False, "controller": {"id": f"c{i}"}}
        elif op == "device":
            message = {"type": "device", "orientation": rng.choice(
                ["portrait", "landscapeLeft", "landscapeRight", "portraitUpsideDown", "faceUp"])}
        else:
            message = {"type": op, "animated": False}
        await client.send(message)
        reply = await scene_reply(client, counters)
        if reply["type"] == "scene-state":
            state = reply
            # A turn plays on the display link: wait for its last frame before the next message.
            # (A refusal changes nothing and sends no frame.)
            await client.until(lambda m: m["type"] == "frame" and m.get("scene", {}).get("root", {}).get("rotating") is None)
        counters.add("scene_ops")
    armed = state.get("armed") or {}
    if armed.get("action") == "pop" and armed.get("edgeSwipe"):
        await client.pan(300, x0=5)
        await client.rest()
        counters.add("pans")
    await client.send({"type": "scene", "root": None})
    await client.until(lambda m: m["type"] == "scene-state" and m.get("root", 0) is None)


async def driver(url, counters, stop, sessions, rng):
    while not stop.is_set():
        client = None
        try:
            client = await Client.connect(url)
            counters.add("connections")
            sessions.add(client.welcome["session"])
            for _ in range(rng.randint(3, 12)):
                if stop.is_set():
                    break
                if rng.random() < 0.2:
                    await scene_round(client, counters, rng)
                    client.frames.clear()
                    client.events.clear()
                    continue
                if rng.random() < 0.3:
                    await client.send({"type": "configure", "transition": rng.choice(KINDS),
                                       "duration": rng.choice([0.2, 0.3, 0.5])})
                    await client.expect("configured")
                await client.pan(rng.choice([-160, -60, 40, 90, 150, 180]), steps=rng.randint(5, 20))
                await client.rest()
                counters.add("pans")
                client.frames.clear()
                client.events.clear()
        except Exception as e:  # noqa: BLE001 — every failure counts, whatever its kind
            if not stop.is_set():
                counters.error(f"driver: {type(e).__name__}: {e}")
                await asyncio.sleep(1)
        finally:
            if client is not None:
                sessions.discard(client.welcome["session"])
                try:
                    await client.close()
                except Exception:
                    pass


async def viewer(url, counters, stop, sessions, rng):
    while not stop.is_set():
        if not sessions:
            await asyncio.sleep(0.2)
            continue
        session = rng.choice(sorted(sessions))
        client = None
        try:
            # With --threads N a viewer can join only sessions of its own service thread:
            # connections are dealt round robin, so try new ones while the session lives.
            for _ in range(16):
                client = await Client.connect(url)
                counters.add("connections")
                await client.send({"type": "join", "session": session})
                reply = await client.until(lambda m: m["type"] in ("joined", "error"))
                if reply["type"] == "joined":
                    break
                if reply["code"] != "unknown-session":
                    raise AssertionError(f"join: {reply}")
                await client.close()
                client = None
                if session not in sessions:
                    break
            if client is None:
                continue
            deadline = time.monotonic() + rng.uniform(3, 15)
            while time.monotonic() < deadline and not stop.is_set():
                try:
                    message = await asyncio.wait_for(client.recv(), 1)
                except asyncio.TimeoutError:
                    continue
                if message["type"] == "session-ended":
                    break
                client.frames.clear()
                client.events.clear()
        except Exception as e:  # noqa: BLE001
            if not stop.is_set():
                counters.error(f"viewer: {type(e).__name__}: {e}")
                await asyncio.sleep(1)
        finally:
            if client is not None:
                try:
                    await client.close()
                except Exception:
                    pass


def honest_process(url, counters, stop, drivers, viewers, seed):
    """Drivers and viewers on one asyncio loop (its own process: hostile floods must not starve it)."""
    async def main():
        sessions = set()
        tasks = [asyncio.create_task(driver(url, counters, stop, sessions, random.Random(seed + i)))
                 for i in range(drivers)]
        tasks += [asyncio.create_task(viewer(url, counters, stop, sessions, random.Random(seed + 100 + i)))
                  for i in range(viewers)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        await asyncio.wait(tasks, timeout=20)
    asyncio.run(main())


# --- hostile clients and churn (blocking raw sockets, threads) --------------------------------

class Frames:
    """Server frames parsed from a non-blocking raw socket's bytes."""
    def __init__(self):
        self.buffer = b""

    def feed(self, data):
        self.buffer += data
        out = []
        while len(self.buffer) >= 2:
            b0, b1 = self.buffer[0], self.buffer[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(self.buffer) < 4:
                    break
                n, at = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif n == 127:
                if len(self.buffer) < 10:
                    break
                n, at = struct.unpack("!Q", self.buffer[2:10])[0], 10
            if len(self.buffer) < at + n:
                break
            out.append((b0 & 0x0F, self.buffer[at:at + n]))
            self.buffer = self.buffer[at + n:]
        return out


def read_until_close(s, seconds):
    """Reads frames until the server's close frame: (close code, error codes seen), or None."""
    frames, codes = Frames(), []
    deadline = time.monotonic() + seconds
    s.settimeout(1)
    while time.monotonic() < deadline:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return None, codes
        if not data:
            return None, codes
        for opcode, payload in frames.feed(data):
            if opcode == 8:
                return rawws.close_code(payload), codes
            if opcode == 1:
                codes.append(json.loads(payload).get("code"))
    return None, codes


def never_reader(host, port, counters, stop, hold):
    s = rawws.websocket(host, port, rcvbuf=4096, sndbuf=4096)
    counters.add("connections")
    configure = rawws.frame('{"type":"configure"}')
    s.setblocking(False)
    last_progress = time.monotonic()
    start = time.monotonic()
    while time.monotonic() - last_progress < 1.5 and time.monotonic() - start < 15 and not stop.is_set():
        try:
            s.send(configure * 19)
            last_progress = time.monotonic()
        except BlockingIOError:
            pass
        except OSError:
            break  # already cut
        time.sleep(0.01)
    # Neither read nor close: the server must cut it after --write-timeout.
    stop.wait(hold)
    s.close()


def oversized(host, port, counters):
    s = rawws.websocket(host, port)
    counters.add("connections")
    s.sendall(rawws.frame('{"type":"ping","seq":1,"t":0,"pad":"' + "x" * (64 * 1024) + '"}', check=False))
    code, _ = read_until_close(s, 10)
    s.close()
    if code != 1009:
        counters.error(f"oversized message: close {code}, expected 1009")


def flood(host, port, counters):
    """Pings as fast as the socket takes them, reading the replies: `rate-limited`, then 1008."""
    s = rawws.websocket(host, port)
    counters.add("connections")
    batch = b"".join(rawws.frame(json.dumps({"type": "ping", "seq": i, "t": 0})) for i in range(1, 501))
    frames, codes, close = Frames(), [], None
    s.setblocking(False)
    pending = b""
    deadline = time.monotonic() + 30
    while close is None and time.monotonic() < deadline:
        readable, writable, _ = select.select([s], [s], [], 0.5)
        try:
            if writable:
                if not pending:
                    pending = batch
                pending = pending[s.send(pending):]
            if readable:
                data = s.recv(1 << 20)
                if not data:
                    break
                for opcode, payload in frames.feed(data):
                    if opcode == 8:
                        close = rawws.close_code(payload)
                    elif opcode == 1:
                        codes.append(json.loads(payload).get("code"))
        except BlockingIOError:
            pass
        except OSError:
            break
    s.close()
    if close != 1008 or "rate-limited" not in codes:
        counters.error(f"flood: close {close}, rate-limited {'rate-limited' in codes}")


def half_close(host, port, counters):
    """The lws 4.1.6 livelock sequence: big replies left unread, then shutdown(SHUT_WR)."""
    s = rawws.websocket(host, port)
    counters.add("connections")
    rawws.send_all_nonblocking(s, b"".join(rawws.frame(TAB_PING, check=False) for _ in range(40)), time.monotonic() + 5)
    s.shutdown(socket.SHUT_WR)
    time.sleep(2)
    s.close()


def odd_requests(host, port, counters):
    s = rawws.connect(host, port, timeout=3)
    counters.add("connections")
    s.sendall(b"CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n")
    start = time.monotonic()
    if rawws.read_head(s) != b"" or time.monotonic() - start > 2.5:
        counters.error("CONNECT was not closed at once")
    s.close()
    checks = [
        (rawws.upgrade_request(host, port, upgrade="h2c", extra="HTTP2-Settings: AAMAAABkAAQAAP__\r\n"), 403, "h2c"),
        (f"GET / HTTP/1.1\r\nHost: evil.example:{port}\r\nConnection: close\r\n\r\n", 403, "bad Host (page)"),
        (rawws.upgrade_request(host, port, host_header=f"evil.example:{port}", origin=f"http://evil.example:{port}"),
         403, "bad Host (upgrade)"),
    ]
    for request, expected, what in checks:
        got = rawws.status(rawws.request(host, port, request))
        counters.add("connections")
        if got != expected:
            counters.error(f"{what}: {got}, expected {expected}")


def hostile_cycle(host, port, counters, stop, seed, hold):
    rng = random.Random(seed)
    readers = []
    step = 0
    while not stop.is_set():
        kind = ["never-reader", "oversized", "odd", "half-close", "oversized", "odd", "flood"][step % 7]
        step += 1
        try:
            if kind == "never-reader":
                readers = [t for t in readers if t.is_alive()]
                if len(readers) < 3:
                    t = threading.Thread(target=never_reader, args=(host, port, counters, stop, hold), daemon=True)
                    t.start()
                    readers.append(t)
            elif kind == "oversized":
                oversized(host, port, counters)
            elif kind == "flood":
                flood(host, port, counters)
            elif kind == "half-close":
                half_close(host, port, counters)
            else:
                odd_requests(host, port, counters)
            counters.add("hostile")
        except Exception as e:  # noqa: BLE001
            if not stop.is_set():
                counters.error(f"hostile {kind}: {type(e).__name__}: {e}")
        stop.wait(rng.uniform(0.5, 2))
    for t in readers:
        t.join(5)


def churn(host, port, counters, stop, per_second):
    """WebSocket connections opened and dropped (no close handshake), and page requests."""
    while not stop.is_set():
        start = time.monotonic()
        for i in range(per_second):
            if stop.is_set():
                break
            try:
                if i % 5 == 0:
                    got = rawws.status(rawws.request(host, port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"))
                    if got != 200:
                        counters.error(f"GET /: {got}")
                else:
                    rawws.websocket(host, port).close()
                counters.add("connections")
            except Exception as e:  # noqa: BLE001
                if not stop.is_set():
                    counters.error(f"churn: {type(e).__name__}: {e}")
        stop.wait(max(0.0, 1 - (time.monotonic() - start)))


def hostile_process(host, port, counters, stop, seed, churn_rate, hold):
    threads = [
        threading.Thread(target=hostile_cycle, args=(host, port, counters, stop, seed, hold)),
        threading.Thread(target=churn, args=(host, port, counters, stop, churn_rate)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# --- clients that never read, and a witness that counts its frames ---------------------------

def idle_reader(host, port, counters, stop, index):
    """Never reads a byte: even ones play a 60 s completion at 240 fps, odd ones watch the
    witness's session (which must keep ticking for its reading driver). Held until the server
    cuts it, then again."""
    while not stop.is_set():
        try:
            s = rawws.websocket(host, port, rcvbuf=4096)
            counters.add("connections")
            watched = counters.witness_session.value.decode()
            if index % 2 and watched:
                s.sendall(rawws.frame(json.dumps({"type": "join", "session": watched})))
            else:
                s.sendall(rawws.frame(json.dumps({"type": "configure", "fps": 240, "duration": 60}))
                          + rawws.frame(json.dumps({"type": "play"})))
            counters.add("idle")
            # Neither read nor close until the server cuts it (a reset, or a send that fails).
            s.setblocking(False)
            while not stop.wait(1):
                try:
                    s.send(b"")
                    if s.recv(1, socket.MSG_PEEK) == b"":
                        break
                except BlockingIOError:
                    continue
                except OSError:
                    break
            s.close()
        except Exception as e:  # noqa: BLE001
            if not stop.is_set():
                counters.error(f"idle reader: {type(e).__name__}: {e}")
                stop.wait(1)


def idle_process(host, port, counters, stop, count):
    threads = [threading.Thread(target=idle_reader, args=(host, port, counters, stop, i))
               for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def witness_process(url, counters, stop):
    """One reading session: a 1 s play at 60 fps every 5 s; the frames made for each go to the
    counters' witness queue."""
    async def main():
        client = None
        while not stop.is_set():
            try:
                if client is None:
                    client = await Client.connect(url)
                    counters.add("connections")
                    counters.witness_session.value = client.welcome["session"].encode()[:63]
                    await client.send({"type": "configure", "fps": 60, "duration": 1.0})
                    await client.expect("configured")
                await client.send({"type": "play"})
                await client.expect("transition", event="played")
                first = await client.until(lambda m: m["type"] == "frame")
                _, last = await client.rest()
                counters.witness.put(last["n"] - first["n"] + 1)
                client.frames.clear()
                client.events.clear()
            except Exception as e:  # noqa: BLE001
                if not stop.is_set():
                    counters.error(f"witness: {type(e).__name__}: {e}")
                client = None
            for _ in range(50):
                if stop.is_set():
                    break
                await asyncio.sleep(0.1)
        if client is not None:
            await client.close()
    asyncio.run(main())


# --- the server and the monitor ---------------------------------------------------------------

def build_release():
    command = ["swift", "build", "-c", "release", "--product", "sandbox", "--scratch-path", ".build-soak", "-j", "1"]
    print("building:", " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)
    return ROOT / ".build-soak" / "release" / "sandbox"


def start_server(binary, threads, write_timeout, extra, stderr):
    process = subprocess.Popen(
        [str(binary), "serve", "--port", "0", "--web-root", str(ROOT / "web"), "--threads", str(threads),
         "--write-timeout", str(write_timeout), *extra],
        stdout=subprocess.PIPE, stderr=stderr, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://([\d.]+):(\d+)/", line)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1), int(match.group(2))


def rss_mib(pid):
    return rawws.rss_kib(pid) / 1024


def drain(queue, limit=20):
    notes = []
    while len(notes) < limit:
        try:
            notes.append(queue.get_nowait())
        except Exception:
            break
    return notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=10)
    parser.add_argument("--binary", help="a sandbox binary (default: build the release one into .build-soak)")
    parser.add_argument("--threads", type=int, default=2, help="serve --threads")
    parser.add_argument("--write-timeout", type=float, default=30, help="serve --write-timeout (its default)")
    parser.add_argument("--drivers", type=int, default=4)
    parser.add_argument("--viewers", type=int, default=4)
    parser.add_argument("--churn", type=int, default=20, help="churn connections a second")
    parser.add_argument("--rss-slack", type=float, default=10, help="MiB the last minute may exceed minute 1 by")
    parser.add_argument("--fd-slack", type=int, default=2, help="descriptors the end may differ from the baseline by")
    parser.add_argument("--max-errors", type=int, default=0)
    parser.add_argument("--idle-readers", type=int, default=8, help="clients that never read (half at 240 fps)")
    parser.add_argument("--max-cpu", type=float, default=1.5, help="mean server CPU allowed, in cores")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minute-seconds", type=float, default=60, help=argparse.SUPPRESS)  # short trial runs
    parser.add_argument("serve_args", nargs="*", help="more `serve` arguments (after --)")
    args = parser.parse_args()

    binary = Path(args.binary).resolve() if args.binary else build_release()
    stderr = tempfile.TemporaryFile()
    server, host, port = start_server(binary, args.threads, args.write_timeout, args.serve_args, stderr)
    url = f"ws://{host}:{port}/"
    pid = server.pid
    wait_for_signal_sources(pid)
    time.sleep(0.5)
    baseline_fds = rawws.descriptors(pid)
    idle_rss = rss_mib(pid)
    print(f"soak: {binary} serve --threads {args.threads} on {url} (pid {pid}), {args.minutes} min; "
          f"{args.drivers} drivers, {args.viewers} viewers, hostile clients, {args.churn} churn connections/s, "
          f"{args.idle_readers} idle readers, a 60 fps witness", flush=True)
    print(f"idle: RSS {idle_rss:.1f} MiB, {baseline_fds} descriptors", flush=True)

    counters = Counters()
    stop = mp.Event()
    workers = [
        mp.Process(target=honest_process, args=(url, counters, stop, args.drivers, args.viewers, args.seed)),
        mp.Process(target=hostile_process, args=(host, port, counters, stop, args.seed, args.churn,
                                                 args.write_timeout + 10)),
        mp.Process(target=witness_process, args=(url, counters, stop)),
        mp.Process(target=idle_process, args=(host, port, counters, stop, args.idle_readers)),
    ]
    cpu_before = rawws.cpu_seconds(pid)
    for w in workers:
        w.start()

    print(f"{'minute':>6} {'RSS MiB':>8} {'fds':>5} {'conns':>8} {'pans':>6} {'hostile':>7} {'errors':>6}", flush=True)
    rows = []
    start = time.monotonic()
    died = False
    minutes = max(1, round(args.minutes))
    period = args.minute_seconds
    for minute in range(1, minutes + 1):
        while time.monotonic() < start + minute * period:
            if server.poll() is not None:
                died = True
                break
            time.sleep(0.5)
        if died:
            print(f"the server died (exit {server.returncode})", flush=True)
            break
        row = (minute, rss_mib(pid), rawws.descriptors(pid), counters.connections.value, counters.pans.value,
               counters.hostile.value, counters.errors.value)
        rows.append(row)
        print(f"{row[0]:>6} {row[1]:>8.1f} {row[2]:>5} {row[3]:>8} {row[4]:>6} {row[5]:>7} {row[6]:>6}", flush=True)

    cpu = (rawws.cpu_seconds(pid) - cpu_before) / max(time.monotonic() - start, 1e-9)
    stop.set()
    for w in workers:
        w.join(60)
        if w.is_alive():
            w.terminate()
    notes = drain(counters.notes)
    plays = sorted(drain(counters.witness, limit=100_000))

    verdict = []
    if died:
        verdict.append((False, f"the server died during the soak (exit {server.returncode})"))
    else:
        # Clients gone: the server's descriptors return to the idle baseline.
        deadline = time.monotonic() + 15
        while abs(rawws.descriptors(pid) - baseline_fds) > args.fd_slack and time.monotonic() < deadline:
            time.sleep(0.2)
        end_fds = rawws.descriptors(pid)
        first, last = rows[0][1], rows[-1][1]
        verdict.append((last <= first + args.rss_slack,
                        f"RSS flat: minute 1 {first:.1f} MiB, minute {rows[-1][0]} {last:.1f} MiB "
                        f"({last - first:+.1f}, allowed +{args.rss_slack:g}); max {max(r[1] for r in rows):.1f}; "
                        f"idle after {rss_mib(pid):.1f} MiB"))
        verdict.append((abs(end_fds - baseline_fds) <= args.fd_slack,
                        f"descriptors flat: {end_fds} after the load vs {baseline_fds} idle before it "
                        f"(allowed ±{args.fd_slack}); max during it {max(r[2] for r in rows)}"))
        errors = counters.errors.value
        verdict.append((cpu <= args.max_cpu, f"CPU bounded: {cpu:.2f} cores on average (allowed {args.max_cpu:g}); "
                        f"{counters.idle.value} idle readers connected"))
        median = plays[len(plays) // 2] if plays else 0
        verdict.append((median >= 54, f"witness: median {median} of 60 frames made over {len(plays)} plays "
                        f"(min {plays[0] if plays else '-'}; allowed 54)"))
        verdict.append((errors <= args.max_errors, f"errors: {errors} (allowed {args.max_errors}); "
                        f"{counters.connections.value} connections, {counters.pans.value} pans, "
                        f"{counters.scene_ops.value} scene operations, {counters.hostile.value} hostile clients"))
        try:
            got = rawws.status(rawws.request(host, port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n", timeout=5))
        except OSError as e:
            got = f"{type(e).__name__}"
        verdict.append((got == 200, f"GET / after the soak: {got}"))
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            code = f"none within 10 s (killed, {server.wait()})"
        verdict.append((code == 0, f"SIGTERM: exit {code}"))
    if server.poll() is None:
        server.kill()
        server.wait()
    stderr.seek(0)
    err = stderr.read().decode(errors="replace").strip()

    for note in notes:
        print(f"error: {note}")
    if err:
        print("server stderr (last 20 lines):\n  " + "\n  ".join(err.splitlines()[-20:]))
    for ok, text in verdict:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    passed = all(ok for ok, _ in verdict)
    print(f"verdict: {'PASS' if passed else 'FAIL'}", flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
