# transit: the two set-up commands are `make demo` and `make test`; both first check (and, as root or
# with sudo -n, install) what the machine lacks: see `setup` below.
SWIFT     ?= swift
# Tests run on one optimized build (-enable-testing lets them use @testable imports) kept in its
# own folder, so a clean clone compiles once and the end-to-end tests run that build's binary;
# `build`, `demo` and `bench` use the plain release build in .build.
TESTFLAGS := -c release -Xswiftc -enable-testing --scratch-path .build-test
BIN       := .build/release/transit
DEMO_DB   := demo.sqlite

.PHONY: setup build test demo install uninstall man bench bench-import bench-queries bench-list bench-feeds bench-batch bench-realtime bench-plan bench-serve bench-national bench-postgres realtime-proto faults fuzz fuzz-predicate sanitize clean

# transit itself is one static executable (see Package.swift); the helpers link the Swift
# runtime statically. Generic types are made by their metadata accessors rather than from mangled
# names: a name's generic requirements are checked at run time, each first check a scan of every
# protocol conformance in the binary (a query's whole process: 5.0 M -> 2.7 M instructions).
ACCESSORS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

# Before anything is compiled: the system packages of scripts/system-packages.txt and a Swift
# toolchain as new as Package.swift needs, installed when missing if root or `sudo -n` can,
# else one line with the command to run, and stop (scripts/check-setup.sh). Silent and a few
# milliseconds when all is there; TRANSIT_SKIP_SETUP=1 skips it. Every target that compiles
# depends on it; the packages checked follow the goals asked for: the build's always, the tests'
# for the targets that run tests or test scripts (and `make setup` itself), the benchmarks' for bench*.
SETUP_FOR := build $(if $(filter setup test sanitize faults fuzz fuzz-predicate,$(MAKECMDGOALS)),test) \
  $(if $(filter bench bench-%,$(MAKECMDGOALS)),bench)
setup:
	@SWIFT='$(SWIFT)' scripts/check-setup.sh $(addprefix --for ,$(strip $(SETUP_FOR)))

build: setup
	TRANSIT_STATIC=1 $(SWIFT) build -c release --static-swift-stdlib $(ACCESSORS)

# The tests run beside a throwaway PostgreSQL primary and hot standby (scripts/with-postgres.sh; the
# PostgreSQL tests skip, saying so, where it is not installed).
test: setup
	$(SWIFT) build $(TESTFLAGS)
	scripts/with-postgres.sh $(SWIFT) test $(TESTFLAGS) --disable-swift-testing

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
	@echo
	@echo '$$ transit plan HBF STR --at "2026-03-02 07:55"'
	@$(BIN) plan HBF STR --at "2026-03-02 07:55" --db $(DEMO_DB)

