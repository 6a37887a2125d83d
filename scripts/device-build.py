"""The device's C for a schema: nanopb's own generator with the schema's own options, as the
firmware on the other end builds it (static arrays and sizes, callbacks left unset), plus the
table and layout the device party of `wireproof prove` needs.

Usage: /usr/bin/python3 scripts/device-build.py NANOPB_DIR FULL_SET.pb PROTO_DIR OUT_DIR
           [--options FILE] [--search DIR]...

Options are read from the same sources as scripts/proto-options.py lists them (`--options FILE`
for every file, else `<file>.options` under PROTO_DIR or a --search root, and the inline
`(nanopb)` annotations of the descriptor set) and handed to nanopb unchanged, except options
0.4.7 cannot read (scripts/nanopb_options_file.py), which a 0.4.7 generator would stop on.
Every file of the set gets C except nanopb.proto, descriptor.proto and the schema's own copies
of nanopb.proto.

Writes into OUT_DIR:
  gen/<file>.pb.h, gen/<file>.pb.c  nanopb's output, byte for byte
  gen/device_table.c                 every message: full proto name, descriptor, struct size
  layout.json                        `options`: whether the schema sets any nanopb option (when
                                     not, nothing else is written); per message, in table order: its C name and, per field, what
                                     nanopb made of it (allocation STATIC/POINTER/CALLBACK, rules,
                                     type, max_size, max_count, C type) and the options that set
                                     it; fields FT_IGNORE left out, listed under `dropped`
A schema nanopb refuses is one line on stderr naming the file and nanopb's reason; exit 1.
"""
import json
import os
import sys

import nanopb_options_file
from nanopb_options_file import OptionsFileError, find_options_file, read_options_file

# Options whose value the device party reports as the reason for a refusal or a truncation.
LIMIT_OPTIONS = ("type", "max_size", "max_length", "max_count", "int_size", "fixed_length", "fixed_count", "proto3")


def fail(message):
    nanopb_options_file.fail("device-build", message)


