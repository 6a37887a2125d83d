# Mutation testing of the project's own code (`wiremutate`, Sources/Tools/MutationKit; docs/mutation.md).
#   make mutation                               every mutant (hours: see the README's figures)
#   make mutation MUTATION_ARGS="--sample 60 --seed 7 --layer runtime"
#   make mutation-ci                            the bounded sample CI runs; fails below 95 % (its own
#                                               results folder, so it never truncates a long run's verdicts)
#   make mutation-ci MUTATION_CI_PLACE=--in-place  (CI) judged in the working tree itself, whose build
#                                               the test leg left current, not in a scratch copy built
#                                               from nothing; refused unless git reports the tree clean,
#                                               and git undoes each mutant there: edit nothing meanwhile
#   make coverage                               every suite with line coverage, then each layer's mutants
#                                               on lines no test executed (they survive whatever is asserted)
MUTATION_CI_PLACE ?=
MUTATION_CI_ARGS ?= --sample 8 --seed 1 --min-score 95 --scratch .scratch/mutation-ci $(MUTATION_CI_PLACE)

COVERAGE_SCRATCH ?= .scratch/coverage
# The toolchain's llvm-cov reads the toolchain's profile format (Debian's llvm-cov may not).
LLVM_COV ?= $(dir $(realpath $(shell command -v $(SWIFT))))llvm-cov

.PHONY: mutation mutation-ci mutation-tool coverage
mutation-tool: ## build the mutation tool (wiremutate)
	$(SWIFT) build --product wiremutate
mutation: setup mutation-tool ## mutation testing of the project's code (MUTATION_ARGS)
	$(SWIFT) run --skip-build wiremutate $(MUTATION_ARGS)
mutation-ci: setup mutation-tool ## the bounded mutation sample CI runs
	$(SWIFT) run --skip-build wiremutate $(MUTATION_CI_ARGS)
coverage: setup mutation-tool ## every suite with line coverage; each layer's mutants on lines no test executed
	$(SWIFT) build --build-tests --enable-code-coverage --scratch-path $(COVERAGE_SCRATCH)
	rm -f $(COVERAGE_SCRATCH)/debug/codecov/*.profraw
	WIREPROOF_ROOT="$(CURDIR)" $(SWIFT) test --skip-build --enable-code-coverage --scratch-path $(COVERAGE_SCRATCH)
	$(LLVM_COV) export -format=lcov -instr-profile $(COVERAGE_SCRATCH)/debug/codecov/default.profdata \
		$(COVERAGE_SCRATCH)/debug/WireproofPackageTests.xctest > $(COVERAGE_SCRATCH)/suite.lcov
	$(SWIFT) run --skip-build wiremutate coverage $(COVERAGE_SCRATCH)/suite.lcov
