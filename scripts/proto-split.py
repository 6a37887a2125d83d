"""Split a protoc FileDescriptorSet into one set per file for nanopb's generator, as the plan says.

Usage: /usr/bin/python3 scripts/proto-split.py FULL_SET.pb PLAN.json OUT_DIR OPTIONS_OUT

PLAN.json is `protogen plan` output (Sources/Tools/ProtoGenKit/FacadePlan.swift): `cFiles`
(the files whose C this target holds, dependency first), `cIncludes` (every file that has C,
here or in an external module), `cRenames` and `nanopbOptionsFile`. nanopb 0.4.7 writes C only
for the *last* file of each set, so for each file of `cFiles` this writes OUT_DIR/NNNN.pb holding
the file and its dependencies, the file last, and prints the file names, one a line. Each file
handed to nanopb is the plan's view of it:
  - C renames applied (Naming.cIdentifier: a field, oneof or package-less top-level type named
    like a C/C++ keyword gets `_`), with every reference to a renamed type updated;
  - dependencies without C dropped (option-only imports such as descriptor.proto, nanopb.proto),
    so no header includes a file that was not generated;
  - every extension declaration (custom options, and the schema's own extensions, which the plan
    skips and lists) and every option value the schema sets dropped: nanopb sees only what OPTIONS_OUT (the plan's options file) says.
Runs on Debian's /usr/bin/python3, which has python3-protobuf.
"""
import json
import os
import sys

from google.protobuf import descriptor_pb2


def main():
    full_path, plan_path, out_dir, options_out = sys.argv[1:5]
    with open(full_path, "rb") as f:
        full = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    by_name = {fd.name: fd for fd in full.file}
    order = [fd.name for fd in full.file]
    has_c = set(plan["cIncludes"])

    field_renames = {(r["scope"], r["proto"]): r["c"] for r in plan["cRenames"] if r["kind"] == "field"}
    oneof_renames = {(r["scope"], r["proto"]): r["c"] for r in plan["cRenames"] if r["kind"] == "oneof"}
    type_renames = {"." + r["scope"]: "." + r["c"] for r in plan["cRenames"] if r["kind"] == "type"}

    def renamed_type(name):
        for old, new in type_renames.items():
            if name == old or name.startswith(old + "."):
                return new + name[len(old):]
        return name

    def rewrite_message(msg, full_name):
        del msg.extension[:]  # custom options or skipped extensions: nanopb sees none
        for field in msg.field:
            field.name = field_renames.get((full_name, field.name), field.name)
            if field.type_name:
                field.type_name = renamed_type(field.type_name)
        for oneof in msg.oneof_decl:
            oneof.name = oneof_renames.get((full_name, oneof.name), oneof.name)
        for nested in msg.nested_type:
            rewrite_message(nested, full_name + "." + nested.name)

    def rewritten(name):
        fd = descriptor_pb2.FileDescriptorProto()
        fd.CopyFrom(by_name[name])
        fd.DiscardUnknownFields()  # option values of custom options, (nanopb) annotations included
        prefix = fd.package + "." if fd.package else ""
        for msg in fd.message_type:
            rewrite_message(msg, prefix + msg.name)
            if not fd.package:
                msg.name = type_renames.get("." + msg.name, "." + msg.name)[1:]
        for enum in fd.enum_type:
            if not fd.package:
                enum.name = type_renames.get("." + enum.name, "." + enum.name)[1:]
        # Custom options and the schema's own extensions alike: the plan skips extensions
        # (`protogen plan` lists them), so nanopb generates none.
        del fd.extension[:]
        old_deps = list(fd.dependency)
        public = {old_deps[i] for i in fd.public_dependency}
        weak = {old_deps[i] for i in fd.weak_dependency}
        deps = [d for d in old_deps if d in has_c]
        del fd.dependency[:], fd.public_dependency[:], fd.weak_dependency[:]
        fd.dependency.extend(deps)
        fd.public_dependency.extend(i for i, d in enumerate(deps) if d in public)
        fd.weak_dependency.extend(i for i, d in enumerate(deps) if d in weak)
        return fd

    for index, name in enumerate(plan["cFiles"]):
        if name not in by_name:
            sys.exit("proto-split: the plan names %s, which is not in %s" % (name, full_path))
        deps = set()
        stack = [d for d in by_name[name].dependency if d in has_c]
        while stack:
            dep = stack.pop()
            if dep not in deps:
                deps.add(dep)
                stack.extend(d for d in by_name[dep].dependency if d in has_c)
        subset = descriptor_pb2.FileDescriptorSet()
        subset.file.extend(rewritten(n) for n in order if n in deps and n != name)
        subset.file.append(rewritten(name))
        with open(os.path.join(out_dir, "%04d.pb" % index), "wb") as f:
            f.write(subset.SerializeToString(deterministic=True))
        print(name)

    with open(options_out, "w", encoding="utf-8") as f:
        f.write("# Written by scripts/proto-split.py from the generation plan; nanopb reads only this.\n")
        for line in plan["nanopbOptionsFile"]:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
