# Huduku pipeline. Cron runs `make hourly` every hour and `make daily` once a day; both take
# a lock so two runs never overlap. Targets are files where they can be; each binary writes
# its files atomically, so a failed stage leaves no half-made target behind.
#
#   make hourly            fetch, extract, classify this hour; publish
#   make daily             re-check links due at 2 and 16 days; publish
#   make replay DAY=D      re-run the stages that need no network for day D (same bytes)
#   make demo              the whole job on the built-in demo outlets, offline
#   make test              every test
#   make bench             the benchmarks
#
# Variables: NOW (RFC 3339, UTC `Z`; default the clock), DATA (default data),
# PIPELINE (default pipeline), SOURCES (default $(PIPELINE)/sources.csv).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules --warn-undefined-variables

NOW ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
DAY ?= $(shell echo '$(NOW)' | cut -c1-10)
HOUR := $(shell echo '$(NOW)' | cut -c12-13)
DATA ?= data
PIPELINE ?= pipeline
# A data directory may carry its own source list (the demo's does); else the production one.
SOURCES ?= $(if $(wildcard $(DATA)/sources.csv),$(DATA)/sources.csv,$(PIPELINE)/sources.csv)
CARGO ?= cargo
BIN := target/release
COMMON = --now $(NOW) --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES)

ROBOTS := $(DATA)/$(DAY)/robots.jsonl
HOURDIR := $(DATA)/$(DAY)/$(HOUR)
CLASSIFIED := $(HOURDIR)/classified.jsonl
LOCK := $(DATA)/.lock

# A stage that finished with some items failed (one bad feed among many) exits 3: its
# outputs are complete, the failures are in its log, and the run goes on.
stage = $(BIN)/$(1) $(COMMON) || { s=$$?; [ $$s -eq 3 ] || exit $$s; }

.PHONY: all build hourly daily replay demo test bench conformance eval clean-transient

all: build

build:
	$(CARGO) build --release --quiet --bins

ifndef HUDUKU_LOCKED
# The outer make takes the lock and runs the same target inside it, with the same NOW.
hourly daily replay: | $(DATA)
	flock -w 1800 $(LOCK) $(MAKE) --no-print-directory HUDUKU_LOCKED=1 NOW=$(NOW) DAY=$(DAY) DATA=$(DATA) PIPELINE=$(PIPELINE) SOURCES=$(SOURCES) $@ \
	  || { echo "make $@: failed, or another run held $(LOCK) for 30 minutes" >&2; exit 1; }
else

# Today's robots.txt verdicts: read before the first request to each site, kept for the day.
# A site added to the source list later in the day is read then; others are not asked again.
$(ROBOTS): $(SOURCES) | build
	$(call stage,robots-refresh)

# The hour's run. Raw bodies and summaries live in $(HOURDIR)/.transient and are removed
# when the recipe ends, also when it fails.
$(CLASSIFIED): $(ROBOTS) | build
	rm -rf $(HOURDIR)/.transient
	trap 'rm -rf $(HOURDIR)/.transient' EXIT; \
	$(call stage,fetch-feeds); \
	$(call stage,extract); \
	$(call stage,classify)

hourly: $(CLASSIFIED) | build
	$(call stage,publish)

daily: $(ROBOTS) | build
	$(call stage,recheck-headers)
	$(call stage,publish)

# Re-runs classify for every hour of DAY from its kept items (summaries are long gone; the
# topic labels they pointed to are kept), then publish as of the end of DAY.
replay: | build
	@test -d $(DATA)/$(DAY) || { echo "make replay: no $(DATA)/$(DAY) to replay$(if $(wildcard data/demo/$(DAY)), (the demo's run is in data/demo: make replay DAY=$(DAY) DATA=data/demo),)" >&2; exit 1; }
	for dir in $(sort $(wildcard $(DATA)/$(DAY)/[0-2][0-9])); do \
	  hh=$${dir##*/}; \
	  [ -f $$dir/items.jsonl ] || continue; \
	  $(BIN)/classify --now $(DAY)T$$hh:00:00Z --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES) \
	    || { s=$$?; [ $$s -eq 3 ] || exit $$s; }; \
	done
	$(BIN)/publish --now $(DAY)T23:59:59Z --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES) \
	  || { s=$$?; [ $$s -eq 3 ] || exit $$s; }
endif

$(DATA):
	mkdir -p $@

# The demo: the loopback publisher web plays three outlets; the daily and hourly targets run
# against them at a fixed time into data/demo, then the web stops. Replay it with
#   make replay DAY=2026-11-30 DATA=data/demo
DEMO_NOW := 2026-11-30T06:05:00Z
DEMO := data/demo
DEMO_PORT ?= 18421

demo: build
	rm -rf $(DEMO) && mkdir -p $(DEMO)
	$(BIN)/loopback-web --sites tests/web/demo --port $(DEMO_PORT) --log $(DEMO)/requests.jsonl --ready $(DEMO)/web.port & \
	web=$$!; trap 'kill $$web 2>/dev/null; wait $$web 2>/dev/null || true' EXIT; \
	for i in $$(seq 100); do [ -f $(DEMO)/web.port ] && break; kill -0 $$web || exit 1; sleep 0.1; done; \
	port=$$(cat $(DEMO)/web.port); \
	sed "s/{{port}}/$$port/g" pipeline/demo/sources.csv > $(DEMO)/sources.csv; \
	$(MAKE) --no-print-directory daily NOW=$(DEMO_NOW) DATA=$(DEMO) SOURCES=$(DEMO)/sources.csv; \
	$(MAKE) --no-print-directory hourly NOW=$(DEMO_NOW) DATA=$(DEMO) SOURCES=$(DEMO)/sources.csv
	@echo "open data: $(DEMO)/site/data/"
	@echo "requests: $(DEMO)/requests.jsonl"
	@echo "page: $(DEMO)/site/index.html"

test:
	$(CARGO) test --release --quiet -- --test-threads=8

# The classifier scored on the labelled headlines in tests/eval (the category hidden):
# accuracy and per-topic precision and recall per language, as docs/topics.md shows them.
eval: build
	$(BIN)/classify --eval tests/eval --pipeline $(PIPELINE)

bench:
	$(CARGO) bench --bench pipeline

# extract measured against Python's feedparser on tests/fixtures/conformance (needs PyPI;
# never part of `make test`). Prints the agreement table; fails below 99% on any field.
CONFORMANCE_VENV := target/conformance-venv
conformance: build
	test -x $(CONFORMANCE_VENV)/bin/python || python3 -m venv $(CONFORMANCE_VENV)
	$(CONFORMANCE_VENV)/bin/python -c 'import feedparser' 2>/dev/null || $(CONFORMANCE_VENV)/bin/pip install --quiet 'feedparser==6.0.11'
	$(CONFORMANCE_VENV)/bin/python scripts/conformance.py $(BIN)/extract tests/fixtures/conformance --report target/conformance.txt

# Every fuzz target of fuzz/ for FUZZ_SECONDS each, on corpora seeded from tests/fixtures
# (needs the nightly toolchain and `cargo install cargo-fuzz`; never part of `make test` or
# CI). A crash stops it, its input kept in fuzz/artifacts/TARGET/.
FUZZ_TARGETS := parse_body polite dates charset html_to_text html_scan_vs_parser
FUZZ_SECONDS ?= 20
.PHONY: fuzz-smoke
fuzz-smoke:
	fuzz/seed.sh
	cd fuzz && for t in $(FUZZ_TARGETS); do \
	  cargo +nightly fuzz run $$t -- -max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done