def main():
    (nanopb_dir, set_path, proto_dir, out_dir), global_options, search = nanopb_options_file.read_arguments(
        "device-build", "device-build.py NANOPB_DIR FULL_SET.pb PROTO_DIR OUT_DIR [--options FILE] [--search DIR]...", 4)

    sys.path.insert(0, os.path.join(nanopb_dir, "generator"))
    import nanopb_generator as ng
    from google.protobuf import descriptor_pb2, text_format

    with open(set_path, "rb") as f:
        full = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    own_copies = {fd.name for fd in full.file if any(m.name == "NanoPBOptions" for m in fd.message_type)}
    skipped = {"nanopb.proto", "google/protobuf/descriptor.proto"} | own_copies

    # The options files nanopb will read: what 0.4.7 can read of each, one line per pattern.
    options_dir = os.path.join(out_dir, "options")
    os.makedirs(out_dir, exist_ok=True)
    inline = [fd.name for fd in full.file if fd.name not in skipped and any(d in own_copies or d == "nanopb.proto" for d in fd.dependency)]
    separate = [fd.name for fd in full.file if fd.name not in skipped and find_options_file(fd.name, proto_dir, search, global_options)]
    if not inline and not separate:  # nothing to build: the device party has nothing to say
        with open(os.path.join(out_dir, "layout.json"), "w", encoding="utf-8") as f:
            f.write('{"messages": [], "options": false}\n')
        return
    for fd in full.file:
        found = find_options_file(fd.name, proto_dir, search, global_options)
        if found is None or fd.name in skipped:
            continue
        try:
            entries = read_options_file(found[0], found[1], ng.nanopb_pb2, text_format)
        except OptionsFileError as error:
            fail(str(error))
        lines = ["%s %s" % (mask, text_format.MessageToString(opts, as_one_line=True))
                 for mask, opts, _, _ in entries if opts.ListFields()]
        path = os.path.join(options_dir, os.path.splitext(fd.name)[0] + ".options")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))

    options, _ = ng.process_cmdline(["-q", "-f", os.path.join(os.path.abspath(options_dir), "%s.options"), "schema.pb"], False)
    gen_dir = os.path.join(out_dir, "gen")
    os.makedirs(gen_dir, exist_ok=True)
    other_files, current = {}, "?"
    try:
        for fd in full.file:
            current = fd.name
            other_files[fd.name] = ng.parse_file(fd.name, fd, options)
        outputs = []
        for fd in full.file:
            if fd.name in skipped:
                continue
            current = fd.name
            result = ng.process_file(fd.name, fd, options, other_files)
            for name, data in ((result["headername"], result["headerdata"]), (result["sourcename"], result["sourcedata"])):
                path = os.path.join(gen_dir, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(data)
            outputs.append((fd, result["headername"]))
    except SystemExit:
        raise
    except Exception as error:  # nanopb raises plain Exception, NotImplementedError, ...
        fail("%s: nanopb's generator refused it: %s: %s" % (current, type(error).__name__, (str(error).splitlines() or [""])[0]))

    messages = []
    for fd, _ in outputs:
        parsed = ng.parse_file(fd.name, fd, options)  # also makes this file's options the current ones
        names = message_paths(fd)
        for message in parsed.messages:
            messages.append(describe(ng, parsed, message, names[tuple(message.element_path)]))
    with open(os.path.join(gen_dir, "device_table.c"), "w", encoding="utf-8") as f:
        f.write("/* Written by scripts/device-build.py: every message of the device build. */\n")
        f.write("#include <stddef.h>\n#include <pb.h>\n")
        for _, header in outputs:
            f.write("#include \"%s\"\n" % header)
        f.write("\ntypedef struct { const char *full_name; const pb_msgdesc_t *fields; size_t size; } device_message_t;\n")
        f.write("const device_message_t device_messages[] = {\n")
        for m in messages:
            f.write("    { \"%s\", &%s_msg, sizeof(%s) },\n" % (m["fullName"], m["cName"], m["cName"]))
        f.write("    { NULL, NULL, 0 }\n};\nconst size_t device_message_count = %d;\n" % len(messages))
    with open(os.path.join(out_dir, "layout.json"), "w", encoding="utf-8") as f:
        json.dump({"messages": messages, "options": True}, f, indent=1, sort_keys=True)
        f.write("\n")


def message_paths(fd):
    """{element path: full proto name} of every message of `fd` (nanopb's element_path keys)."""
    result = {}
    prefix = fd.package + "." if fd.package else ""

    def walk(messages, path, scope):
        for index, msg in enumerate(messages):
            here = path + (index,)
            result[here] = scope + msg.name
            walk(msg.nested_type, here + (3,), scope + msg.name + ".")
    walk(fd.message_type, (4,), prefix)
    return result


def describe(ng, parsed, message, full_name):
    """One message of the layout: nanopb's decisions per field, and the options behind them."""
    c_name = ng.Globals.naming_style.type_name(message.name)
    message_options = ng.get_nanopb_suboptions(message.desc, parsed.file_options, message.name)
    kept, fields = set(), []

    def option_values(field_desc):
        opts = ng.get_nanopb_suboptions(field_desc, message_options, message.name + field_desc.name)
        values = {}
        for name in LIMIT_OPTIONS:
            if opts.HasField(name):
                value = getattr(opts, name)
                if name in ("type", "int_size"):
                    value = opts.DESCRIPTOR.fields_by_name[name].enum_type.values_by_number[value].name
                values[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return values

    by_number = {f.number: f for f in message.desc.field}
    for item in message.fields:
        members = item.fields if isinstance(item, ng.OneOf) else [item]
        for field in members:
            if not hasattr(field, "tag") or field.tag not in by_number:
                continue  # an extension range
            kept.add(field.tag)
            fields.append({
                "name": field.name, "number": field.tag, "allocation": field.allocation, "rules": field.rules,
                "type": field.pbtype, "maxSize": field.max_size, "maxCount": field.max_count,
                "cType": str(field.ctype), "options": option_values(by_number[field.tag]),
            })
    dropped = [{"name": f.name, "number": f.number, "options": option_values(f)}
               for f in message.desc.field if f.number not in kept]
    return {"fullName": full_name, "cName": c_name, "fields": sorted(fields, key=lambda f: f["number"]), "dropped": dropped}


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as error:  # the one-line promise: never a traceback
        fail("cannot build the device's C: %s: %s" % (type(error).__name__, (str(error).splitlines() or [""])[0]))
