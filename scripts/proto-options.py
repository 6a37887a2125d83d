"""List the nanopb options a schema's own sources set, for `protogen plan --nanopb-options`.

Usage: /usr/bin/python3 scripts/proto-options.py NANOPB_GENERATOR_DIR FULL_SET.pb PROTO_DIR
           [--options FILE] [--search DIR]... > report.json

Sources, as nanopb's generator reads them: `--options FILE` applies to every file; otherwise
each file F uses `<F without .proto>.options` found under PROTO_DIR or a --search root; inline
`(nanopb)`, `(nanopb_msgopt)`, `(nanopb_enumopt)`, `(nanopb_fileopt)` annotations (through
`import "nanopb.proto"`) come from the descriptor set. Options are resolved with nanopb's own
rules (fnmatch patterns on dotted names, inheritance file -> message -> field / oneof / nested
enum) and compared with what the generator gets without them (`type:FT_POINTER` for every
field); each element whose effective option differs is listed once, with its kind:

  [{"file": "mesh.proto", "element": "pkg.Msg.field", "kind": "field", "option": "int_size",
    "value": "IS_8", "source": "mesh.options:3"}, ...]

Deciding what to do with them is the plan's job (Sources/Tools/ProtoGenKit/NanopbOptions.swift).
Runs on Debian's /usr/bin/python3 (python3-protobuf).
"""
import json
import os
import re
import sys
from fnmatch import fnmatchcase

# The option each kind of element reports; inherited options are reported where they act.
FIELD = {"type", "int_size", "max_size", "max_length", "max_count", "fixed_length", "fixed_count",
         "callback_datatype", "callback_function", "type_override", "submsg_callback",
         "proto3_singular_msgs", "default_has", "descriptorsize", "fallback_type"}
ONEOF = {"anonymous_oneof", "no_unions", "sort_by_tag"}
MESSAGE = {"packed_struct", "skip_message", "msgid"}
ENUM = {"long_names", "packed_enum", "enum_to_string"}
# Everything else is reported on the file.


