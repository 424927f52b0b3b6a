# transit: the two set-up commands are `make demo` and `make test`.
SWIFT     ?= swift
# Tests run on one optimized build (-enable-testing lets them use @testable imports) kept in its
# own folder, so a clean clone compiles once and the end-to-end tests run that build's binary;
# `build`, `demo` and `bench` use the plain release build in .build.
TESTFLAGS := -c release -Xswiftc -enable-testing --scratch-path .build-test
BIN       := .build/release/transit
DEMO_DB   := demo.sqlite

.PHONY: build test demo bench bench-import bench-queries clean

build:
	$(SWIFT) build -c release --static-swift-stdlib

test:
	$(SWIFT) build $(TESTFLAGS)
	$(SWIFT) test $(TESTFLAGS)

demo: build
	$(BIN) import data/lindenau --db $(DEMO_DB)
	@echo
	@echo '$$ transit nearby 52.5249 13.3692 --radius 1500'
	@$(BIN) nearby 52.5249 13.3692 --radius 1500 --db $(DEMO_DB) || true

bench: build bench-import bench-queries

bench-import: build
	scripts/bench-import.sh

bench-queries: build
	scripts/bench-queries.sh

clean:
	rm -rf .build .build-test $(DEMO_DB)
