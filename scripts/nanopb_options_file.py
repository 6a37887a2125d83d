"""Reads a nanopb `.options` file as nanopb's generator does (its read_options_file), except that
an option this nanopb cannot read is set aside with its reason instead of stopping the run: the
rest of its line is still read. Shared by scripts/proto-options.py (which lists what was set
aside) and scripts/device-build.py (which hands nanopb only what it can read), with the command
line both read and the one-line failure both promise.
"""
import re
import sys

# One `name:value` of an options-file line (text format as nanopb writes it).
OPTION_TOKEN = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*("(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[^\s"\']+)')


def fail(program, message):
    """The one-line failure both programs promise (never a traceback): `program: message`, exit 1."""
    sys.stderr.write("%s: %s\n" % (program, message))
    sys.exit(1)


def read_arguments(program, usage, count):
    """(the `count` positional arguments, --options FILE or None, [--search DIR...]) of sys.argv."""
    args = sys.argv[1:]
    if len(args) < count:
        fail(program, "usage: " + usage)
    rest, global_options, search = args[count:], None, []
    while rest:
        flag = rest.pop(0)
        if flag in ("--options", "--search") and not rest:
            fail(program, "%s wants a value" % flag)
        if flag == "--options":
            global_options = rest.pop(0)
        elif flag == "--search":
            search.append(rest.pop(0))
        else:
            fail(program, "unknown argument %s" % flag)
    return args[:count], global_options, search


class OptionsFileError(Exception):
    """A line that is not `pattern options`: the message names the file and line."""


def read_options_file(path, shown, nanopb_pb2, text_format):
    """[(mask, NanoPBOptions, "shown:line", [(option, value, reason)])], in file order."""
    with open(path, encoding="utf-8") as f:
        data = f.read()
    data = re.sub(r'/\*.*?\*/', '', data, flags=re.MULTILINE)
    data = re.sub(r'//.*?$', '', data, flags=re.MULTILINE)
    data = re.sub(r'#.*?$', '', data, flags=re.MULTILINE)
    known = set(nanopb_pb2.NanoPBOptions.DESCRIPTOR.fields_by_name)
    entries = []
    for number, line in enumerate(data.split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        where = "%s:%d" % (shown, number)
        parts = line.split(None, 1)
        if len(parts) < 2:
            raise OptionsFileError("%s: '%s': no space between the name pattern and its options" % (where, line))
        opts, unread = nanopb_pb2.NanoPBOptions(), []
        try:
            text_format.Merge(parts[1], opts)
        except Exception:  # text_format raises several types; read option by option
            opts = nanopb_pb2.NanoPBOptions()
            text, position = parts[1].rstrip(), 0
            while position < len(text):
                token = OPTION_TOKEN.match(text, position)
                if token is None:
                    unread.append(("?", text[position:].strip(), "not an option (name:value)"))
                    break
                position = token.end()
                name, value = token.group(1), token.group(2)
                if name not in known:
                    unread.append((name, value, "nanopb 0.4.7 has no option named %s" % name))
                    continue
                try:
                    text_format.Merge("%s:%s" % (name, value), opts)
                except Exception as error:
                    unread.append((name, value, "not a value of %s: %s" % (name, (str(error).splitlines() or [""])[0])))
        entries.append((parts[0], opts, where, unread))
    return entries


def find_options_file(file_name, proto_dir, search, global_options):
    """(path, shown name) of the options file nanopb applies to `file_name`, or None."""
    import os
    if global_options:
        return global_options, os.path.basename(global_options)
    wanted = os.path.splitext(file_name)[0] + ".options"
    for root in [proto_dir] + list(search):
        path = os.path.join(root, wanted)
        if os.path.isfile(path):
            return path, wanted
    return None
