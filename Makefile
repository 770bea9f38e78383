# Huduku pipeline. Cron runs `make hourly` every hour and `make daily` once a day; both take
# a lock so two runs never overlap. Targets are files where they can be; each binary writes
# its files atomically, so a failed stage leaves no half-made target behind.
#
#   make hourly            fetch, extract, classify this hour; the videos; publish
#   make daily             re-check links due at 2 and 16 days; train the topic model; publish
#   make train             train the topic model on the last TRAIN_DAYS days' filed headlines
#   make replay DAY=D      re-run the stages that need no network for day D into a folder of
#                          its own (REPLAY_OUT) and compare it with the kept files
#   make demo              the whole job on the built-in demo outlets, offline
#   make lighthouse        Lighthouse's scores for the demo site (installs it from npm)
#   make test              every test
#   make bench             the benchmarks
#
# Variables: NOW (RFC 3339, UTC `Z`; default the clock), DATA (default data),
# PIPELINE (default pipeline), SOURCES (default $(PIPELINE)/sources.csv), NETWORK (the
# address ranges allowed although not public; default $(PIPELINE)/network.csv, none),
# REPLAY_OUT (where a replay writes; default DATA-replays/DAY, beside the data directory),
# CHANNELS (the YouTube channels of the video pages; default $(PIPELINE)/channels.csv),
# TRAIN_DAYS (how many days of filed headlines the topic model learns from; default 28).
# fetch-videos reads its API key from HUDUKU_YOUTUBE_KEY in the environment (never a file in
# the repository), and HUDUKU_YOUTUBE_API names another API address (the demo's fake).

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
# Likewise its own allowed address ranges (the demo's allows its loopback web); else none.
NETWORK ?= $(if $(wildcard $(DATA)/network.csv),$(DATA)/network.csv,$(PIPELINE)/network.csv)
# Likewise its own YouTube channel list (the demo's); else the production one.
CHANNELS ?= $(if $(wildcard $(DATA)/channels.csv),$(DATA)/channels.csv,$(PIPELINE)/channels.csv)
CARGO ?= cargo
# The built binaries (`make build`); the runs themselves never need cargo, so cron's bare
# PATH is enough. Honours CARGO_TARGET_DIR as cargo does.
CARGO_TARGET_DIR ?= target
BIN ?= $(CARGO_TARGET_DIR)/release
STAGES := robots-refresh fetch-feeds extract classify recheck-headers publish fetch-videos
# NOW in UTC, read by the binaries' own parser (the one place times are read), so the hour
# make names and the hour the binaries write are the same whatever offset NOW was given in.
override NOW := $(shell $(BIN)/robots-refresh --now '$(NOW)' --print-now 2>/dev/null || echo '$(NOW)')
COMMON = --now $(NOW) --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES) --network $(NETWORK)

ROBOTS := $(DATA)/$(DAY)/robots.jsonl
HOURDIR := $(DATA)/$(DAY)/$(HOUR)
CLASSIFIED := $(HOURDIR)/classified.jsonl
LOCK := $(DATA)/.lock
# The topic model (docs/topics.md): trained daily into a file of the day's own, kept so a
# replay of any day finds the model its hours were filed with; topics.model is the newest.
MODELS := $(DATA)/models
MODEL := $(MODELS)/topics.model
TRAIN_DAYS ?= 28
# A replay writes here, never in the data directory.
REPLAY_OUT ?= $(patsubst %/,%,$(DATA))-replays/$(DAY)

# A stage that finished with some items failed (one bad feed among many) exits 3: its
# outputs are complete, the failures are in its log, and the run goes on.
# One that exits 4 learned something a person must act on (a new refusal or halt, or every
# request failing at the network level): the run goes on, and ends saying so, non-zero.
ATTENTION := $(DATA)/.attention
stage = $(BIN)/$(1) $(COMMON) || { s=$$?; [ $$s -eq 3 ] || { [ $$s -eq 4 ] && touch $(ATTENTION); } || exit $$s; }
# The video step is a side step: whatever becomes of it, the hour's headlines are published.
# Exit 3 (a channel failed or was not asked) goes on; 4 (YouTube refused the key or said the
# quota is spent) and 1 (the step failed: a bad channels.csv, no key) go on too, and the run
# ends saying a person must act.
side = $(BIN)/$(1) $(COMMON) || { s=$$?; [ $$s -eq 3 ] || touch $(ATTENTION); }