def main():
    args = sys.argv[1:]
    generator_dir, set_path, proto_dir = args[0], args[1], args[2]
    rest = args[3:]
    global_options, search = None, []
    while rest:
        flag = rest.pop(0)
        if flag == "--options":
            global_options = rest.pop(0)
        elif flag == "--search":
            search.append(rest.pop(0))
        else:
            sys.exit("proto-options: unknown argument %s" % flag)

    sys.path.insert(0, generator_dir)
    import proto  # nanopb's generator/proto package; its loader builds nanopb_pb2.py if missing
    nanopb_pb2 = proto.load_nanopb_pb2()  # registers the (nanopb) extensions before parsing
    from google.protobuf import descriptor_pb2, text_format

    with open(set_path, "rb") as f:
        full = descriptor_pb2.FileDescriptorSet.FromString(f.read())

    def read_options(path, shown):
        """[(mask, NanoPBOptions, "shown:line")], as nanopb's read_options_file parses them."""
        with open(path, encoding="utf-8") as f:
            data = f.read()
        data = re.sub(r'/\*.*?\*/', '', data, flags=re.MULTILINE)
        data = re.sub(r'//.*?$', '', data, flags=re.MULTILINE)
        data = re.sub(r'#.*?$', '', data, flags=re.MULTILINE)
        entries = []
        for number, line in enumerate(data.split("\n"), 1):
            line = line.strip()
            if not line:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                sys.exit("proto-options: %s:%d: no space between name and options" % (shown, number))
            opts = nanopb_pb2.NanoPBOptions()
            try:
                text_format.Merge(parts[1], opts)
            except Exception as error:  # text_format raises several types
                sys.exit("proto-options: %s:%d: unparsable options '%s': %s" % (shown, number, parts[1], error))
            entries.append((parts[0], opts, "%s:%d" % (shown, number)))
        return entries

    def options_for(file_name):
        if global_options:
            return read_options(global_options, os.path.basename(global_options))
        wanted = os.path.splitext(file_name)[0] + ".options"
        for root in [proto_dir] + search:
            path = os.path.join(root, wanted)
            if os.path.isfile(path):
                return read_options(path, wanted)
        return []

    baseline_top = nanopb_pb2.NanoPBOptions()
    baseline_top.type = nanopb_pb2.FT_POINTER
    inline_ext = {
        descriptor_pb2.FieldOptions: nanopb_pb2.nanopb,
        descriptor_pb2.FileOptions: nanopb_pb2.nanopb_fileopt,
        descriptor_pb2.MessageOptions: nanopb_pb2.nanopb_msgopt,
        descriptor_pb2.EnumOptions: nanopb_pb2.nanopb_enumopt,
    }

    def sub(desc, parent, dotname, separate, with_sources):
        """nanopb's get_nanopb_suboptions: parent, then matching options-file lines, then inline."""
        opts = nanopb_pb2.NanoPBOptions()
        opts.CopyFrom(parent)
        sources = []
        if with_sources:
            for mask, entry, where in separate:
                if fnmatchcase(dotname, mask):
                    opts.MergeFrom(entry)
                    sources.append((entry, where))
            ext = inline_ext[type(desc.options)]
            if desc.options.HasExtension(ext):
                opts.MergeFrom(desc.options.Extensions[ext])
                sources.append((desc.options.Extensions[ext], "(nanopb) annotation"))
        return opts, sources

    report = []

    def value_text(opts, name):
        field = opts.DESCRIPTOR.fields_by_name[name]
        value = getattr(opts, name)
        if field.label == field.LABEL_REPEATED:
            return ", ".join(json.dumps(v) for v in value)
        if field.enum_type is not None:
            return field.enum_type.values_by_number[value].name
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return json.dumps(value)
        return str(value)

    def compare(file_name, element, kind, effective, baseline, source_chain, wanted):
        for field in effective.DESCRIPTOR.fields:
            name = field.name
            if name == "proto3" or (wanted is not None and name not in wanted):
                continue
            if wanted is None and name in FIELD | ONEOF | MESSAGE | ENUM:
                continue
            if getattr(effective, name) == getattr(baseline, name):
                continue
            if kind == "oneof" and name == "type" and value_text(effective, name) != "FT_IGNORE":
                continue
            where = [w for sources in source_chain for (entry, w) in sources if entry.HasField(name)
                     or (field.label == field.LABEL_REPEATED and len(getattr(entry, name)) > 0)]
            report.append({"file": file_name, "element": element, "kind": kind, "option": name,
                           "value": value_text(effective, name), "source": ", ".join(dict.fromkeys(where)) or "?"})

    for fd in full.file:
        if fd.name in ("nanopb.proto", "google/protobuf/descriptor.proto"):
            continue
        separate = options_for(fd.name)
        has_inline = "nanopb.proto" in fd.dependency
        if not separate and not has_inline:
            continue
        file_eff, file_src = sub(fd, baseline_top, fd.name, separate, True)
        file_base, _ = sub(fd, baseline_top, fd.name, [], False)
        compare(fd.name, fd.name, "file", file_eff, file_base, [file_src], None)
        package = [fd.package] if fd.package else []

        def enum_options(enum, parent_eff, parent_base, path, chain):
            dotted = ".".join(package + path)
            eff, src = sub(enum, parent_eff, dotted, separate, True)
            base, _ = sub(enum, parent_base, dotted, [], False)
            compare(fd.name, dotted, "enum", eff, base, chain + [src], ENUM)

        def message_options(msg, parent_eff, parent_base, path, chain):
            dotted = ".".join(package + path)
            eff, src = sub(msg, parent_eff, dotted, separate, True)
            base, _ = sub(msg, parent_base, dotted, [], False)
            chain = chain + [src]
            compare(fd.name, dotted, "message", eff, base, chain, MESSAGE)
            for index, oneof in enumerate(msg.oneof_decl):
                if any(f.proto3_optional for f in msg.field if f.HasField("oneof_index") and f.oneof_index == index):
                    continue
                o_eff, o_src = sub(msg, eff, dotted + "." + oneof.name, separate, True)
                o_base, _ = sub(msg, base, dotted + "." + oneof.name, [], False)
                compare(fd.name, dotted + "." + oneof.name, "oneof", o_eff, o_base, chain + [o_src], ONEOF | {"type"})
            for field in msg.field:
                f_eff, f_src = sub(field, eff, dotted + "." + field.name, separate, True)
                f_base, _ = sub(field, base, dotted + "." + field.name, [], False)
                compare(fd.name, dotted + "." + field.name, "field", f_eff, f_base, chain + [f_src], FIELD)
            for nested in msg.nested_type:
                message_options(nested, eff, base, path + [nested.name], chain)
            for enum in msg.enum_type:
                enum_options(enum, eff, base, path + [enum.name], chain)

        for msg in fd.message_type:
            message_options(msg, file_eff, file_base, [msg.name], [file_src])
        for enum in fd.enum_type:
            enum_options(enum, file_eff, file_base, [enum.name], [file_src])

    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
