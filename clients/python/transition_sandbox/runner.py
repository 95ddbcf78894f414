"""Replays a pan script against a server in real time, as `sandbox pan --url` does
(Sources/SandboxTools/Scripts/ScriptPlayer.swift and RemoteTransport.swift): each message leaves
at its script time after the configuration is applied; pointer `t` = 1000 + script time, `seq`
from 1; a `wait` waits until its event happened since the last wait and every input was
answered; every script ends with a wait for rest. Tests/integration/test_python_client.py checks
that this replay and `sandbox pan --url` agree on every example script."""
import asyncio
import math
import time

from .client import connect
from .errors import ConnectionClosed, SandboxError, ScriptError, Timeout
from .expectations import check
from .observer import Observer
from .report import Report, summary

CLIENT_EPOCH = 1000.0  # the client clock (ms) at script time 0: any value works, the server anchors it
SETUP_TIMEOUT = 10.0


async def run_script(script, url, *, ca=None, insecure=False, network=None):
    """Plays `script` (a PanScript) on a new connection to `url` and checks its expectations;
    `network`: {"delayMs", "jitterMs", "seed"} asked of the server first. Never raises for what
    the server does: a failed run is a report whose `failures` say why."""
    player = _Player(url, network)
    failures = []
    try:
        async with connect(url, ca=ca, insecure=insecure, timeout=SETUP_TIMEOUT) as client:
            player.client = client
            await player.play(script)
    except SandboxError as error:  # ScriptError included
        failures.append(f"run: {error}")
    except (OSError, ValueError) as error:  # the CA file, the URL
        failures.append(f"run: {error}")
    except Exception as error:  # a fault of this client's: still a failed run, named, not a crash
        failures.append(f"run: {type(error).__name__}: {str(error)[:200]}")
    observer = player.observer
    if player.client is not None and player.client.assembler.dropped:
        observer.errors.append(f"{player.client.assembler.dropped} delta frames whose base was not the frame before")
    report = Report(name=script.name, mode=url, outcome=observer.outcome, progress=observer.progress,
                    frames=observer.frames, duration_ms=player.now, latency=summary(observer.latency),
                    server_ms=summary(observer.server_time), samples=observer.samples,
                    first_grab_seq=observer.first_grab_seq, errors=observer.errors,
                    error_codes=observer.error_codes, lifecycle=observer.lifecycle,
                    scene=observer.scene_summary(), release=observer.release, failures=failures)
    report.failures += check(script.expect, report)
    return report


