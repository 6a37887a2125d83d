# Runtime checks (docs/sanitizers.md): the test-only wide schema, valgrind, planted-bug demonstrations.
# See docs/shipped-layer.md and docs/sanitizers.md.

# Regenerate the 5,000-field test-only schema (Tests/Fixtures/WideSchema, C in Tests/WideSchemaC).
.PHONY: wide-schema check-wide-schema
wide-schema: setup ## regenerate the 5,000-field test-only schema
	@bash scripts/wide-schema.sh
check-wide-schema: setup ## fail if the committed wide schema is stale
	@bash scripts/wide-schema.sh --check

# valgrind memcheck over runtime-exerciser (scripts/valgrind.sh): exemplars, mutations, fuzz
# regressions, hostile inputs, ownership paths; leaks and memory errors fail (scripts/valgrind.supp
# suppresses only the Swift runtime's one-time allocations). A CI leg (~2 min).
.PHONY: valgrind
valgrind: setup ## memcheck over runtime-exerciser; leaks and errors fail
	@bash scripts/valgrind.sh

# Peak resident memory of decoding the issue's hostile inputs through the facades, with the standard
# allocation budget and without one (scripts/peak-memory.sh). A measurement, not a test.
.PHONY: peak-memory
peak-memory: setup ## peak memory of decoding hostile inputs, with and without the budget
	@bash scripts/peak-memory.sh
