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

Options this nanopb (Debian's 0.4.7) cannot read are listed too, with `"unread": REASON`, and
are never applied: an option name an options-file line spells that 0.4.7 does not know (the
rest of the line is still read), an option number the schema's own copy of nanopb.proto
declares and 0.4.7 does not (named from that copy), and (nanopb) annotations on elements 0.4.7
reads none from (a newer nanopb.proto's oneof options). Repeated options (`include`,
`exclude`) are listed with every value. Any other failure is one line on stderr naming the
file and element being read, and exit status 1: never a traceback.

Deciding what to do with them is the plan's job (Sources/Tools/ProtoGenKit/NanopbOptions.swift).
Runs on Debian's /usr/bin/python3 (python3-protobuf).
"""
import json
import sys
from fnmatch import fnmatchcase

import nanopb_options_file
from nanopb_options_file import OptionsFileError, find_options_file, read_options_file

# The option each kind of element reports; inherited options are reported where they act.
FIELD = {"type", "int_size", "max_size", "max_length", "max_count", "fixed_length", "fixed_count",
         "callback_datatype", "callback_function", "type_override", "submsg_callback",
         "proto3_singular_msgs", "default_has", "descriptorsize", "fallback_type"}
ONEOF = {"anonymous_oneof", "no_unions", "sort_by_tag"}
MESSAGE = {"packed_struct", "skip_message", "msgid"}
ENUM = {"long_names", "packed_enum", "enum_to_string"}
# Everything else is reported on the file.

# What is being read, for the one-line report of an unexpected failure.
CONTEXT = {"file": "?", "element": "?"}
NANOPB_EXTENSION = 1010  # the field number nanopb.proto extends every *Options message with


def fail(message):
    nanopb_options_file.fail("proto-options", message)


def main():
    (generator_dir, set_path, proto_dir), global_options, search = nanopb_options_file.read_arguments(
        "proto-options", "proto-options.py NANOPB_GENERATOR_DIR FULL_SET.pb PROTO_DIR [--options FILE] [--search DIR]...", 3)

    sys.path.insert(0, generator_dir)
    import proto  # nanopb's generator/proto package; its loader builds nanopb_pb2.py if missing
    nanopb_pb2 = proto.load_nanopb_pb2()  # registers the (nanopb) extensions before parsing
    from google.protobuf import descriptor_pb2, text_format

    with open(set_path, "rb") as f:
        full = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    own = schema_nanopb_fields(full)
    by_name = {fd.name: fd for fd in full.file}

    def sees_nanopb_proto(fd):
        """Whether `fd` may carry (nanopb) annotations: it imports nanopb.proto or the schema's own
        copy, directly or through files that import it publicly (transitively), as protoc resolves names."""
        seen, pending = set(), list(fd.dependency)
        while pending:
            name = pending.pop()
            if name == "nanopb.proto" or name in own.files:
                return True
            if name not in seen and name in by_name:
                seen.add(name)
                pending.extend(by_name[name].dependency[i] for i in by_name[name].public_dependency)
        return False

    def options_for(file_name):
        found = find_options_file(file_name, proto_dir, search, global_options)
        if found is None:
            return []
        try:
            return read_options_file(found[0], found[1], nanopb_pb2, text_format)
        except OptionsFileError as error:
            fail(str(error))

    baseline_top = nanopb_pb2.NanoPBOptions()
    baseline_top.type = nanopb_pb2.FT_POINTER
    inline_ext = {
        descriptor_pb2.FieldOptions: nanopb_pb2.nanopb,
        descriptor_pb2.FileOptions: nanopb_pb2.nanopb_fileopt,
        descriptor_pb2.MessageOptions: nanopb_pb2.nanopb_msgopt,
        descriptor_pb2.EnumOptions: nanopb_pb2.nanopb_enumopt,
    }
    report = []

    def unread_entry(file_name, element, kind, option, value, source, reason):
        report.append({"file": file_name, "element": element, "kind": kind, "option": option,
                       "value": value, "source": source, "unread": reason})

    def report_unknown_numbers(file_name, element, kind, options_message, source):
        """Fields of an inline NanoPBOptions that 0.4.7's nanopb.proto does not declare."""
        for unknown in options_message.UnknownFields():
            name, value = own.describe(unknown.field_number, unknown.wire_type, unknown.data)
            unread_entry(file_name, element, kind, name, value, source,
                         "option number %d is not in nanopb 0.4.7's nanopb.proto (%s): not applied"
                         % (unknown.field_number, own.origin(unknown.field_number)))

    def sub(desc, parent, dotname, separate, with_sources, file_name=None, kind=None, inline=True):
        """nanopb's get_nanopb_suboptions: parent, then matching options-file lines, then inline."""
        opts = nanopb_pb2.NanoPBOptions()
        opts.CopyFrom(parent)
        sources = []
        if with_sources:
            CONTEXT["element"] = dotname
            for mask, entry, where, _ in separate:
                if fnmatchcase(dotname, mask):
                    opts.MergeFrom(entry)
                    sources.append((entry, where))
            ext = inline_ext[type(desc.options)]
            if desc.options.HasExtension(ext):
                opts.MergeFrom(desc.options.Extensions[ext])
                sources.append((desc.options.Extensions[ext], "(nanopb) annotation"))
                if inline:
                    report_unknown_numbers(file_name, dotname, kind, desc.options.Extensions[ext], "(nanopb) annotation")
        return opts, sources

    def value_text(opts, name):
        field = opts.DESCRIPTOR.fields_by_name[name]
        value = getattr(opts, name)
        if field.label == field.LABEL_REPEATED:
            return ", ".join(json.dumps(v) for v in value)
        if field.enum_type is not None:
            known = field.enum_type.values_by_number.get(value)
            return known.name if known is not None else str(value)
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return json.dumps(value)
        return str(value)

    def sets(entry, field):
        if field.label == field.LABEL_REPEATED:
            return len(getattr(entry, field.name)) > 0
        return entry.HasField(field.name)

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
            where = [w for sources in source_chain for (entry, w) in sources if sets(entry, field)]
            report.append({"file": file_name, "element": element, "kind": kind, "option": name,
                           "value": value_text(effective, name), "source": ", ".join(dict.fromkeys(where)) or "?"})

    def report_unreadable_annotations(file_name, element, kind, options):
        """(nanopb) annotations a newer nanopb.proto allows where 0.4.7 reads none (oneofs, enum values)."""
        for unknown in options.UnknownFields():
            if unknown.field_number != NANOPB_EXTENSION or unknown.wire_type != 2:
                continue
            payload = nanopb_pb2.NanoPBOptions.FromString(bytes(unknown.data))
            names = [f.name for f in payload.DESCRIPTOR.fields if sets(payload, f)]
            for name in names:
                unread_entry(file_name, element, kind, name, value_text(payload, name), "(nanopb) annotation",
                             "nanopb 0.4.7 reads no (nanopb) annotation on a %s; set it in a .options file" % kind)
            report_unknown_numbers(file_name, element, kind, payload, "(nanopb) annotation")

    for fd in full.file:
        if fd.name in ("nanopb.proto", "google/protobuf/descriptor.proto") or fd.name in own.files:
            continue
        CONTEXT["file"], CONTEXT["element"] = fd.name, fd.name
        separate = options_for(fd.name)
        has_inline = sees_nanopb_proto(fd)
        if not separate and not has_inline:
            continue
        for mask, _, where, unread in separate:
            for option, value, reason in unread:
                unread_entry(fd.name, mask, "pattern", option, value, where, reason)
        file_eff, file_src = sub(fd, baseline_top, fd.name, separate, True, fd.name, "file")
        file_base, _ = sub(fd, baseline_top, fd.name, [], False)
        compare(fd.name, fd.name, "file", file_eff, file_base, [file_src], None)
        package = [fd.package] if fd.package else []

        def enum_options(enum, parent_eff, parent_base, path, chain):
            dotted = ".".join(package + path)
            eff, src = sub(enum, parent_eff, dotted, separate, True, fd.name, "enum")
            base, _ = sub(enum, parent_base, dotted, [], False)
            compare(fd.name, dotted, "enum", eff, base, chain + [src], ENUM)
            for value in enum.value:
                report_unreadable_annotations(fd.name, dotted + "." + value.name, "enum value", value.options)

        def message_options(msg, parent_eff, parent_base, path, chain):
            dotted = ".".join(package + path)
            eff, src = sub(msg, parent_eff, dotted, separate, True, fd.name, "message")
            base, _ = sub(msg, parent_base, dotted, [], False)
            chain = chain + [src]
            compare(fd.name, dotted, "message", eff, base, chain, MESSAGE)
            for index, oneof in enumerate(msg.oneof_decl):
                if any(f.proto3_optional for f in msg.field if f.HasField("oneof_index") and f.oneof_index == index):
                    continue
                # nanopb reads a oneof's options through its message's (its own cannot carry any)
                o_eff, o_src = sub(msg, eff, dotted + "." + oneof.name, separate, True, fd.name, "oneof", inline=False)
                o_base, _ = sub(msg, base, dotted + "." + oneof.name, [], False)
                compare(fd.name, dotted + "." + oneof.name, "oneof", o_eff, o_base, chain + [o_src], ONEOF | {"type"})
                report_unreadable_annotations(fd.name, dotted + "." + oneof.name, "oneof", oneof.options)
            for field in msg.field:
                f_eff, f_src = sub(field, eff, dotted + "." + field.name, separate, True, fd.name, "field")
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


class SchemaNanopbFields:
    """The NanoPBOptions fields of the schema's own copy of nanopb.proto, if it ships one (a file
    of the descriptor set declaring `message NanoPBOptions`): names for the option numbers
    0.4.7 does not know."""

    def __init__(self, files, fields, enums):
        self.files = files      # names of the files declaring NanoPBOptions
        self.fields = fields    # number -> FieldDescriptorProto
        self.enums = enums      # ".Name" -> {number: value name}

    def origin(self, number):
        if number in self.fields:
            return "the schema's %s declares it as %s" % (" and ".join(sorted(self.files)), self.fields[number].name)
        return "the schema's nanopb.proto does not declare it either"

    def describe(self, number, wire_type, data):
        """(option name, value text) of one unknown field."""
        field = self.fields.get(number)
        name = field.name if field is not None else "#%d" % number
        if wire_type == 2:
            raw = bytes(data)
            try:
                return name, json.dumps(raw.decode("utf-8"))
            except UnicodeDecodeError:
                return name, raw.hex()
        if field is not None and wire_type == 0:
            if field.type == 8:  # TYPE_BOOL
                return name, "true" if data else "false"
            if field.type == 14:  # TYPE_ENUM
                return name, self.enums.get(field.type_name, {}).get(data, str(data))
        return name, str(data)


def schema_nanopb_fields(full):
    files, fields, enums = set(), {}, {}
    for fd in full.file:
        prefix = "." + fd.package + "." if fd.package else "."
        for enum in fd.enum_type:
            enums[prefix + enum.name] = {v.number: v.name for v in enum.value}
        for msg in fd.message_type:
            if msg.name == "NanoPBOptions":
                files.add(fd.name)
                for field in msg.field:
                    fields.setdefault(field.number, field)
    return SchemaNanopbFields(files, fields, enums)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as error:  # the one-line promise: never a traceback
        first = (str(error).splitlines() or [""])[0]
        fail("%s: %s: cannot read its nanopb options: %s: %s"
             % (CONTEXT["file"], CONTEXT["element"], type(error).__name__, first))
