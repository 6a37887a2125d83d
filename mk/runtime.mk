# Runtime checks (issue 9): the test-only wide schema, valgrind, planted-bug demonstrations.
# See docs/shipped-layer.md and docs/sanitizers.md.

# Regenerate the 5,000-field test-only schema (Tests/Fixtures/WideSchema, C in Tests/WideSchemaC).
.PHONY: wide-schema check-wide-schema
wide-schema: setup
	@bash scripts/wide-schema.sh
check-wide-schema: setup
	@bash scripts/wide-schema.sh --check