# Installs the five programs (transit runs transit-import, transit-postgres, transit-realtime and transit-serve from beside
# itself), the manual pages of man/ and the completion scripts transit writes for bash, zsh and
# fish: `make install PREFIX=~/.local`; DESTDIR stages a package. RELEASE names another build's
# folder to install from (the tests install theirs without building this one).
PREFIX   ?= /usr/local
DESTDIR  ?=
RELEASE  ?= .build/release
PROGRAMS := transit transit-import transit-postgres transit-realtime transit-serve
BINDIR   := $(DESTDIR)$(PREFIX)/bin
MANDIR   := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR  := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR   := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR  := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MANPAGES := $(notdir $(wildcard man/*.1))

install: $(if $(filter .build/release,$(RELEASE)),build)
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(addprefix $(RELEASE)/,$(PROGRAMS)) $(BINDIR)
	install -m 644 $(addprefix man/,$(MANPAGES)) $(MANDIR)
	$(RELEASE)/transit --generate-completion-script bash > $(BASHDIR)/transit
	$(RELEASE)/transit --generate-completion-script zsh > $(ZSHDIR)/_transit
	$(RELEASE)/transit --generate-completion-script fish > $(FISHDIR)/transit.fish

# Removes exactly the files `make install` put there (with the same PREFIX and DESTDIR); the
# folders stay, as they may be shared.
uninstall:
	rm -f $(addprefix $(BINDIR)/,$(PROGRAMS)) $(addprefix $(MANDIR)/,$(MANPAGES)) \
	  $(BASHDIR)/transit $(ZSHDIR)/_transit $(FISHDIR)/transit.fish

# Regenerates man/ (transit.1 and one transit-SUBCOMMAND.1 each) from the commands' help with
# swift-argument-parser's generate-manual plugin. It builds every product in its own folder
# (minutes), so the pages are committed and neither CI nor `make install` needs this.
man: setup
	$(SWIFT) package --scratch-path .build-man generate-manual --multi-page --date 2026-11-23 \
	  --authors "the transit developers"
	# transit-serve.1 is written by hand (transit-serve reads its own command line) and kept.
	mkdir -p man
	find man -name '*.1' ! -name transit-serve.1 -delete
	# transit.feeds.remove.1 -> transit-feeds-remove.1 (git's convention), references too.
	for page in .build-man/plugins/GenerateManual/outputs/transit/*.1; do \
	  name=$$(basename $$page .1); \
	  [ "$$name" != transit.serve ] || continue; \
	  sed -e 's/^\(\.Xr transit\)\.\([a-z.]*\)/\1-\2/' -e '/^\.Xr/s/\([a-z]\)\.\([a-z]\)/\1-\2/g' \
	    -e '/^\.Dt/s/\([A-Z]\)\./\1-/g' $$page > man/$$(echo $$name | tr . -).1; \
	done

bench: build bench-import bench-queries bench-list bench-feeds bench-batch bench-realtime bench-plan bench-serve

bench-import: build
	scripts/bench-import.sh

bench-queries: build
	scripts/bench-queries.sh

bench-list: build
	scripts/bench-list.sh

# Several feeds: adding the large feed beside two others vs into an empty database, removing it,
# and the query benchmarks with and without the other feeds.
bench-feeds: build
	scripts/bench-feeds.sh
	scripts/bench-add.sh

# Thousands of questions in one process (`--input`): questions per second and peak memory.
bench-batch: build
	scripts/bench-batch.sh

# Journeys: `transit plan` in one process and as a whole process on the large feed, next to nigiri
# (pip install pynigiri) on the same questions.
bench-plan: build
	scripts/bench-plan.sh

# transit serve under load (wrk): departures, nearby and plan on the large feed.
bench-serve: build
	scripts/bench-serve.sh

# The national feed (100 cities joined by rail): import, plan across the country, reach, nearby vs ×10, nigiri; ~15 min, not in `bench`.
bench-national: build
	scripts/bench-national.sh

# PostgreSQL: the large feed imported into a file and into a primary (with a hot standby), in turn.
bench-postgres: build
	scripts/bench-postgres.sh

# Reading a GTFS-Realtime message of 2,000 trip updates (40,000 stop time updates) into the large feed.
bench-realtime: build
	scripts/bench-realtime.sh

# Regenerates Sources/GTFSRealtime/gtfs-realtime.pb.swift from Protos/gtfs-realtime.proto. Needs
# protoc (apt protobuf-compiler) and builds swift-protobuf's plugin (minutes), which is why the
# generated file is committed and neither CI nor `make build` needs this.
realtime-proto: setup
	$(SWIFT) build -c release --product protoc-gen-swift
	protoc --plugin=protoc-gen-swift=.build/release/protoc-gen-swift --swift_out=Sources/GTFSRealtime \
	  --swift_opt=Visibility=Public -I Protos Protos/gtfs-realtime.proto

# Imports of the large feed killed at random moments (kill -9), 20 times.
faults: build
	scripts/kill-imports.sh 20

# libFuzzer on the CSV reader and the value parsers, seeded from the real feeds and data/.
FUZZ_SECONDS ?= 600
fuzz: setup
	TRANSIT_FUZZ=1 $(SWIFT) build -c release --product fuzz-feed --scratch-path .build-fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
	python3 scripts/fuzz-seeds.py bench/fuzz-seeds data/lindenau ../shared/feeds/vilnius.zip ../shared/feeds/cairns_gtfs.zip ../shared/feeds/sample_gtfs.zip
	mkdir -p bench/fuzz-corpus bench/fuzz-crashes
	ASAN_OPTIONS=detect_leaks=0 .build-fuzz/release/fuzz-feed bench/fuzz-corpus bench/fuzz-seeds -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=65536 -detect_leaks=0 -artifact_prefix=bench/fuzz-crashes/ -print_final_stats=1

# libFuzzer on predicate strings: parsed, compiled against the transit model and run on an empty
# database of its layout; only answers or predicate mistakes may come out. Seeded from scripts/predicate-seeds.txt.
fuzz-predicate: setup
	TRANSIT_FUZZ=1 $(SWIFT) build -c release --product fuzz-predicate --scratch-path .build-fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
	rm -rf bench/predicate-seeds && mkdir -p bench/predicate-seeds bench/predicate-corpus bench/fuzz-crashes
	n=0; while IFS= read -r line; do n=$$((n+1)); printf '%s' "$$line" > bench/predicate-seeds/$$n; done < scripts/predicate-seeds.txt
	ASAN_OPTIONS=detect_leaks=0 .build-fuzz/release/fuzz-predicate bench/predicate-corpus bench/predicate-seeds -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=4096 -detect_leaks=0 -artifact_prefix=bench/fuzz-crashes/ -print_final_stats=1

# The test suite under AddressSanitizer (memory errors; XCTest keeps test objects alive at exit, so
# leaks are checked on the commands themselves by leak-check.sh), then ThreadSanitizer (the import
# inserts on a worker thread).
sanitize: setup
	$(SWIFT) build --build-tests --scratch-path .build-asan -Xswiftc -sanitize=address
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --scratch-path .build-asan -Xswiftc -sanitize=address
	scripts/leak-check.sh .build-asan/debug
	$(SWIFT) build --build-tests --scratch-path .build-tsan -Xswiftc -sanitize=thread
	$(SWIFT) test --skip-build --scratch-path .build-tsan -Xswiftc -sanitize=thread

clean:
	rm -rf .build .build-test .build-fuzz .build-asan .build-tsan .build-man .build-static $(DEMO_DB)
