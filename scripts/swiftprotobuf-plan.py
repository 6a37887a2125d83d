"""Which files of a descriptor set protoc-gen-swift must generate for the SwiftProtobuf peer.

Usage: swiftprotobuf-plan.py SET.pb
Prints "generate NAME" for every file SwiftProtobuf does not ship compiled, and "shipped SWIFT_TYPE"
for every message type of the files it does ship (the well-known types), so the peer's registry
names SwiftProtobuf's own type for them. descriptor.proto is generated like any other file:
SwiftProtobuf ships a newer revision of it (Editions fields), and judging the set's own revision
through another would report schema differences as codec differences. The well-known types cannot
be generated outside SwiftProtobuf (Any's generated code uses its internal storage) and have not
changed between the two revisions. Runs on Debian's python3-protobuf.
"""
import sys

from google.protobuf import descriptor_pb2

# The well-known types, whose Swift code is part of the SwiftProtobuf 1.38.1 library itself.
SHIPPED = {
    "google/protobuf/" + name + ".proto"
    for name in ("any", "api", "duration", "empty", "field_mask", "source_context", "struct",
                 "timestamp", "type", "wrappers")
}


def swift_names(prefix, messages):
    """SwiftProtobuf's names of `messages` and their nested types (map entries have none)."""
    for message in messages:
        if message.options.map_entry:
            continue
        name = prefix + message.name
        yield name
        yield from swift_names(name + ".", message.nested_type)


def main():
    descriptor_set = descriptor_pb2.FileDescriptorSet()
    with open(sys.argv[1], "rb") as f:
        descriptor_set.ParseFromString(f.read())
    for file in descriptor_set.file:
        if file.name in SHIPPED:
            for name in swift_names("Google_Protobuf_", file.message_type):
                print("shipped " + name)
        else:
            print("generate " + file.name)


if __name__ == "__main__":
    main()
