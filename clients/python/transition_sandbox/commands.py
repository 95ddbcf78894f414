"""The client messages (docs/PROTOCOL.md "Client → server") as calls of `Client`: settings,
pointers with their `seq` and `t`, a drag, the scene; each waits for the reply it causes (through
`Client.request` and its request id) or, for pointers, returns the seq to wait on (`acked`)."""
import math
import time


class Commands:
    async def configure(self, settings=None, /, **fields):
        """Changes the session's settings (docs/PROTOCOL.md "configure"): a dict, keywords, or
        both. Returns `configured` (`link` when only `network` is given)."""
        fields = {**(settings or {}), **fields}
        reply = "link" if set(fields) == {"network"} else "configured"
        return await self.request({"type": "configure", **fields}, reply)

    async def play(self):
        await self.send({"type": "play"})

    async def ping(self):
        """A round trip: the `pong` (its `serverTime` is the server's clock)."""
        return await self.request({"type": "ping", "seq": next(self._pings), "t": self.now_ms()}, "pong")

    async def join(self, session):
        """Watch another session; returns `joined`."""
        return await self.request({"type": "join", "session": session}, "joined")

    # Pointers: `t` is this client's clock in ms unless given; `seq` counts from 1.

    @staticmethod
    def now_ms():
        return time.monotonic() * 1000

    async def pointer(self, phase, x, y, *, t=None, pointer=0):
        """Sends one pointer message; returns its seq (wait for its frame with `acked`)."""
        seq = self.seq + 1
        message = {"type": "pointer", "phase": phase, "x": x, "y": y, "t": self.now_ms() if t is None else t,
                   "seq": seq, "pointerId": pointer}
        await self.send(message)
        self.seq = seq
        return seq

    async def down(self, x, y, **options):
        return await self.pointer("down", x, y, **options)

    async def move(self, x, y, **options):
        return await self.pointer("move", x, y, **options)

    async def up(self, x, y, **options):
        return await self.pointer("up", x, y, **options)

    async def cancel(self, x, y, **options):
        return await self.pointer("cancel", x, y, **options)

    async def drag(self, start, end, *, ms=100, hz=60, pointer=0):
        """Down at `start`, a straight line to `end` over `ms` at `hz` (as a script's `move`),
        up there; the moves carry their times and leave at once (the server keeps the client's
        timing). Returns the up's seq: its `released` event comes before the frame that
        acknowledges it (`next_event("released")`, or `acked(seq)`, reads past the other)."""
        t0 = self.now_ms()
        await self.down(*start, t=t0, pointer=pointer)
        count = max(int(math.floor(ms * hz / 1000 + 0.5)), 1)
        for i in range(1, count + 1):
            f = i / count
            await self.move(start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f,
                            t=t0 + ms * f, pointer=pointer)
        return await self.up(*end, t=t0 + ms, pointer=pointer)

    # The scene (docs/PROTOCOL.md "The scene"): each returns the `scene-state` it caused.

    async def _scene_message(self, message):
        return await self.request(message, "scene-state")

    async def scene(self, root, **fields):
        return await self._scene_message({"type": "scene", "root": root, **fields})

    async def present(self, controller, **fields):
        return await self._scene_message({"type": "present", "controller": controller, **fields})

    async def dismiss(self, **fields):
        return await self._scene_message({"type": "dismiss", **fields})

    async def push(self, controller, **fields):
        return await self._scene_message({"type": "push", "controller": controller, **fields})

    async def pop(self, **fields):
        return await self._scene_message({"type": "pop", **fields})

    async def device(self, orientation):
        return await self._scene_message({"type": "device", "orientation": orientation})

    async def update(self, controller, **fields):
        return await self._scene_message({"type": "update", "controller": controller, **fields})

    async def attempt_rotation(self):
        return await self._scene_message({"type": "attempt-rotation"})

    async def update_supported_orientations(self):
        """iOS 16's `setNeedsUpdateOfSupportedInterfaceOrientations` (a scene with `ios` ≥ 16)."""
        return await self._scene_message({"type": "update-supported-orientations"})

    async def request_geometry_update(self, orientations):
        """iOS 16's `requestGeometryUpdate`: `orientations` is a list of names or a mask."""
        return await self._scene_message({"type": "request-geometry-update", "interfaceOrientations": orientations})