# Raw bodies and summaries never outlive a run: every hour's .transient/ goes, at the start
# and at the end of a run, whatever hour NOW names (a killed run's too).
sweep = find $(DATA) -mindepth 3 -maxdepth 3 -type d -name .transient -prune -exec rm -rf {} +

# A run needs the built binaries and a data directory made on purpose, and says how to get them.
have-bins = for b in $(STAGES); do [ -x $(BIN)/$$b ] || { echo "make: $(BIN)/$$b is missing: run 'make build' first (it needs cargo)" >&2; exit 1; }; done; \
  [ -f $(DATA)/.huduku ] || { echo "make: $(DATA) is not a Huduku data directory: make it one on purpose with 'make init DATA=$(DATA)'" >&2; exit 1; }

.PHONY: all build init status hourly daily train replay demo lighthouse test bench conformance eval

all: build

build:
	$(CARGO) build --release --quiet --bins --target-dir $(CARGO_TARGET_DIR)
	mkdir -p log

ifndef HUDUKU_LOCKED
# The outer make takes the lock and runs the same target inside it, with the same NOW.
# Waiting for the lock is said; a lock not had in 30 minutes is told apart from a failed run.
hourly daily train replay:
	@$(have-bins)
	@rm -f $(ATTENTION)
	@flock -n $(LOCK) true || echo "make $@: another run holds $(LOCK); waiting up to 30 minutes" >&2
	@flock -w 1800 -E 75 $(LOCK) $(MAKE) --no-print-directory HUDUKU_LOCKED=1 NOW=$(NOW) DAY=$(DAY) DATA=$(DATA) PIPELINE=$(PIPELINE) SOURCES=$(SOURCES) NETWORK=$(NETWORK) CHANNELS=$(CHANNELS) BIN=$(BIN) REPLAY_OUT=$(REPLAY_OUT) $@ \
	  || { s=$$?; if [ $$s -eq 75 ]; then echo "make $@: another run held $(LOCK) for 30 minutes; nothing was done" >&2; else echo "make $@: $(if $(filter replay,$@),the replay differs from the kept files or a stage failed,a stage failed) (exit $$s); see above" >&2; fi; exit 1; }
	@if [ -f $(ATTENTION) ]; then rm -f $(ATTENTION); echo "make $@: a person must act (see the lines above; 'make status' lists every stop)" >&2; exit 4; fi
else

# Today's robots.txt verdicts: read before the first request to each site, kept for the day.
# A site added to the source list later in the day is read then; others are not asked again.
$(ROBOTS): $(SOURCES)
	$(call stage,robots-refresh)

# The hour's run. Raw bodies and summaries live in $(HOURDIR)/.transient and are removed
# when the recipe ends, also when it fails.
$(CLASSIFIED): $(ROBOTS)
	$(sweep)
	trap '$(sweep)' EXIT; \
	$(call stage,fetch-feeds); \
	$(call stage,extract); \
	$(call stage,classify$(if $(wildcard $(MODEL)), --model $(MODEL) --or-lexicons))

# The videos are asked hourly, like the headlines, so a new upload is on the page within the
# hour: each listed channel costs one unit of the API's quota a run (two its first time), and
# fetch-videos stops before its daily budget (--quota-budget, 2,000 of the project's 10,000
# units: 83 channels hourly) would be exceeded, so a longer list degrades to fewer refreshes,
# never to a spent quota.
hourly: $(CLASSIFIED)
	$(call side,fetch-videos --channels $(CHANNELS))
	$(call stage,publish)

# The topic model learns from the headlines publishers filed under a section the table
# (pipeline/topic-map.csv) maps to a topic, in the TRAIN_DAYS days before today, and from the
# hand-labelled pipeline/topics/examples.jsonl. The examples are kept beside the model
# (models/examples-DAY.jsonl), so what it learned from can be read. A training that fails
# leaves the last model in use.
define train-model
mkdir -p $(MODELS) && \
  $(BIN)/classify $(COMMON) --examples $(TRAIN_DAYS) > $(MODELS)/.examples.tmp && \
  mv -f $(MODELS)/.examples.tmp $(MODELS)/examples-$(DAY).jsonl && \
  $(BIN)/classify $(COMMON) --train $(MODELS)/examples-$(DAY).jsonl --model $(MODELS)/topics-$(DAY).model && \
  cp $(MODELS)/topics-$(DAY).model $(MODELS)/.topics.model.tmp && mv -f $(MODELS)/.topics.model.tmp $(MODEL)
