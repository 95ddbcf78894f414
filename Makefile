# The README's two commands: `make run` and `make test`.
.PHONY: run test deps test-deps build bench-core floor fuzz

PORT ?= 8080

deps:
	scripts/install-deps.sh run

test-deps:
	scripts/install-deps.sh test

build: deps
	swift build -c release --product sandbox

run: build
	.build/release/sandbox serve --port $(PORT)

# The floor the latency and bench tools compare with: a minimal C libwebsockets server.
floor: deps
	mkdir -p .build
	cc -O2 -Wall -Wextra -o .build/ws-floor tools/floor/ws-floor.c $$(pkg-config --cflags --libs libwebsockets)

test: test-deps floor
	swift build --product sandbox
	swift test
	python3 -m pytest -q Tests/integration Tests/browser

bench-core:
	swift run -c release CoreBenchmark

# libFuzzer over bytes → parse → session → frame for FUZZ_SECONDS (docs/SECURITY.md, "Fuzzing").
# Not part of `make test`.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh
