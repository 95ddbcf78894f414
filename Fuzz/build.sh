#!/bin/sh
# Builds the libFuzzer target .build-fuzz/fuzz-session from the sources, with swiftc alone (a
# fuzzer product in Package.swift would break the normal `swift build`). See docs/SECURITY.md,
# "Fuzzing". Environment: FUZZ_SANITIZE (default `fuzzer`; e.g. `fuzzer,address`), FUZZ_BUILD
# (default .build-fuzz), SWIFTC.
set -eu
cd "$(dirname "$0")/.."

# The modules the harness links, in dependency order: NAME=PATH,PATH… (a folder: every .swift file
# under it). The whole input path is pure (SandboxSession: the wire parser, the session hub, the
# encoders, VirtualSession): none of the socket code, its C module or its packages. Edit this one
# line when the module layout changes.
MODULES="TransitionCore=Sources/TransitionCore SandboxSession=Sources/SandboxSession"

SWIFTC=${SWIFTC:-swiftc}
SANITIZE=${FUZZ_SANITIZE:-fuzzer}
OUT=${FUZZ_BUILD:-.build-fuzz}/$(echo "$SANITIZE" | tr , -)
TARGET=$OUT/fuzz-session
INCLUDES="-I $OUT"
mkdir -p "$OUT"

# Up to date: nothing under Sources/ or Fuzz/*.swift is newer than the binary.
if [ -x "$TARGET" ] && [ -z "$(find Sources Fuzz -name '*.swift' -newer "$TARGET" | head -n 1)" ] \
    && [ "${FUZZ_REBUILD:-0}" = 0 ]; then
    echo "$TARGET is up to date"
    exit 0
fi

OBJECTS=""
for module in $MODULES; do
    name=${module%%=*}
    folders=$(echo "${module#*=}" | tr , ' ')
    # shellcheck disable=SC2086
    files=$(find $folders -name '*.swift' | sort)
    echo "swiftc $name ($(echo "$files" | wc -l) files)"
    # Instrumented for coverage (and ASan when asked), optimised like the release server.
    # shellcheck disable=SC2086
    "$SWIFTC" -module-name "$name" -parse-as-library -O -g -wmo -num-threads 0 \
        -sanitize="$SANITIZE" $INCLUDES \
        -emit-module -emit-module-path "$OUT/$name.swiftmodule" \
        -c $files -o "$OUT/$name.o"
    OBJECTS="$OBJECTS $OUT/$name.o"
done

# The harness is not instrumented for coverage (its checks would only add noise to the fuzzer's
# feedback); the link step brings in libFuzzer's main.
harness_sanitize=$(echo "$SANITIZE" | sed 's/fuzzer,\{0,1\}//; s/,$//')
echo "swiftc harness"
# shellcheck disable=SC2086
"$SWIFTC" -module-name FuzzSession -parse-as-library -O -g -wmo $INCLUDES \
    ${harness_sanitize:+-sanitize=$harness_sanitize} -c Fuzz/SessionFuzz.swift -o "$OUT/FuzzSession.o"
# shellcheck disable=SC2086
"$SWIFTC" -sanitize="$SANITIZE" $OBJECTS "$OUT/FuzzSession.o" -o "$TARGET"
echo "built $TARGET"
