"""Issue 14 over a real WebSocket: the new configure fields, the released event's projection,
the pitfalls' and the property animator's signs on the wire, and hostile values refused."""
import asyncio
import json

import pytest

from client import Client


def run(coro):
    return asyncio.run(coro)


async def quick_short_pan(c):
    """60 pt in 150 ms (9 moves), released moving: progress 0.3 at 2 progress/s."""
    await c.pointer("down", 100, dt=0)
    for i in range(1, 10):
        await c.pointer("move", 100 + 60 * i / 9, dt=150 / 9)
    last = await c.pointer("up", 160, dt=0)
    await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)


def test_projection_decides_and_reports_the_projected_point(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "push", "releaseRule": "projection"})
        config = (await c.expect("configured"))["config"]
        assert config["releaseRule"] == "projection" and config["decelerationRate"] == 0.998
        await quick_short_pan(c)
        released = next(e for e in c.events if e["event"] == "released")
        assert released["reason"] == "projection" and released["decision"] == "finish"
        assert abs(released["projected"] - 1.298) < 1e-6  # 0.3 + (2/1000)·0.998/0.002
        event, _ = await c.rest()
        assert event["event"] == "finished"
        await c.close()
    run(go())


def test_complete_on_cancel_finishes_stuck_half_way(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "push", "pitfalls": ["complete-on-cancel"]})
        await c.expect("configured")
        await c.pan(60)  # 0.3, still: the up's own frame says it all (no completion runs)
        assert [e["event"] for e in c.events] == ["began", "released", "finished"]
        assert c.events[1]["decision"] == "cancel"
        assert c.frames[-1]["phase"] == "finished" and c.frames[-1]["progress"] == 0.3
        ids = [layer["id"] for layer in c.frames[-1]["layers"]]
        assert "to" in ids and "from" not in ids  # completeTransition(true) removed the source view
        await c.close()
    run(go())


def test_the_property_animator_pauses_on_completion(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "push", "driver": "property-animator",
                      "propertyAnimator": {"pausesOnCompletion": True}})
        await c.expect("configured")
        await c.pan(140)  # 0.7, still: finishes, then pauses at the end
        paused = await c.until(lambda m: m["type"] == "transition" and m["event"] == "paused")
        assert paused["progress"] == 1
        frame = await c.until(lambda m: m["type"] == "frame" and m["phase"] == "paused")
        assert frame["animator"] == {"state": "active", "running": False, "reversed": False, "fractionComplete": 1}
        assert not any(e["event"] == "finished" for e in c.events)
        await c.send({"type": "configure", "propertyAnimator": {"pausesOnCompletion": False}})  # a rest: allowed
        assert (await c.expect("configured"))["config"]["propertyAnimator"]["pausesOnCompletion"] is False
        await c.close()
    run(go())


HOSTILE = [
    ({"releaseRule": "magic"}, "invalid-field", "releaseRule"),
    ({"decelerationRate": 1e308}, "invalid-config", "decelerationRate"),
    ({"decelerationRate": 1}, "invalid-config", "decelerationRate"),
    ({"rubberBand": -0.55}, "invalid-config", "rubberBand"),
    ({"rubberBand": 2}, "invalid-config", "rubberBand"),
    ({"rubberBand": "0.55"}, "invalid-field", "rubberBand"),
    ({"completionDamping": 0}, "invalid-config", "completionDamping"),
    ({"pitfalls": ["no-abs", "no-abs"]}, "invalid-field", "pitfalls"),
    ({"pitfalls": ["x"] * 1000}, "invalid-field", "pitfalls"),
    ({"pitfalls": {"no-abs": True}}, "invalid-field", "pitfalls"),
    ({"driver": "core-animation"}, "invalid-field", "driver"),
    ({"propertyAnimator": {"durationFactor": 1e308}}, "invalid-config", "propertyAnimator.durationFactor"),
    ({"propertyAnimator": {"curve": "spring"}}, "invalid-field", "propertyAnimator.curve"),
    ({"propertyAnimator": {"stopAnimation": True}}, "unknown-field", "propertyAnimator.stopAnimation"),
]


@pytest.mark.parametrize("fields,code,field", HOSTILE)
def test_hostile_values_are_refused_naming_the_field(server, fields, code, field):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "releaseRule": "projection", **fields}, check=False)
        error = await c.expect("error")
        assert error["code"] == code and error["field"] == field, error
        assert len(json.dumps(error)) < 600
        await c.send({"type": "configure"})
        assert (await c.expect("configured"))["config"] == c.welcome["config"]  # nothing changed
        await c.close()
    run(go())
