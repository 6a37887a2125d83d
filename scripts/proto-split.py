"""Split a protoc FileDescriptorSet into one set per file, for nanopb's generator.

Usage: /usr/bin/python3 scripts/proto-split.py FULL_SET.pb OUT_DIR ROOT.proto...

nanopb 0.4.7's generator writes C only for the *last* file of each descriptor set it is given. The
C target needs every file the roots reach through imports (e.g. google/protobuf/timestamp.proto),
so for each such file this writes OUT_DIR/NNNN.pb holding the file and its dependencies, the file
last, and prints the file names, one a line, in the set's (dependency-first) order.
nanopb.proto (inline nanopb options) and whatever only it imports are left out: they configure the
generator and are not part of the schema.
Runs on Debian's /usr/bin/python3, which has python3-protobuf.
"""
import os
import sys

from google.protobuf import descriptor_pb2

SKIP = {"nanopb.proto"}


def walk_messages(fd):
    """Yields (full name, DescriptorProto) for every message of a file, nested ones included."""
    stack = [((fd.package + "." if fd.package else "") + m.name, m) for m in fd.message_type]
    while stack:
        name, msg = stack.pop(0)
        yield name, msg
        stack.extend((name + "." + n.name, n) for n in msg.nested_type)


def main():
    full_path, out_dir, roots = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(full_path, "rb") as f:
        full = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    by_name = {fd.name: fd for fd in full.file}
    order = [fd.name for fd in full.file]

    def closure(name, seen):
        if name in seen or name in SKIP:
            return
        seen.add(name)
        for dep in by_name[name].dependency:
            closure(dep, seen)

    wanted = set()
    for root in roots:
        if root not in by_name:
            sys.exit("proto-split: %s is not in %s" % (root, full_path))
        closure(root, wanted)

    # Refuse what nanopb cannot represent before its generator dies on it without naming the field
    # (proto2 groups end in "NotImplementedError: 10").
    refused = []
    for name in order:
        if name not in wanted:
            continue
        for msg_name, msg in walk_messages(by_name[name]):
            for field in msg.field:
                if field.type == descriptor_pb2.FieldDescriptorProto.TYPE_GROUP:
                    refused.append("%s: field %s.%s = %d is a group; groups cannot be represented "
                                   "(nanopb does not support them): use a nested message field"
                                   % (name, msg_name, field.name, field.number))
    if refused:
        sys.exit("\n".join("proto: refused: " + line for line in refused))

    index = 0
    for name in order:
        if name not in wanted:
            continue
        # Every transitive dependency, nanopb.proto included: the generator needs it to read
        # inline options; only its own C is skipped.
        deps = set()
        stack = list(by_name[name].dependency)
        while stack:
            dep = stack.pop()
            if dep not in deps:
                deps.add(dep)
                stack.extend(by_name[dep].dependency)
        subset = descriptor_pb2.FileDescriptorSet()
        subset.file.extend(by_name[n] for n in order if n in deps and n != name)
        subset.file.append(by_name[name])
        with open(os.path.join(out_dir, "%04d.pb" % index), "wb") as f:
            f.write(subset.SerializeToString(deterministic=True))
        print(name)
        index += 1


if __name__ == "__main__":
    main()
