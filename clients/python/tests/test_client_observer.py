"""The replay's observer against values a hostile server could send: of the wrong type or whose
difference is not finite, they are ignored (or named in `errors`), never raised, and nothing
non-finite reaches the report."""
import json

from transition_sandbox.observer import Observer


def test_a_transition_whose_event_is_not_a_string_is_named_not_raised():
    observer = Observer()
    observer.received({"type": "transition", "event": ["finished"]}, 0.0)
    observer.received({"type": "transition", "event": {"a": 1}}, 0.0)
    assert observer.events == set() and observer.outcome == "none"
    assert len(observer.errors) == 2 and "not a string" in observer.errors[0]


def test_timings_whose_difference_is_beyond_a_double_are_not_kept():
    observer = Observer()
    observer.sent_pointer(1, 0.0)
    observer.received({"type": "frame", "n": 2, "ack": 1, "sent": 1e308, "received": -1e308}, 0.001)
    assert observer.server_time == [] and len(observer.latency) == 1
    json.dumps(observer.latency, allow_nan=False)


def test_a_release_of_the_wrong_types_keeps_the_reports_types():
    observer = Observer()
    observer.received({"type": "transition", "event": "released", "decision": ["finish"], "reason": 1,
                       "progress": "1", "projected": True}, 0.0)
    assert observer.release == {"decision": "?", "reason": "?", "progress": None}
    observer.received({"type": "frame", "n": 1, "phase": ["x"], "progress": True}, 0.0)
    assert (observer.phase, observer.progress) == ("idle", 0.0)
