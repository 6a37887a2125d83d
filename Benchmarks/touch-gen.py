#!/usr/bin/python3
"""Write a Swift `main.swift` that uses every accessor of some facade messages (scripts/bench.sh).

    touch-gen.py FACADE_DIR IMPORT_MODULE OUT_FILE (--all | TYPE...)

FACADE_DIR holds generated facades (`protogen facades` output). For each chosen message type
(`public typealias T = NanopbMsg<...>`), the program gets one `touch_T` function that decodes T from
the input, reads every getter of `extension T { }`, rebuilds T through every setter and `clearX()`
of `extension T.Builder { }`, hashes and describes the result. That is "an SDK that uses the message"
in full, so the size difference between a program touching 1 message and one touching all of them,
both dead-stripped, is the facade code a used message costs.

The parser keys on the generator's layout (extension headers at column 0, one accessor per
4-space-indented `public var` / `public mutating func` line); it fails loudly if it finds no message.
"""
import os
import re
import sys


def has_setter(lines, start):
    """True when the property block opened at `start` (closed by a 4-space `}`) has a `set {`."""
    for line in lines[start + 1:]:
        if line == "    }":
            return False
        if line.startswith("        set {") or line.startswith("        set("):
            return True
    return False


def parse(facade_dir):
    messages = []          # typealias names, in file order
    getters = {}           # type -> [name]
    setters = {}           # type -> [name]
    clears = {}            # type -> [name]
    for fname in sorted(os.listdir(facade_dir)):
        if not fname.endswith(".swift"):
            continue
        lines = open(os.path.join(facade_dir, fname), encoding="utf-8").read().split("\n")
        block = None
        for i, line in enumerate(lines):
            m = re.match(r"^public typealias (\w+) = NanopbMsg<", line)
            if m:
                messages.append(m.group(1))
                continue
            m = re.match(r"^extension (\w+)(\.Builder)? \{$", line)
            if m:
                block = (m.group(1), bool(m.group(2)))
                continue
            if line == "}":
                block = None
                continue
            if block is None:
                continue
            name, is_builder = block
            m = re.match(r"^    public var (`?\w+`?): .* \{(.*)$", line)
            if m:
                multi_line = m.group(2).strip() == ""
                if is_builder:
                    if multi_line and has_setter(lines, i):
                        setters.setdefault(name, []).append(m.group(1))
                else:
                    getters.setdefault(name, []).append(m.group(1))
                continue
            m = re.match(r"^    public mutating func (clear\w+)\(\)", line)
            if m and is_builder:
                clears.setdefault(name, []).append(m.group(1))
    return messages, getters, setters, clears


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    facade_dir, module, out = sys.argv[1:4]
    messages, getters, setters, clears = parse(facade_dir)
    if not messages:
        sys.exit(f"touch-gen: no message typealias in {facade_dir}")
    chosen = messages if sys.argv[4] == "--all" else sys.argv[4:]
    for t in chosen:
        if t not in messages:
            sys.exit(f"touch-gen: {t} is not a message typealias in {facade_dir}")
    src = [
        "// Written by Benchmarks/touch-gen.py for scripts/bench.sh; do not edit or commit.",
        f"// Uses every accessor of {len(chosen)} message type(s).",
        f"import {module}",
        "",
    ]
    for t in chosen:
        src += [
            "@inline(never)",
            f"func touch_{t}(_ bytes: [UInt8], _ flag: Bool) -> Int {{",
            f"    let m = (try? {t}(serializedBytes: bytes)) ?? {t}()",
            "    var h = Hasher()",
        ]
        src += [f"    h.combine(m.{g})" for g in getters.get(t, [])]
        src.append(f"    let b = {t}.with {{ b in")
        src += [f"        b.{s} = m.{s}" for s in setters.get(t, [])]
        src += [f"        if flag {{ b.{c}() }}" for c in clears.get(t, [])]
        src += [
            "    }",
            "    h.combine(b)",
            "    h.combine(b.description)",
            "    h.combine(b.owned().isOwning)",
            "    return h.finalize()",
            "}",
            "",
        ]
    src += [
        "let input = Array((CommandLine.arguments.dropFirst().first ?? \"\").utf8)",
        "let flag = CommandLine.arguments.count > 2",
        "var total = 0",
    ]
    src += [f"total &+= touch_{t}(input, flag)" for t in chosen]
    src += ["print(total)", ""]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(src))
    print(len(chosen))


if __name__ == "__main__":
    main()
