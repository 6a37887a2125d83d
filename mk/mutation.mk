# Mutation testing of the project's own code (`wiremutate`, Sources/Tools/MutationKit; docs/mutation.md).
#   make mutation                               every mutant (hours: see the README's figures)
#   make mutation MUTATION_ARGS="--sample 60 --seed 7 --layer runtime"
#   make mutation-ci                            the bounded sample CI runs; fails below 95 % (its own
#                                               scratch copy, so it never truncates a long run's verdicts)
MUTATION_CI_ARGS ?= --sample 8 --seed 1 --min-score 95 --scratch .scratch/mutation-ci

.PHONY: mutation mutation-ci mutation-tool
mutation-tool: ## build the mutation tool (wiremutate)
	$(SWIFT) build --product wiremutate
mutation: setup mutation-tool ## mutation testing of the project's code (MUTATION_ARGS)
	$(SWIFT) run --skip-build wiremutate $(MUTATION_ARGS)
mutation-ci: setup mutation-tool ## the bounded mutation sample CI runs
	$(SWIFT) run --skip-build wiremutate $(MUTATION_CI_ARGS)
