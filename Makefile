# Wireproof entry points. Every target that needs third-party pieces runs `setup` first; setup is
# idempotent and takes well under a second once done.
SHELL := /bin/bash
SWIFT ?= swift
# SwiftPM lists a dependency's trait defines (swift-protobuf has two) in hash order, which changes
# from one process to the next: each re-planned build (a rewritten manifest, e.g. prove's scratch
# package for every schema of check-foreign) then recompiled all of swift-protobuf (~25 s) for a
# command line that differed only in that order. Deterministic hashing keeps the order stable.
export SWIFT_DETERMINISTIC_HASHING := 1

.PHONY: setup test help
setup: ## install Debian packages, unpack nanopb and protobuf sources, SwiftPM mirrors (idempotent)
	@bash scripts/setup.sh

test: setup ## the README's test command: build and run every suite
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The main job (README): `wireproof prove` on PROTO_DIR (default: the bundled schema): oracle vs
# protoc, generate C + facades + catalog into a scratch package, build it, every exemplar through the
# facades vs the oracle, seeded decode mutation, deviation accounting. Prints progress, a table per
# file and a total; exits non-zero on any unexplained difference. PROVE_ARGS adds options, e.g.
#   make run PROTO_DIR=~/src/myapi/protos PROVE_ARGS="--random 1000 --json proof.json"
# `make oracle-check` runs step 1 alone (ORACLE_ARGS="--random 1000 --seed 7").
.PHONY: run oracle-check
run: setup ## the main job: wireproof prove on PROTO_DIR (default: the bundled schema)
	$(SWIFT) build --product wireproof
	$(SWIFT) run --skip-build wireproof prove --proto-dir "$(PROTO_DIR)" $(PROVE_ARGS)
oracle-check: setup ## the oracle against protoc alone (ORACLE_ARGS)
	$(SWIFT) run -c release wireproof oracle-check --proto-dir "$(PROTO_DIR)" $(ORACLE_ARGS)

# --- Schema generation (protogen generate) ----------------------------------------------------------
# `make proto` turns PROTO_DIR's .proto files into a C target (nanopb, every field FT_POINTER) in C_OUT
# and Swift facades in SWIFT_OUT, in one process (`protogen generate --help`). Point it at your tree:
#   make proto PROTO_DIR=~/src/myapi/protos C_OUT=Sources/MyAPIC SWIFT_OUT=Sources/MyAPI
# PRUNE lists source folders: facades only for the types they spell (empty: every type).
# NANOPB_OPTIONS: nanopb options file for every file (empty: the one *.options at PROTO_DIR's top).
# LIMITS_FROM_OPTIONS=1: the facades carry the limits the schema's options give the device's nanopb
# build, and deviceLimitViolations() (docs/device.md).
# DESCRIPTOR_OUT: also keep the protoc descriptor set there. SWIFT_BUILD_FLAGS (environment or
# variable) goes to `swift run`.
# CATALOG_OUT: the schema's catalog module for the proof, written from the same plan. Left empty,
# `wireproof generate` decides (BundledSchemaLayout): Sources/Generated/BundledProtoCatalog for the
# bundled schema (PROTO_DIR, SWIFT_OUT and PRUNE left alone) and none otherwise, so generating your
# own schema never rewrites the package's targets (`wireproof prove` makes the catalog of your
# schema in its own scratch package).
PROTO_DIR ?= Protos
C_OUT ?= Sources/Generated/BundledProtoC
C_MODULE ?= $(notdir $(C_OUT))
SWIFT_OUT ?= Sources/Generated/BundledProto
PRUNE ?=
NANOPB_OPTIONS ?=
LIMITS_FROM_OPTIONS ?=
CATALOG_OUT ?=
PROTO_ARGS = --proto-dir "$(PROTO_DIR)" --c-out "$(C_OUT)" --c-module "$(C_MODULE)" \
	--swift-out "$(SWIFT_OUT)" $(if $(strip $(PRUNE)),--prune-sources $(PRUNE)) \
	$(if $(strip $(NANOPB_OPTIONS)),--options "$(NANOPB_OPTIONS)") $(if $(strip $(LIMITS_FROM_OPTIONS)),--limits-from-options) \
	$(if $(strip $(DESCRIPTOR_OUT)),--descriptor-out "$(DESCRIPTOR_OUT)") --hint-package-root "$(CURDIR)"
export SWIFT SWIFT_BUILD_FLAGS

.PHONY: proto proto-c check-protocol check-foreign check-nanopb-symbols
proto: setup ## PROTO_DIR's .proto files to a nanopb C target and Swift facades (C_OUT, SWIFT_OUT, PRUNE)
	$(SWIFT) run $(SWIFT_BUILD_FLAGS) wireproof generate $(PROTO_ARGS) $(if $(strip $(CATALOG_OUT)),--catalog-out "$(CATALOG_OUT)")