class _Player:
    def __init__(self, url, network):
        self.url = url
        self.network = network
        self.client = None
        self.observer = Observer()
        self.now = 0.0  # script time, ms
        self.origin = 0.0  # the monotonic clock (s) at script time 0
        self.seq = 0
        self.positions = {}
        self.closed = None  # why the server closed the connection

    async def play(self, script):
        await self._start(script.config)
        self.observer.start_counting()
        for index, step in enumerate(script.steps):
            try:
                await self._perform(step)
            except ScriptError as error:
                raise ScriptError(f"steps[{index}]: {error}") from None
        self.now = await self._wait("rest", self.now, 10_000.0)
        await self._stop()

    async def _stop(self):
        """Closes the connection, still observing what arrives before the server's close (as
        `sandbox pan` does: a frame sent after the rest still counts), for at most 2 s."""
        closing = asyncio.ensure_future(self.client.close(timeout=2))
        await self._pump(time.monotonic() + 2)
        await closing

    async def _pump(self, deadline, done=lambda: False):
        """Hands what arrives to the observer until `done()` or the deadline (monotonic s)."""
        while not done() and self.closed is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            try:
                message = await self.client.recv(timeout=remaining)
            except Timeout:
                return
            except ConnectionClosed as error:
                self.closed = str(error)
                return
            self.observer.received(message, time.monotonic())

    async def _start(self, config):
        observer = self.observer
        if self.network is not None:
            await self.client.send({"type": "configure", "network": self.network})
            await self._pump(time.monotonic() + SETUP_TIMEOUT, lambda: observer.linked or observer.errors)
            if not observer.linked:
                raise ScriptError(f"the network {self.network} was refused: "
                                  f"{(observer.errors or [self.closed or 'no answer'])[-1]}")
        if config is not None:
            await self.client.send(config)
            await self._pump(time.monotonic() + SETUP_TIMEOUT,
                             lambda: (observer.configured and observer.frames_since_configured > 0) or observer.errors)
            if not observer.configured:
                raise ScriptError("the configuration was refused: "
                                  f"{(observer.errors or [self.closed or 'no answer'])[-1]}")
        self.origin = time.monotonic()

    async def _send(self, message, at_ms, seq=None):
        await self._pump(self.origin + at_ms / 1000)
        if self.closed is not None:
            raise ScriptError(f"the server closed the connection: {self.closed}")
        if seq is not None:
            self.observer.sent_pointer(seq, time.monotonic())
        await self.client.send(message)

    async def _wait(self, condition, from_ms, timeout_ms):
        slack = 2 * (self.network.get("delayMs", 0) + self.network.get("jitterMs", 0)) / 1000 if self.network else 0
        deadline = max(time.monotonic(), self.origin + from_ms / 1000) + timeout_ms / 1000 + slack
        await self._pump(deadline, lambda: self.observer.satisfies(condition))
        if not self.observer.satisfies(condition):
            if self.closed is not None:
                raise ScriptError(f"the server closed the connection: {self.closed}")
            raise ScriptError(f"'{condition}' did not happen within {timeout_ms} ms (phase {self.observer.phase})")
        return max(from_ms, (time.monotonic() - self.origin) * 1000)

    async def _pointer(self, phase, x, y, pointer, at_ms):
        self.seq += 1
        message = {"type": "pointer", "phase": phase, "x": x, "y": y, "t": CLIENT_EPOCH + at_ms, "seq": self.seq,
                   "pointerId": pointer}
        await self._send(message, at_ms, self.seq)

    async def _perform(self, step):
        kind, pointer = step.kind, step.pointer
        if kind == "down":
            self.positions[pointer] = (step.x, step.y)
            await self._pointer("down", step.x, step.y, pointer, self.now)
        elif kind == "move":
            if pointer not in self.positions:
                raise ScriptError(f"pointer {pointer} moves before it is down")
            x0, y0 = self.positions[pointer]
            x1, y1 = (x0 + step.x, y0 + step.y) if step.relative else (step.x, step.y)
            count = max(int(math.floor(step.ms * step.hz / 1000 + 0.5)), 1)  # rounded half away from zero
            start = self.now
            for i in range(1, count + 1):
                f = i / count
                await self._pointer("move", x0 + (x1 - x0) * f, y0 + (y1 - y0) * f, pointer, start + step.ms * f)
            self.positions[pointer] = (x1, y1)
            self.now = start + step.ms
        elif kind == "samples":
            if pointer not in self.positions:
                raise ScriptError(f"pointer {pointer} moves before it is down")
            start = self.now
            for ms, x, y in step.samples:
                await self._pointer("move", x, y, pointer, start + ms)
                self.positions[pointer] = (x, y)
            self.now = start + step.samples[-1][0]
        elif kind == "hold":
            self.now += step.ms
        elif kind in ("up", "cancel"):
            if pointer not in self.positions:
                raise ScriptError(f"pointer {pointer} is not down")
            x, y = self.positions.pop(pointer)
            await self._pointer(kind, x, y, pointer, self.now)
        elif kind == "play":
            self.observer.sent_play()
            await self._send({"type": "play"}, self.now)
        elif kind == "message":
            self.observer.sent_scene_message()
            await self._send(step.message, self.now)
        else:  # wait
            self.now = await self._wait(step.condition, self.now, step.ms)
            self.observer.wait_met()
