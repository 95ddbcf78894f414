# The README's two commands: `make run` and `make test`.
.PHONY: run test deps test-deps build bench-core

PORT ?= 8080

deps:
	scripts/install-deps.sh run

test-deps:
	scripts/install-deps.sh test

build: deps
	swift build -c release --product sandbox

run: build
	.build/release/sandbox serve --port $(PORT)

test: test-deps
	swift build --product sandbox
	swift test
	python3 -m pytest -q Tests/integration Tests/browser

bench-core:
	swift run -c release CoreBenchmark
