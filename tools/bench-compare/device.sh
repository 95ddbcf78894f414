#!/usr/bin/env bash
# The frame-cost comparison (`make bench-compare`) on a quiet machine that has neither Swift,
# libwebsockets nor Python: the release binaries come packed with their libraries
# (../shared/tools/device-bundle.sh unpacks them to /tmp/devbench/bin). Writes each command's
# JSON under OUT with the names `bench_compare.py --from OUT` reads, so the table is printed
# back on the development machine; and, for each BASELINE binary in the bundle, the CPU per frame
# of that build in the same sitting; and the server's profile at 1,000 sessions when `perf` is
# in the bundle.
#
#   bash .build/device/run && bash tools/bench-compare/device.sh /tmp/q [BASELINE…]; tar -C /tmp -czf $OUT/q.tgz q
#   tar -xzf q.tgz && python3 tools/bench-compare/bench_compare.py --from q      # on the development machine
#   python3 tools/bench-compare/bench_compare.py --from q/phases-1     # (and q/BASELINE): their CPU row
# (One archive: the device tool brings back only a few files of a run.)
#
# Settings (environment): REPEAT (5), SESSIONS (1000), SECONDS_EACH (4), CLIENT_THREADS (4),
# RAMP_START (500), RAMP_LIMIT (4000), SAMPLES_1 (2000), SAMPLES_10 (3000), LATENCY_REPEAT (3), PERF_SECONDS (6),
# PREBUILT_BYTES (the bench step's mean frame size, else 265), STEPS (which to run: "bench ramp latency phases baselines perf", and
# "prebuilt prebuilt-ramp prebuilt-perf": the server core's floor, every frame `serve --prebuilt-frames`'
# message of PREBUILT_BYTES while sessions tick: OUT/prebuilt.json (the table's floor row),
# OUT/prebuilt-1 (one tick phase), OUT/prebuilt-ramp (its ramp: `--from` that folder), and its profile
# in OUT/prebuilt). Archive OUT after each step when ARCHIVE names a file:
# a run cut off by its time limit still brings back what it measured.
set -u
out=${1:?usage: device.sh OUT [BASELINE...]}
shift
bin=/tmp/devbench/bin
sandbox=$bin/sandbox floor=$bin/ws-floor
repeat=${REPEAT:-5} sessions=${SESSIONS:-1000} seconds=${SECONDS_EACH:-4} threads=${CLIENT_THREADS:-4}
mkdir -p "$out"
log() { echo "$(date +%T) $*" | tee -a "$out/log.txt" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }
common=(--client-threads "$threads" --floor "$floor" --json --no-progress)
before=$(load)
steps=" ${STEPS:-bench ramp latency phases baselines perf} "
# The prebuilt message's size: PREBUILT_BYTES, else the sandbox's mean frame size in this sitting's
# bench (what --floor streams), else 265. Read when a prebuilt step starts. The mean is held to
# the sizes serve takes (25…65536), and a bench that saw no frames (0) counts as none
# (test_device_script_prebuilt_size_is_one_serve_takes).
prebuilt_bytes() {
    local mean bytes
    mean=$(grep -o '"meanFrameBytes":[0-9.]*' "$out/bench.json" 2>/dev/null | head -1 | cut -d: -f2)
    bytes=$(printf '%.0f' "${mean:-0}" 2>/dev/null) || bytes=0
    if [ "$bytes" -le 0 ]; then bytes=265; elif [ "$bytes" -lt 25 ]; then bytes=25; elif [ "$bytes" -gt 65536 ]; then bytes=65536; fi
    echo "${PREBUILT_BYTES:-$bytes}"
}
archive() { [ -z "${ARCHIVE:-}" ] || tar -C "$(dirname "$out")" -czf "$ARCHIVE" "$(basename "$out")"; }
wants() { [[ $steps == *" $1 "* ]]; }
step() { archive; wants "$1"; }  # a step starts: what the steps before it left is archived

# A server and an echo floor for `latency`, until `stop_servers`.
start() {  # NAME PORT COMMAND…
    local name=$1 port=$2
    shift 2
    "$@" > "$out/$name.log" 2>&1 &
    echo $! > "$out/$name.pid"
    for _ in $(seq 100); do
        grep -q "listening on" "$out/$name.log" && return 0
        sleep 0.1
    done
    log "$name did not start: $(head -c 300 "$out/$name.log")"
    return 1
}
stop() {
    [ -f "$out/$1.pid" ] || return 0
    kill "$(cat "$out/$1.pid")" 2>/dev/null
    wait "$(cat "$out/$1.pid")" 2>/dev/null
    rm -f "$out/$1.pid"
}

if step bench; then
    log "bench --repeat $repeat at $sessions sessions"
    timeout 200 "$sandbox" bench --sessions "$sessions" --seconds "$seconds" --repeat "$repeat" "${common[@]}" \
        > "$out/bench.json" 2> "$out/bench.err" || log "bench exited $?"
fi

if step ramp; then
    log "bench --ramp"
    timeout 200 "$sandbox" bench --ramp --sessions "${RAMP_START:-500}" --seconds 3 --limit "${RAMP_LIMIT:-4000}" \
        "${common[@]}" > "$out/ramp.json" 2> "$out/ramp.err" || log "ramp exited $?"
fi