endef

train:
	$(train-model)

daily: $(ROBOTS)
	$(call stage,recheck-headers)
	$(train-model) || { echo "make daily: the topic model was not trained; the last one stays in use" >&2; touch $(ATTENTION); }
	$(call stage,publish)

# Re-runs classify for every hour of DAY from its kept items (summaries are long gone; the
# topic labels they pointed to are kept), then publish as of the end of DAY, all of it into
# REPLAY_OUT (the data directory is only read), then compares that with the kept files:
# "same bytes", or each file that differs (exit 3 from `replay compare`, so make fails).
replay:
	@test -d $(DATA)/$(DAY) || { echo "make replay: no $(DATA)/$(DAY) to replay$(if $(wildcard data/demo/$(DAY)), (the demo's run is in data/demo: make replay DAY=$(DAY) DATA=data/demo),)" >&2; exit 1; }
	@[ -x $(BIN)/replay ] || { echo "make: $(BIN)/replay is missing: run 'make build' first (it needs cargo)" >&2; exit 1; }
	$(BIN)/replay prepare --data $(DATA) --out $(REPLAY_OUT) --day $(DAY)
	for dir in $(sort $(wildcard $(DATA)/$(DAY)/[0-2][0-9])); do \
	  hh=$${dir##*/}; \
	  [ -f $$dir/items.jsonl ] || continue; \
	  $(BIN)/classify --now $(DAY)T$$hh:00:00Z --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES) --out $(REPLAY_OUT) \
	    || { s=$$?; [ $$s -eq 3 ] || exit $$s; }; \
	done
	$(BIN)/publish --now $(DAY)T23:59:59Z --data $(DATA) --pipeline $(PIPELINE) --sources $(SOURCES) --out $(REPLAY_OUT) \
	  || { s=$$?; [ $$s -eq 3 ] || exit $$s; }
	$(BIN)/replay compare --data $(DATA) --out $(REPLAY_OUT) --day $(DAY)
endif

# What an operator must know at 3 a.m.: stops (and the permissions.csv line that lifts each),
# waits, failing and unchecked sources, each stage's last output. Asks nothing.
status:
	@$(BIN)/fetch-feeds --status $(COMMON)

# A data directory is made on purpose, never by accident (a mistyped DATA= would start from an
# empty state and ask sites that refused).
init:
	@[ -x $(BIN)/robots-refresh ] || { echo "make: $(BIN)/robots-refresh is missing: run 'make build' first" >&2; exit 1; }
	$(BIN)/robots-refresh --init --data $(DATA)

# The demo: the loopback publisher web plays three outlets, and a fake of the YouTube Data
# API (127.0.0.30) three channels; the daily and hourly targets run against them at a fixed
# time into data/demo, then the web stops. The fake API's key is a throwaway one, given in
# the environment as a real key would be. Its publishers are on
# 127.0.0.x, so it allows 127.0.0.0/8 on purpose (pipeline/demo/network.csv). Replay it with
#   make replay DAY=2026-11-30 DATA=data/demo
DEMO_NOW := 2026-11-30T06:05:00Z
DEMO := data/demo
DEMO_PORT ?= 18421
# The demo web serves every file as last modified at this time, not at the checkout's file
# times, so two clones' demos give the same fetch.jsonl and state.json.
DEMO_MTIME := 2026-11-29T18:00:00Z
# The demo signs its requests, as every run does, with a throw-away key of its own: made
# once, outside the repository and readable by its owner only; the demo web verifies every
# request against it.
DEMO_KEY ?= $(or $(TMPDIR),/tmp)/huduku-demo-$(shell id -u)/signing-key.jwk
DEMO_YOUTUBE_KEY := demo-throwaway-key-not-a-real-one

