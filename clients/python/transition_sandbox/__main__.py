"""`python -m transition_sandbox pan SCRIPT… --url URL`: replays pan scripts over a socket as
`sandbox pan --url` does (docs/SCRIPTS.md) and prints one line per script, then
`N passed, N failed`. Exit status 0 when every expectation holds, 1 when one does not, 64 for a
script that cannot be read (every bad file is named before anything runs)."""
import argparse
import asyncio
import json
import re
import sys

from .errors import ScriptError
from .runner import run_script
from .script import load_script

NETWORK = re.compile(r"^(\d+(?:\.\d+)?)(?:(?:±|\+-)(\d+(?:\.\d+)?))?(?:@(\d+))?$")


def network(text):
    """`150±60@7`, `150+-60`, `150` → the `configure` `network` fields."""
    match = NETWORK.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"must look like 150±60@7, 150+-60 or 150; got {text!r}")
    delay, jitter, seed = match.groups()
    return {"delayMs": float(delay), "jitterMs": float(jitter or 0), "seed": int(seed or 1)}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="transition-sandbox")
    commands = parser.add_subparsers(dest="command", required=True)
    pan = commands.add_parser("pan", help="replay pan scripts against a server")
    pan.add_argument("scripts", nargs="+", metavar="SCRIPT")
    pan.add_argument("--url", required=True, help="ws://HOST:PORT/ or wss://HOST:PORT/")
    pan.add_argument("--ca", help="a PEM file: the only CA trusted for wss://")
    pan.add_argument("--insecure", action="store_true", help="check no certificate (a lab's self-signed one)")
    pan.add_argument("--network", type=network, help="a simulated network asked of the server, e.g. 150±60@7")
    pan.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args(argv)
    scripts, bad = [], []
    for path in args.scripts:
        try:
            scripts.append(load_script(path))
        except ScriptError as error:
            bad.append(str(error))
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 64

    async def run_all():
        return [await run_script(s, args.url, ca=args.ca, insecure=args.insecure, network=args.network)
                for s in scripts]

    reports = asyncio.run(run_all())
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=1))
    else:
        for report in reports:
            print(report.line())
        passed = sum(r.passed for r in reports)
        print(f"{passed} passed, {len(reports) - passed} failed")
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