step latency && for connections in 1 10; do
    samples_var=SAMPLES_$connections
    samples=${!samples_var:-3000}
    log "latency at $connections connections"
    port=$((20000 + connections)) echo_port=$((21000 + connections))
    if start serve-$connections $port "$sandbox" serve --port $port --log-level warning --web-root "$PWD/web" \
        && start echo-$connections $echo_port "$floor" echo --port $echo_port; then
        timeout 150 "$sandbox" latency --url "ws://127.0.0.1:$port/" --compare "ws://127.0.0.1:$echo_port/" \
            --samples "$samples" --warmup 50 --rate 200 --concurrency $connections \
            --repeat "${LATENCY_REPEAT:-3}" --json --no-progress \
            > "$out/latency-$connections.json" 2> "$out/latency-$connections.err" || log "latency exited $?"
    fi
    stop serve-$connections
    stop echo-$connections
done
echo "$(hostname), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //');" \
    "load average $before before, $(load) after" > "$out/machine.txt"

if step phases; then
    log "one tick phase: bench --repeat 3"
    mkdir -p "$out/phases-1"
    timeout 100 "$sandbox" bench --sessions "$sessions" --seconds "$seconds" --repeat 3 --server-tick-phases 1 \
        "${common[@]}" > "$out/phases-1/bench.json" 2> "$out/phases-1/bench.err" || log "phases-1 exited $?"
fi

step baselines && for baseline in "$@"; do
    log "baseline $baseline: bench --repeat 3"
    mkdir -p "$out/$baseline"
    # Older builds may not know --no-progress (its absence only adds a progress line on stderr).
    options=("${common[@]}")
    if ! "$bin/$baseline" bench --help 2>&1 | grep -q -- --no-progress; then
        options=()
        for option in "${common[@]}"; do [ "$option" = --no-progress ] || options+=("$option"); done
    fi
    timeout 100 "$bin/$baseline" bench --sessions "$sessions" --seconds "$seconds" --repeat 3 "${options[@]}" \
        > "$out/$baseline/bench.json" 2> "$out/$baseline/bench.err" || log "$baseline exited $?"
done

# The server's profile at $sessions sessions into OUT/DIR: perf-self.txt and perf-children.txt.
profile() {  # DIR [serve options…]
    local dir=$out/$1
    shift
    mkdir -p "$dir"
    log "profile: perf record -F 2000 -g for ${PERF_SECONDS:-6} s at $sessions sessions ${*:-}"
    if start serve-perf 22000 "$sandbox" serve --port 22000 --log-level warning --web-root "$PWD/web" "$@"; then
        pid=$(cat "$out/serve-perf.pid")
        timeout 60 "$sandbox" bench --url ws://127.0.0.1:22000/ --server-pid "$pid" --sessions "$sessions" \
            --client-threads "$threads" --seconds $((${PERF_SECONDS:-6} + 6)) --no-progress \
            > "$dir/perf-bench.txt" 2>&1 &
        bench_pid=$!
        sleep 5
        timeout 30 "$bin/perf" record -F 2000 -g -o "$dir/perf.data" -p "$pid" -- sleep "${PERF_SECONDS:-6}" \
            > /dev/null 2> "$dir/perf-record.err"
        wait $bench_pid
        stop serve-perf
        "$bin/perf" report -i "$dir/perf.data" --stdio --no-children -g none --percent-limit 0.3 2> /dev/null \
            | grep -E '^ +[0-9]' | head -60 > "$dir/perf-self.txt"
        "$bin/perf" report -i "$dir/perf.data" --stdio --children -g none --percent-limit 2 2> /dev/null \
            | grep -E '^ +[0-9]' | head -60 > "$dir/perf-children.txt"
        rm -f "$dir/perf.data"
    fi
    stop serve-perf  # also when it did not start in time (still running, or its pid file left)
}

step perf && [ -x "$bin/perf" ] && profile .

if wants prebuilt || wants prebuilt-ramp || wants prebuilt-perf; then prebuilt_size=$(prebuilt_bytes); fi
prebuilt=(--server-prebuilt-frames "${prebuilt_size:-265}")
if step prebuilt; then
    log "prebuilt frames: bench --repeat $repeat"
    timeout 200 "$sandbox" bench --sessions "$sessions" --seconds "$seconds" --repeat "$repeat" "${prebuilt[@]}" \
        "${common[@]}" > "$out/prebuilt.json" 2> "$out/prebuilt.err" || log "prebuilt exited $?"
    log "prebuilt frames, one tick phase: bench --repeat 3"
    mkdir -p "$out/prebuilt-1"
    timeout 100 "$sandbox" bench --sessions "$sessions" --seconds "$seconds" --repeat 3 --server-tick-phases 1 \
        "${prebuilt[@]}" "${common[@]}" > "$out/prebuilt-1/prebuilt.json" 2> "$out/prebuilt-1/prebuilt.err" \
        || log "prebuilt-1 exited $?"
fi

if step prebuilt-ramp; then
    log "prebuilt frames: bench --ramp"
    mkdir -p "$out/prebuilt-ramp"
    timeout 200 "$sandbox" bench --ramp --sessions "${RAMP_START:-500}" --seconds 3 --limit "${RAMP_LIMIT:-4000}" \
        "${prebuilt[@]}" "${common[@]}" > "$out/prebuilt-ramp/ramp.json" 2> "$out/prebuilt-ramp/ramp.err" \
        || log "prebuilt ramp exited $?"
fi

step prebuilt-perf && [ -x "$bin/perf" ] && profile prebuilt --prebuilt-frames "${prebuilt_size:-265}"

log "done"
archive
