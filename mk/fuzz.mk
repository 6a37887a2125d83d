# Fuzzing (docs/fuzzing.md): libFuzzer targets in Fuzz/ (decode, differential, structure), corpus in
# Corpus/, work in .scratch/fuzz/, driven by `wireproof fuzz` (ProveKit/Fuzz). See docs/fuzzing.md.
#   make fuzz TARGET=differential SECONDS=300   a campaign: progress, end report, coverage plot
#   make fuzz-smoke                             every target FUZZ_SMOKE_SECONDS, regression replay,
#                                               ClusterFuzzLite build.sh (the CI leg)
#   make fuzz-minimize TARGET=decode            merge a campaign's corpus down
#   make fuzz-triage TARGET=decode FILE=crash   triage folder for one input
#   make fuzz-corpus                            regenerate Corpus/seeds and Corpus/wireproof.dict
TARGET ?= decode
SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 30
# The debug `wireproof` of this tree (built by fuzz-tool).
FUZZ = $(SWIFT) run --skip-build wireproof fuzz

.PHONY: fuzz fuzz-tool fuzz-build fuzz-smoke fuzz-minimize fuzz-triage fuzz-corpus
fuzz-tool: setup
	@$(SWIFT) build --product wireproof >&2
fuzz: fuzz-build ## a libFuzzer campaign (TARGET, SECONDS)
	@$(FUZZ) run "$(TARGET)" "$(SECONDS)"
fuzz-build: fuzz-tool ## build the fuzz targets
	@$(FUZZ) build
fuzz-smoke: fuzz-tool ## every target briefly, regression replay, ClusterFuzzLite build (CI leg)
	@$(FUZZ) smoke "$(FUZZ_SMOKE_SECONDS)"
fuzz-minimize: fuzz-build ## merge a campaign's corpus down (TARGET)
	@$(FUZZ) minimize "$(TARGET)"
fuzz-triage: fuzz-build ## a triage folder for one input (TARGET, FILE)
	@$(FUZZ) triage "$(TARGET)" "$(FILE)"
fuzz-corpus: fuzz-build ## regenerate Corpus/seeds and the dictionary
	@$(FUZZ) corpus
