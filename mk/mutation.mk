# Mutation testing of the project's own code (scripts/mutation.py, docs/mutation.md).
#   make mutation                               every mutant (hours: see the README's figures)
#   make mutation MUTATION_ARGS="--sample 60 --seed 7 --layer runtime"
#   make mutation-ci                            the bounded sample CI runs; fails below 95 % (its own
#                                               scratch copy, so it never truncates a long run's verdicts)
# universalmutator (PyPI) is installed, pinned, into a virtual environment under .deps/.
MUTATION_VENV := .deps/mutation-venv
MUTATION_TOOL := universalmutator==1.14.1
MUTATION_CI_ARGS ?= --sample 8 --seed 1 --min-score 95 --scratch .scratch/mutation-ci

.PHONY: mutation mutation-ci mutation-tool
mutation-tool: ## install the pinned mutation tool into .deps/
	@[ -x $(MUTATION_VENV)/bin/python ] || python3 -m venv $(MUTATION_VENV)
	@$(MUTATION_VENV)/bin/python -c 'import universalmutator' 2>/dev/null || \
		$(MUTATION_VENV)/bin/pip install --quiet --disable-pip-version-check '$(MUTATION_TOOL)'
mutation: setup mutation-tool ## mutation testing of the project's code (MUTATION_ARGS)
	$(MUTATION_VENV)/bin/python scripts/mutation.py $(MUTATION_ARGS)
mutation-ci: setup mutation-tool ## the bounded mutation sample CI runs
	$(MUTATION_VENV)/bin/python scripts/mutation.py $(MUTATION_CI_ARGS)
