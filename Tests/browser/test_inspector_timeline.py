"""The timeline of the last gestures in a real browser: the page keeps each drag whole (samples,
frames, events, the decision)."""

from test_page import drag_x


def test_a_drag_is_kept_whole_with_its_samples_frames_events_and_decision(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    drag_x(page, 60, 230)  # 170 / 200 = 0.85: finishes by the threshold
    assert page.wait_rest() == "finished"
    gestures = page.get("history")
    gesture = gestures[-1]
    assert gesture["kind"] == "gesture"
    assert gesture["settings"]["transition"] == "fade"
    assert gesture["decision"]["outcome"] == "finished" and gesture["decision"]["reason"] == "threshold"
    assert gesture["samples"][0]["up"] is False and gesture["samples"][-1]["up"] is True
    assert [each["message"]["event"] for each in gesture["events"]][0] == "began"
    assert gesture["events"][-1]["message"]["event"] == "finished"
    numbers = [each["n"] for each in gesture["frames"]]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert gesture["frames"][-1]["frame"]["phase"] == "finished"
    assert all(each["frame"]["n"] == each["n"] for each in gesture["frames"])
