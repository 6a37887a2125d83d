# The SwiftProtobuf peer (Peers/SwiftProtobuf, a package of its own: nothing that depends on the
# shipped layer resolves swift-protobuf), driven by `wireproof swiftprotobuf-peer`. See docs/swiftprotobuf.md.
#   make swiftprotobuf-plugin        build protoc-gen-swift 1.38.1 (prints its path)
#   make conformance                 runs Google's suite against the SwiftProtobuf host too
#   make migration-sample            the migration sample built against SwiftProtobuf, held to its transcript
.PHONY: swiftprotobuf-plugin
swiftprotobuf-plugin: setup ## build protoc-gen-swift 1.38.1 for the SwiftProtobuf peer (prints its path)
	@$(SWIFT) build --product wireproof >&2
	@$(SWIFT) run --skip-build wireproof swiftprotobuf-peer plugin

# Typical SwiftProtobuf calls (Tests/MigrationSampleTests/MovingFromSwiftProtobuf.swift) built
# against SwiftProtobuf and run: it must print the transcript MigrationSampleTests holds the
# facades' build of the same file to.
.PHONY: migration-sample
migration-sample: setup ## the migration sample against SwiftProtobuf prints what it prints through the facades
	@$(SWIFT) build --product wireproof >&2
	@$(SWIFT) run --skip-build wireproof swiftprotobuf-peer migration-sample
