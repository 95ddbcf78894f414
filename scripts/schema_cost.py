"""A pytest plugin that measures what the schema checks cost (schema/README.md has the figures):
prints the pytest process's own CPU time (the servers it starts are not counted) and its wall
time; with SCHEMA_OFF=1 the checks of Tests/integration/client.py and rawws.py are turned off.

    SCHEMA_OFF=1 PYTHONPATH=scripts .venv/bin/python -m pytest -q -p schema_cost FILES…
    SCHEMA_OFF=0 PYTHONPATH=scripts .venv/bin/python -m pytest -q -p schema_cost FILES…"""
import os
import resource
import sys
import time

START = time.monotonic()


def pytest_collection_finish(session):
    if os.environ.get("SCHEMA_OFF") == "1":
        for name in ("client", "rawws"):
            module = sys.modules.get(name)
            if module:
                module.check_sent = lambda *args, **kwargs: None
                module.check_received = lambda *args, **kwargs: None


def pytest_unconfigure(config):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"\nSCHEMA_OFF={os.environ.get('SCHEMA_OFF', '0')} pytest-cpu={usage.ru_utime + usage.ru_stime:.2f}s "
          f"wall={time.monotonic() - START:.1f}s", file=sys.stderr)
