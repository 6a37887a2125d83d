# Fuzzing (docs/fuzzing.md): libFuzzer targets in Fuzz/ (decode, differential, structure), corpus in
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
fuzz: fuzz-build ## a libFuzzer campaign (TARGET, SECONDS)
	@bash scripts/fuzz.sh run "$(TARGET)" "$(SECONDS)"
fuzz-build: setup ## build the fuzz targets
	@bash scripts/fuzz.sh build
fuzz-smoke: setup ## every target briefly, regression replay, ClusterFuzzLite build (CI leg)
	@bash scripts/fuzz.sh smoke "$(FUZZ_SMOKE_SECONDS)"
fuzz-minimize: fuzz-build ## merge a campaign's corpus down (TARGET)
	@bash scripts/fuzz.sh minimize "$(TARGET)"
fuzz-triage: fuzz-build ## a triage folder for one input (TARGET, FILE)
	@bash scripts/fuzz.sh triage "$(TARGET)" "$(FILE)"
fuzz-corpus: fuzz-build ## regenerate Corpus/seeds and the dictionary
	@bash scripts/fuzz.sh corpus
