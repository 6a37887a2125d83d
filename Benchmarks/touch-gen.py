#!/usr/bin/python3
"""Write a Swift `main.swift` that uses every accessor of some facade messages (scripts/bench.sh).

    touch-gen.py PLAN_JSON IMPORT_MODULE OUT_FILE (--all | TYPE...)

PLAN_JSON is the generation plan of the facades (`scripts/proto.sh --plan-out`, i.e. `protogen
plan`): its `types` list every message with the accessors the emitter gives it (`getters` of the
message, `setters` and `mutators` of its Builder), taken from the emitter's model, so no generated
text is read. For each chosen message type the program gets one `touch_T` function that decodes T
from the input, reads every getter, rebuilds T through every setter and `clearX()`, hashes and
describes the result. That is "an SDK that uses the message" in full, so the size difference
between a program touching 1 message and one touching all of them, both dead-stripped, is the
facade code a used message costs.
"""
import json
import os
import sys


def parse(plan_path):
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    messages, getters, setters, clears = [], {}, {}, {}
    for t in plan["types"]:
        if t["kind"] != "message":
            continue
        name = t["swift"]
        messages.append(name)
        getters[name] = t["getters"]
        setters[name] = t["setters"]
        clears[name] = [m for m in t["mutators"] if m.startswith("clear")]
    return messages, getters, setters, clears


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    plan_path, module, out = sys.argv[1:4]
    messages, getters, setters, clears = parse(plan_path)
    if not messages:
        sys.exit(f"touch-gen: the plan {plan_path} names no message")
    chosen = messages if sys.argv[4] == "--all" else sys.argv[4:]
    for t in chosen:
        if t not in messages:
            sys.exit(f"touch-gen: {t} is not a message of the plan {plan_path}")
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
