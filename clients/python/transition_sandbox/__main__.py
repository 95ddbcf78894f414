"""`python -m transition_sandbox pan SCRIPT… --url URL`: replays pan scripts over a socket as
`sandbox pan --url` does (docs/SCRIPTS.md) and prints one line per script, then
`N passed, N failed`. Exit status 0 when every expectation holds, 1 when one does not, 64 for a
script that cannot be read (every bad file is named before anything runs) or options that cannot
work together (a URL that is not ws:// or wss://, --ca or --insecure without wss://, both)."""
import argparse
import asyncio
import json
import math
import re
import sys
from urllib.parse import urlsplit

from .errors import ScriptError
from .runner import run_script
from .script import load_script

USAGE = 64  # EX_USAGE, as `sandbox pan`

NETWORK = re.compile(r"^(\d+(?:\.\d+)?)(?:(?:±|\+-)(\d+(?:\.\d+)?))?(?:@(\d+))?$")


def network(text):
    """`150±60@7`, `150+-60`, `150` → the `configure` `network` fields."""
    match = NETWORK.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"must look like 150±60@7, 150+-60 or 150; got {text!r}")
    delay, jitter, seed = match.groups()
    if not all(math.isfinite(float(v)) for v in (delay, jitter or 0)) or int(seed or 1) >= 1 << 53:
        raise argparse.ArgumentTypeError(f"the delay, jitter and seed must be numbers a double holds; "
                                         f"got {text[:40]!r}")
    return {"delayMs": float(delay), "jitterMs": float(jitter or 0), "seed": int(seed or 1)}


def url_problem(args):
    """Why --url, --ca and --insecure cannot work together, or None."""
    try:
        parts = urlsplit(args.url)
        parts.port  # noqa: B018 — a port that is not a number raises here
    except ValueError as error:
        return f"--url {args.url!r} is not a URL: {error}"
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        return f"--url must look like ws://HOST:PORT/ or wss://HOST:PORT/; got {args.url!r}"
    if (args.ca or args.insecure) and parts.scheme != "wss":
        return "--ca and --insecure are for wss:// URLs"
    if args.ca and args.insecure:
        return "--ca and --insecure contradict each other: give one"
    return None


class _Parser(argparse.ArgumentParser):
    """argparse exiting with 64 (EX_USAGE, as `sandbox pan`) for a usage error, not 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {message}\n")


def main(argv=None):
    parser = _Parser(prog="transition-sandbox")
    commands = parser.add_subparsers(dest="command", required=True)
    pan = commands.add_parser("pan", help="replay pan scripts against a server")
    pan.add_argument("scripts", nargs="+", metavar="SCRIPT")
    pan.add_argument("--url", required=True, help="ws://HOST:PORT/ or wss://HOST:PORT/")
    pan.add_argument("--ca", help="a PEM file: the only CA trusted for wss://")
    pan.add_argument("--insecure", action="store_true", help="check no certificate (a lab's self-signed one)")
    pan.add_argument("--network", type=network, help="a simulated network asked of the server, e.g. 150±60@7")
    pan.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args(argv)
    # A report may carry what a server sent (a lone surrogate in an error code): never a crash.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    problem = url_problem(args)
    if problem:
        print(f"{parser.prog} pan: {problem}", file=sys.stderr)
        return USAGE
    scripts, bad = [], []
    for path in args.scripts:
        try:
            scripts.append(load_script(path))
        except ScriptError as error:
            bad.append(str(error))
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return USAGE

    async def run_all():
        return [await run_script(s, args.url, ca=args.ca, insecure=args.insecure, network=args.network)
                for s in scripts]

    reports = asyncio.run(run_all())
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=1, allow_nan=False))
    else:
        for report in reports:
            print(report.line())
        passed = sum(r.passed for r in reports)
        print(f"{passed} passed, {len(reports) - passed} failed")
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
