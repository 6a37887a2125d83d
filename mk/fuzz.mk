# Fuzzing (issue 8): libFuzzer targets in Fuzz/ (decode, differential, structure), corpus in
# Corpus/, work in .scratch/fuzz/. See docs/fuzzing.md.
#   make fuzz TARGET=differential SECONDS=300   a campaign: progress, end report, coverage plot
#   make fuzz-smoke                             every target FUZZ_SMOKE_SECONDS, regression replay,
#                                               ClusterFuzzLite build.sh (the CI leg)
#   make fuzz-minimize TARGET=decode            merge a campaign's corpus down
#   make fuzz-triage TARGET=decode FILE=crash   triage folder for one input
#   make fuzz-corpus                            regenerate Corpus/seeds and Corpus/wireproof.dict
TARGET ?= decode
SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 30

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-minimize fuzz-triage fuzz-corpus
fuzz: fuzz-build
	@bash scripts/fuzz.sh run "$(TARGET)" "$(SECONDS)"
fuzz-build: setup
	@bash scripts/fuzz.sh build
fuzz-smoke: setup
	@bash scripts/fuzz.sh smoke "$(FUZZ_SMOKE_SECONDS)"
fuzz-minimize: fuzz-build
	@bash scripts/fuzz.sh minimize "$(TARGET)"
fuzz-triage: fuzz-build
	@bash scripts/fuzz.sh triage "$(TARGET)" "$(FILE)"
fuzz-corpus: fuzz-build
	@bash scripts/fuzz.sh corpus
