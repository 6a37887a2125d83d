# The SwiftProtobuf peer (Peers/SwiftProtobuf, a package of its own: nothing that depends on the
# shipped layer resolves swift-protobuf). See docs/swiftprotobuf.md.
#   make swiftprotobuf-plugin        build protoc-gen-swift 1.38.1 (prints its path)
#   make conformance                 runs Google's suite against the SwiftProtobuf host too
.PHONY: swiftprotobuf-plugin
swiftprotobuf-plugin: setup ## build protoc-gen-swift 1.38.1 for the SwiftProtobuf peer (prints its path)
	@bash scripts/swiftprotobuf-peer.sh plugin
