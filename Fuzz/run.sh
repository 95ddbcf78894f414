#!/bin/sh
# Builds and runs the session fuzz target for a bounded time: `make fuzz`, FUZZ_SECONDS=… (default
# 60). Extra arguments go to libFuzzer (e.g. -runs=10000000 -max_total_time=0). New corpus
# entries go to .build-fuzz/corpus (Fuzz/corpus holds the seeds), crashes to .build-fuzz/artifacts/,
# the log to .build-fuzz/fuzz.log. See docs/SECURITY.md, "Fuzzing".
set -eu
cd "$(dirname "$0")/.."
Fuzz/build.sh
SANITIZE=${FUZZ_SANITIZE:-fuzzer}
ROOT=${FUZZ_BUILD:-.build-fuzz}
BIN=$ROOT/$(echo "$SANITIZE" | tr , -)/fuzz-session
mkdir -p "$ROOT/corpus" "$ROOT/artifacts"
set -- -max_total_time="${FUZZ_SECONDS:-60}" -max_len=4096 -timeout=10 -dict=Fuzz/session.dict \
    -print_final_stats=1 -artifact_prefix="$ROOT/artifacts/" "$@" "$ROOT/corpus" Fuzz/corpus
echo "$BIN $*"
status=0
"$BIN" "$@" >"$ROOT/fuzz.log" 2>&1 || status=$?
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE|pulse)|^Done |^stat::|invariant|ERROR|SUMMARY|Test unit written' "$ROOT/fuzz.log" | tail -n 25
echo "fuzz: $(grep -h '^stat::number_of_executed_units' "$ROOT/fuzz.log" | awk '{print $2}') executions," \
    "$(grep -h '^stat::average_exec_per_sec' "$ROOT/fuzz.log" | awk '{print $2}') exec/s," \
    "corpus $(ls "$ROOT/corpus" | wc -l) + $(ls Fuzz/corpus | wc -l) seeds, exit $status (log: $ROOT/fuzz.log)"
exit $status
