# The README's two commands: `make run` and `make test`.
.PHONY: run test deps test-deps venv build bench-core floor fuzz fuzz-smoke check-sanitizers soak lint format \
	release-check ci python-client alloc-count bench-compare

PORT ?= 8080

# The tests' Python packages live in .venv, pinned by Tests/requirements.txt: never installed
# into the system's Python (nor as root). Rebuilt when the requirements change.
VENV ?= .venv
PYTHON = $(VENV)/bin/python

deps:
	scripts/install-deps.sh run

test-deps: venv
	scripts/install-deps.sh test

venv: $(VENV)/.installed

$(VENV)/.installed: Tests/requirements.txt
	scripts/install-deps.sh venv
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install -q --disable-pip-version-check -r Tests/requirements.txt
	touch $@

build: deps
	swift build -c release --product sandbox

run: build
	.build/release/sandbox serve --port $(PORT)

# The floor the latency and bench tools compare with: a minimal C libwebsockets server.
floor: deps
	mkdir -p .build
	cc -O2 -Wall -Wextra -o .build/ws-floor tools/floor/ws-floor.c $$(pkg-config --cflags --libs libwebsockets)

# The Python client (clients/python, its README): installed into .venv; its own tests need no server.
python-client: venv
	$(PYTHON) -m pip install -q --disable-pip-version-check ./clients/python

test: test-deps floor python-client
	swift build --product sandbox
	swift test
	$(PYTHON) -m pytest -q clients/python/tests Tests/integration Tests/browser

bench-core:
	swift run -c release CoreBenchmark

# Heap allocations per frame and per pointer message in steady state (docs/PERFORMANCE.md,
# "Allocations"): the release server under a counting allocator (tools/alloc-count), a short and a
# long run of each workload, Δallocations ÷ Δframes (or pointer messages). ALLOC_MAX=0.01 makes
# it exit 1 when either figure is above that. About a minute.
ALLOC_MAX ?=
alloc-count: build venv
	cc -O2 -Wall -Wextra -shared -fPIC -o .build/alloc-count.so tools/alloc-count/alloc-count.c
	$(PYTHON) tools/alloc-count/alloc_count.py $(if $(ALLOC_MAX),--max $(ALLOC_MAX))

# The frame-cost table of docs/PERFORMANCE.md in one command, for a quiet machine: CPU per frame
# against `ws-floor stream`, sessions held (--ramp), input → frame ÷ `ws-floor echo` at 1 and 10
# connections, the server's time per input (tools/bench-compare; its --help for the settings).
# About 10 minutes at the defaults; BENCH_COMPARE_ARGS="--repeat 3" and so on to change them.
BENCH_COMPARE_ARGS ?=
bench-compare: build floor
	python3 tools/bench-compare/bench_compare.py $(BENCH_COMPARE_ARGS)

# libFuzzer over bytes → parse → session → frame for FUZZ_SECONDS (docs/SECURITY.md, "Fuzzing").
# Not part of `make test`.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# CI's minute of fuzzing: the same run, bounded (a crash or an invariant failure fails it).
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=60

# The style .swift-format describes (swift-format ships with the toolchain). `lint` fails on any
# difference; `format` rewrites the files in place. Not part of `make test`: a formatting slip
# is not a failing behaviour, and `make test` stays the one command that says whether it works.
FORMAT_PATHS = Sources Tests Fuzz
lint:
	swift format lint --strict --parallel -r $(FORMAT_PATHS)

format:
	swift format format --in-place --parallel -r $(FORMAT_PATHS)

# A release build of every product with each warning an error (the debug build of `make test`
# lets warnings through). Its own scratch path, so `make build`'s release binary is not rebuilt
# with other flags each time.
release-check: deps
	swift build -c release -Xswiftc -warnings-as-errors --scratch-path .build-release-check

# What .ci/run runs: the style first (seconds), the README's `make test`, the release build
# with warnings as errors, a minute of fuzzing.
ci: lint test release-check fuzz-smoke

# The Swift tests and the integration suite under AddressSanitizer (with LeakSanitizer), then
# under ThreadSanitizer with every server on --threads 2 (docs/SECURITY.md, "Sanitizers and
# soak"). Own scratch paths; SAN_JOBS build jobs. A report fails the run: the sanitized tools
# stop on the first one, and a test whose server's stderr holds one fails (Tests/conftest.py).
SAN_JOBS ?= 1
ASAN_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:quarantine_size_mb=16 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp
TSAN_ENV = TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/Tests/tsan.supp"

# $(1) sanitizer, $(2) scratch path, $(3) environment, $(4) extra `serve` arguments.
define sanitized
	swift build --product sandbox --sanitize=$(1) --scratch-path $(2) -j $(SAN_JOBS)
	cc -O2 -Wall -Wextra -o $(2)/ws-floor tools/floor/ws-floor.c $$(pkg-config --cflags --libs libwebsockets)
	$(3) swift test --sanitize=$(1) --scratch-path $(2) -j $(SAN_JOBS)
	$(3) SANDBOX_SANITIZER=$(1) SANDBOX_BINARY=$(2)/debug/sandbox SANDBOX_FLOOR=$(2)/ws-floor \
		SANDBOX_SERVE_ARGS="$(4)" $(PYTHON) -m pytest -q -p no:cacheprovider Tests/integration
endef

check-sanitizers: test-deps
	$(call sanitized,address,.build-asan,$(ASAN_ENV),)
	$(call sanitized,thread,.build-tsan,$(TSAN_ENV),--threads 2)
	@echo "check-sanitizers: ASan and TSan clean"

# 10 minutes of drivers, viewers, hostile clients and reconnects against the release server
# (scripts/soak.py; SOAK_MINUTES, SOAK_ARGS). Not part of `make test`.
SOAK_MINUTES ?= 10
soak: deps venv
	$(PYTHON) scripts/soak.py --minutes $(SOAK_MINUTES) $(SOAK_ARGS)