# The C half alone (protoc + nanopb), without the Swift facade generator.
proto-c: setup ## the C half of make proto alone
	$(SWIFT) run $(SWIFT_BUILD_FLAGS) protogen generate --c-only $(PROTO_ARGS)

# CI: regenerate the bundled schema into .scratch/ and fail if it differs from the committed output.
# `wireproof check-protocol`: the same knobs as make proto; it also runs nanopb-symbols --check.
check-protocol: setup ## regenerate the bundled schema into .scratch/, fail if committed output differs
	@$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product wireproof >&2
	@$(SWIFT) run $(SWIFT_BUILD_FLAGS) --skip-build wireproof check-protocol --proto-dir "$(PROTO_DIR)" --c-out "$(C_OUT)" \
		--c-module "$(C_MODULE)" --swift-out "$(SWIFT_OUT)" $(if $(strip $(CATALOG_OUT)),--catalog-out "$(CATALOG_OUT)") $(if $(strip $(PRUNE)),--prune-sources $(PRUNE)) \
		$(if $(strip $(NANOPB_OPTIONS)),--options "$(NANOPB_OPTIONS)") $(if $(strip $(LIMITS_FROM_OPTIONS)),--limits-from-options)

# `wireproof prove` on public schemas the project never wrote (the corpus under .deps/foreign), the
# refusals and the device crash they must meet, two schemas linked into one program
# (docs/foreign-schemas.md). FOREIGN_ARGS: e.g. --only nanopb-map, --mutants 16.
check-foreign: setup ## wireproof prove on public schemas the project never wrote
	@$(SWIFT) build --product wireproof >&2
	@$(SWIFT) run --skip-build wireproof check-foreign $(FOREIGN_ARGS)

# The pb_* -> wp_pb_* rename list covers every symbol the nanopb runtime exports.
# `wireproof nanopb-symbols --write` rewrites the list (after a nanopb upgrade).
check-nanopb-symbols: setup ## the wp_pb_ rename list covers every nanopb symbol
	@$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product wireproof >&2
	@$(SWIFT) run $(SWIFT_BUILD_FLAGS) --skip-build wireproof nanopb-symbols --check

# Google's conformance suite against the facades (binary proto3), with Conformance/failure_list.txt,
# and against a SwiftProtobuf host (Peers/SwiftProtobuf) with Conformance/swiftprotobuf_failure_list.txt
# (`wireproof conformance`, Sources/Tools/ProveKit/Conformance; knobs: `wireproof conformance --help`).
.PHONY: conformance
conformance: setup ## Google's conformance suite against the facades
	@$(SWIFT) build --product wireproof >&2
	@$(SWIFT) run --skip-build wireproof conformance

# Size and speed figures of the shipped layer, measured side by side in one run (`wirebench run`,
# Sources/Tools/BenchReport/Run): runtime lines, facade bytes per message, binary contribution, facade
# vs oracle encode/decode, facades / nanopb C / libprotobuf / SwiftProtobuf, fuzz fixed-input rate,
# peak memory. Builds in .scratch/bench and BENCH_TMP (/tmp/wp-bench); writes its summary into
# docs/measurements.md. Knobs (environment): `wirebench run --help`.
BENCH_TMP ?= /tmp/wp-bench
.PHONY: bench
bench: setup ## size and speed side by side in one run (docs/measurements.md)
	@mkdir -p "$(BENCH_TMP)" && $(SWIFT) build --scratch-path "$(BENCH_TMP)/protogen" --product wirebench \
	  > "$(BENCH_TMP)/wirebench-build.log" 2>&1 || \
	  { tail -20 "$(BENCH_TMP)/wirebench-build.log"; echo "bench: wirebench does not build" >&2; exit 1; }
	@BENCH_TMP="$(BENCH_TMP)" "$$($(SWIFT) build --scratch-path "$(BENCH_TMP)/protogen" --show-bin-path)/wirebench" run

# The tests under sanitizers (scripts/sanitize.sh): ASan+LSan over every suite, UBSan on the C
# targets; TSan (halting on
# the first report) over the runtime and facade suites, concurrency stress included.
.PHONY: asan tsan
asan: setup ## every suite but the protoc cross-check under ASan + LSan, UBSan on the C targets
	@bash scripts/sanitize.sh asan
tsan: setup ## runtime suites under TSan, halt_on_error=1
	@bash scripts/sanitize.sh tsan

# Entry points of each area live in a fragment of their own (mk/*.mk), so areas do not collide.
-include $(sort $(wildcard mk/*.mk))

# Every target with a `## ` note on its line, from this Makefile and mk/*.mk.
help: ## this list
	@echo "make targets (details in the comment above each, and in README.md):"
	@grep -hE '^[a-z][a-z0-9-]*:.*## ' Makefile mk/*.mk | sed -E 's/^([a-z0-9-]+):.*## (.*)$$/\1|\2/' | \
	  awk -F'|' '{ printf "  %-22s %s\n", $$1, $$2 }'
