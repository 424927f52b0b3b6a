# transit: the two set-up commands are `make demo` and `make test`.
SWIFT     ?= swift
# Tests run on one optimized build (-enable-testing lets them use @testable imports) kept in its
# own folder, so a clean clone compiles once and the end-to-end tests run that build's binary;
# `build`, `demo` and `bench` use the plain release build in .build.
TESTFLAGS := -c release -Xswiftc -enable-testing --scratch-path .build-test
BIN       := .build/release/transit
DEMO_DB   := demo.sqlite

.PHONY: build test demo bench bench-import bench-queries bench-list faults fuzz sanitize clean

build:
	$(SWIFT) build -c release --static-swift-stdlib

test:
	$(SWIFT) build $(TESTFLAGS)
	$(SWIFT) test $(TESTFLAGS)

demo: build
	$(BIN) import data/lindenau --db $(DEMO_DB)
	@echo
	@echo '$$ transit nearby 52.5249 13.3692 --radius 2500'
	@$(BIN) nearby 52.5249 13.3692 --radius 2500 --db $(DEMO_DB)
	@echo
	@echo '$$ transit search "lodz"'
	@$(BIN) search "lodz" --db $(DEMO_DB)
	@echo
	@echo '$$ transit departures --stop HBF --at "2026-03-02 07:55" --within 60'
	@$(BIN) departures --stop HBF --at "2026-03-02 07:55" --within 60 --db $(DEMO_DB)
	@echo
	@echo '$$ transit departures --stop GOR --at "2026-03-02 23:59" --within 10 --format json'
	@$(BIN) departures --stop GOR --at "2026-03-02 23:59" --within 10 --format json --db $(DEMO_DB)
	@echo
	@echo '$$ transit search "gorli strasse" --explain'
	@$(BIN) search "gorli strasse" --explain --db $(DEMO_DB)

bench: build bench-import bench-queries bench-list

bench-import: build
	scripts/bench-import.sh

bench-queries: build
	scripts/bench-queries.sh

bench-list: build
	scripts/bench-list.sh

# Imports of the large feed killed at random moments (kill -9), 20 times.
faults: build
	scripts/kill-imports.sh 20

clean:
	rm -rf .build .build-test $(DEMO_DB)
