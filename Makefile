# Wireproof entry points. Every target that needs third-party pieces runs `setup` first; setup is
# idempotent and takes well under a second once done.
SHELL := /bin/bash
SWIFT ?= swift

.PHONY: setup test
setup:
	@bash scripts/setup.sh

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test
