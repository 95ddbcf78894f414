#!/usr/bin/env bash
# Proves a change left the sessions' output byte-identical: replays every example pan script
# in-process (`sandbox pan --local --trace`), plain and through a seeded simulated network,
# with the sandbox built from BASE (a commit, default HEAD~1) and from the working tree, and
# diffs the traces. Exit 0: identical; 1: a trace differs (the diff is printed).
#   scripts/compare-traces.sh [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/src" "$base"
(cd "$work/src" && swift build -q --product sandbox --scratch-path "$work/base-build")
swift build -q --product sandbox
network='150±60@7'
for side in base head; do
    if [ $side = base ]; then bin=$work/base-build/debug/sandbox; else bin=.build/debug/sandbox; fi
    mkdir -p "$work/$side/local" "$work/$side/net"
    # The traces and the exit statuses are compared; the printed reports are not (they carry the
    # replay's own wall-clock timings).
    status=0; "$bin" pan examples/scripts/*.json --trace "$work/$side/local" >/dev/null 2>&1 || status=$?
    echo "$status" >"$work/$side/local.status"
    status=0; "$bin" pan examples/scripts/*.json --network "$network" --trace "$work/$side/net" >/dev/null 2>&1 || status=$?
    echo "$status" >"$work/$side/net.status"
done
if diff -r "$work/base" "$work/head"; then
    echo "traces identical: $(ls "$work/head/local" | wc -l) scripts, plain and --network $network, $base vs working tree"
else
    echo "traces differ between $base and the working tree" >&2
    exit 1
fi
