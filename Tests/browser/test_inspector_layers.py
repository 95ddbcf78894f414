"""The layer inspector in a real browser: on a kept frame, a click on the screen (with "pick on
the screen") picks the topmost layer under it without sending a pointer; the numbers shown are
that frame's layer; picking in the list and stepping a frame follow the frame shown."""
from selenium.webdriver.common.keys import Keys

from test_inspector_timeline import key, scrub
from test_page import line

SCREEN = (390, 844)


def corners(layer):
    """The layer's corners in container points: `transform` about its centre (docs/PROTOCOL.md, "Layers")."""
    a, b, c, d, tx, ty = layer["transform"]
    w, h = layer["bounds"]
    cx, cy = layer["center"]
    return [(cx + a * x + c * y + tx, cy + b * x + d * y + ty)
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def inside(quad, point):
    signs = set()
    for (x0, y0), (x1, y1) in zip(quad, quad[1:] + quad[:1]):
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        if cross:
            signs.add(cross > 0)
    return len(signs) <= 1


def visible_point(layer):
    """A point of the screen inside the layer: the middle of its box, cut to the screen."""
    quad = corners(layer)
    x0, x1 = max(min(p[0] for p in quad), 0), min(max(p[0] for p in quad), SCREEN[0])
    y0, y1 = max(min(p[1] for p in quad), 0), min(max(p[1] for p in quad), SCREEN[1])
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def topmost(frame, point):
    """The drawn layer on top at `point`: highest z, ties by the frame's order (renderer.js)."""
    drawn = [(layer["z"], i, layer) for i, layer in enumerate(frame["layers"])
             if layer["content"] != "mask" and layer["opacity"] > 0 and inside(corners(layer), point)]
    return max(drawn, key=lambda entry: entry[:2])[2]


def numbers(text):
    return [float(part) for part in text.replace("×", ",").replace("°", "").split(",")]


def assert_fields_are(page, layer):
    fields = page.get("inspector")["fields"]
    assert fields["id"] == layer["id"] and fields["role"] == layer["content"] and fields["shape"] == layer["shape"]
    checks = {"center": layer["center"], "bounds": layer["bounds"], "translation": layer["transform"][4:],
              "opacity": [layer["opacity"]], "corner radius": [layer["cornerRadius"]], "z": [layer["z"]]}
    for name, expected in checks.items():
        shown = numbers(fields[name])
        assert all(abs(s - e) <= 0.005 for s, e in zip(shown, expected, strict=True)), (name, shown, expected)
    assert fields["mask"] == layer.get("mask", "—")


def held_push_frame(page):
    """A push held at about 0.3 and released (it cancels); the timeline holds a tracking frame
    with both screens on it. Returns the gesture, the index held and its frame."""
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    page.drag(line(60, 130, steps=10) + [("pause", 200)])
    assert page.wait_rest() == "cancelled"
    gesture = page.get("history")[-1]
    frames = gesture["frames"]
    index = max(i for i, each in enumerate(frames)
                if each["frame"]["phase"] == "tracking" and len(each["frame"]["layers"]) >= 2)
    scrub(page, gesture["id"], 0, index)
    page.wait(f"window.sandbox.timeline.n === {frames[index]['n']}")
    page.js("window.scrollTo(0, 0)")
    page.paint()
    return gesture, index, frames[index]["frame"]


def test_a_click_on_the_screen_picks_the_layer_drawn_there_and_shows_its_numbers(page):
    gesture, index, frame = held_push_frame(page)
    assert {f"layer:{layer['id']}" for layer in frame["layers"]} <= set(page.get("inspector")["layers"])
    page.driver.find_element("id", "inspector-pick").click()
    page.js("window.scrollTo(0, 0)")
    seq = page.get("seq")
    for layer in frame["layers"]:
        if layer["content"] == "mask" or layer["opacity"] <= 0:
            continue
        point = visible_point(layer)
        expected = topmost(frame, point)
        page.drag([point])  # a click: with picking on, it picks and reaches no server
        page.wait(f"window.sandbox.inspector.picked === 'layer:{expected['id']}'")
        assert_fields_are(page, expected)
    assert page.get("seq") == seq
    # The outline is drawn on the overlay, not on the screen's own canvas.
    outlined = page.js("""
        const overlay = document.querySelector('.inspector-overlay');
        const data = overlay.getContext('2d').getImageData(0, 0, overlay.width, overlay.height).data;
        let count = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count += 1;
        return count;
    """)
    assert outlined > 100, outlined


def test_the_list_picks_a_layer_and_the_numbers_follow_the_frame_shown(page):
    gesture, index, frame = held_push_frame(page)
    page.js("document.querySelector(\"#inspector-layers button[data-key='layer:from']\").click()")
    page.wait("window.sandbox.inspector.picked === 'layer:from'")
    from_layer = next(layer for layer in frame["layers"] if layer["id"] == "from")
    assert_fields_are(page, from_layer)
    page.js("document.getElementById('timeline').scrollIntoView()")
    key(page, Keys.ARROW_LEFT)
    previous = gesture["frames"][index - 1]
    page.wait(f"window.sandbox.timeline.n === {previous['n']}")
    page.paint()
    before = next(layer for layer in previous["frame"]["layers"] if layer["id"] == "from")
    assert_fields_are(page, before)
    assert before["center"] != from_layer["center"]  # the numbers moved with the frame


def test_a_flipped_layer_shows_its_projected_corners_and_is_picked_inside_them(page):
    page.configure("transition", "flip-horizontal", "window.sandbox.config.transition === 'flip-horizontal'")
    page.drag(line(60, 110, steps=8) + [("pause", 200)])  # 50 / 200 = 0.25: cancels
    assert page.wait_rest() == "cancelled"
    gesture = page.get("history")[-1]
    frames = gesture["frames"]
    index = max(i for i, each in enumerate(frames)
                if each["frame"]["phase"] == "tracking" and any("transform3d" in l for l in each["frame"]["layers"]))
    scrub(page, gesture["id"], 0, index)
    page.wait(f"window.sandbox.timeline.n === {frames[index]['n']}")
    page.js("window.scrollTo(0, 0)")
    frame = frames[index]["frame"]
    flipped = next(layer for layer in frame["layers"] if "transform3d" in layer and layer["opacity"] > 0)
    page.driver.find_element("id", "inspector-pick").click()
    page.js("window.scrollTo(0, 0)")
    # The middle of its projected corners: inside the drawn quad, off the 2-D stand-in's centre line.
    xs, ys = zip(*flipped["corners"])
    page.drag([(sum(xs) / 4, sum(ys) / 4)])
    page.wait(f"window.sandbox.inspector.picked === 'layer:{flipped['id']}'")
    shown = page.get("inspector")["fields"]["corners (3-D)"]
    corners = [numbers(each) for each in shown.split(" · ")]
    assert all(abs(s - e) <= 0.005 for got, want in zip(corners, flipped["corners"], strict=True)
               for s, e in zip(got, want, strict=True)), (shown, flipped["corners"])