demo: build
	@! (exec 3<>/dev/tcp/127.0.0.21/$(DEMO_PORT)) 2>/dev/null || { echo "make demo: port $(DEMO_PORT) is taken (another demo running?); $(DEMO) left as it was. Try DEMO_PORT=…" >&2; exit 1; }
	rm -rf $(DEMO) && $(BIN)/robots-refresh --init --data $(DEMO)
	[ -f $(DEMO_KEY) ] || $(BIN)/signing-key new $(DEMO_KEY) >/dev/null
	$(BIN)/signing-key jwks $(DEMO_KEY) > $(DEMO)/signing-keys.jwks
	$(BIN)/loopback-web --sites tests/web/demo --port $(DEMO_PORT) --log $(DEMO)/requests.jsonl --ready $(DEMO)/web.port --fixed-mtime $(DEMO_MTIME) --keys $(DEMO)/signing-keys.jwks & \
	web=$$!; trap 'kill $$web 2>/dev/null; wait $$web 2>/dev/null || true' EXIT; \
	for i in $$(seq 100); do [ -f $(DEMO)/web.port ] && break; kill -0 $$web || exit 1; sleep 0.1; done; \
	port=$$(cat $(DEMO)/web.port); \
	sed "s/{{port}}/$$port/g" pipeline/demo/sources.csv > $(DEMO)/sources.csv; \
	cp pipeline/demo/network.csv $(DEMO)/network.csv; \
	export HUDUKU_SIGNING_KEY=$(DEMO_KEY); \
	cp pipeline/demo/channels.csv $(DEMO)/channels.csv; \
	export HUDUKU_YOUTUBE_KEY=$(DEMO_YOUTUBE_KEY) HUDUKU_YOUTUBE_API=http://127.0.0.30:$$port/youtube/v3/; \
	$(MAKE) --no-print-directory daily NOW=$(DEMO_NOW) DATA=$(DEMO) SOURCES=$(DEMO)/sources.csv NETWORK=$(DEMO)/network.csv; \
	$(MAKE) --no-print-directory hourly NOW=$(DEMO_NOW) DATA=$(DEMO) SOURCES=$(DEMO)/sources.csv NETWORK=$(DEMO)/network.csv CHANNELS=$(DEMO)/channels.csv
	@echo "open data: $(DEMO)/site/data/"
	@echo "requests: $(DEMO)/requests.jsonl"
	@echo "page: $(DEMO)/site/index.html"
	@echo "videos: $(DEMO)/site/en/videos.html"

# Lighthouse's four scores (performance, accessibility, best practices, SEO) for the demo
# site's three front pages, a day's page, the outlets page and How Huduku fetches, served
# over loopback HTTP (python3's http.server on 127.0.0.1) and published again for that
# address (--base-url) into $(LIGHTHOUSE_DIR)/out: the demo itself is only read. Fails below
# 100 for accessibility, best practices or SEO, or below 90 for performance. Lighthouse,
# pinned, is installed from the npm registry into $(LIGHTHOUSE_DIR) (needs node 18.16+);
# Chromium is CHROME_PATH, default /usr/bin/chromium. Makes the demo first if there is none.
# Where java is installed, every page is also checked with the Nu HTML Checker (vnu-jar).
LIGHTHOUSE_VERSION := 12.8.2
VNU_VERSION := 26.9.27
LIGHTHOUSE_DIR := $(CARGO_TARGET_DIR)/lighthouse
lighthouse: build
	@[ -f $(DEMO)/site/index.html ] || $(MAKE) --no-print-directory demo
	scripts/lighthouse.sh $(BIN) $(DEMO) $(PIPELINE) $(DEMO)/sources.csv $(DEMO_NOW) $(LIGHTHOUSE_DIR) $(LIGHTHOUSE_VERSION) $(VNU_VERSION)

# The open-data tests check site/data with the real Frictionless validator, from a venv the
# script makes once (target/venv-frictionless; python3 and PyPI the first time).
test:
	scripts/frictionless-venv.sh
	$(CARGO) test --release --quiet -- --test-threads=8

# The classifier scored on the labelled headlines in tests/eval (the category hidden):
# accuracy and per-topic precision and recall per language, as docs/topics.md shows them.
# Then the stories' grouping on the labelled stories in tests/eval/stories (publish's own
# grouping, with PIPELINE's glossary): pairwise precision and recall and B-cubed F1 within
# Kannada, within English and across the two, each labelled file (the development set, the
# held-out set) scored alone, as docs/stories.md shows them.
eval: build
	$(BIN)/classify --eval tests/eval --pipeline $(PIPELINE)
	$(BIN)/publish --eval-stories tests/eval/stories --pipeline $(PIPELINE)

bench:
	$(CARGO) bench --bench pipeline
	$(CARGO) bench --bench topics
	$(CARGO) bench --bench stories

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
