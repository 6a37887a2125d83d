#!/usr/bin/python3
"""Figures for scripts/bench.sh (`make bench`): sizes, symbol attribution, codec timings, summary.

    bench-report.py lines RESULTS.json FILE...          lines of the fixed-cost runtime
    bench-report.py sizes RESULTS.json CONFIG=BUILD_DIR... --out DIR --all-count N --one-count N
    bench-report.py peer-sizes RESULTS.json CONFIG=EXECUTABLE... --out DIR   SizePacket on SwiftProtobuf
    bench-report.py codec RESULTS.json TIME_OUTPUT CALLGRIND_ANNOTATE_DIR ITERATIONS
    bench-report.py summary RESULTS.json --doc docs/measurements.md --command CMD --header TEXT

Each subcommand prints its part of the report and merges its figures into RESULTS.json, which
`summary` turns into the final table and the section of docs/measurements.md between the
`<!-- bench:begin -->` and `<!-- bench:end -->` markers (the rest of that file is left alone).

Size attribution (`sizes`): every sized symbol of the unstripped binary (`nm -S --defined-only`,
aliases at one address counted once) goes to one group:
  - nanopb C runtime:   defined in an object file of CNanopb
  - generated C:        defined in an object file of a schema's C target (`*C`: descriptors, tables)
  - facades:            Swift symbol whose mangling names a facade module (`12BundledProto`, ...)
  - facade generics:    Swift symbol of another module specialised for a schema C struct
                        (`So15_rtm_DataPacketV`: NanopbRuntime or stdlib generics over the schema)
  - NanopbRuntime:      Swift symbol naming `13NanopbRuntime` and no schema type
  - program:            the probe's own module
  - other Swift:        stdlib specialisations and thunks emitted into the binary
  - other:              crt startup, libc glue
Bytes that no symbol covers (.eh_frame unwind tables, relocations, dynamic-link tables, swift5
metadata records, merged string literals) are reported as "not in a symbol".
"""
import json
import os
import re
import statistics
import subprocess
import sys

SIZE_EXES = ["SizeBaseline", "SizePacket", "SizePacketPruned", "SizeOne", "SizeOnePruned", "SizeAll"]
FACADE_MODULES = ["BundledProto", "PrunedOne", "PrunedPacket"]
SCHEMA_C_MODULES = ["BundledProtoC", "PrunedOneC", "PrunedPacketC"]
GROUPS = ["nanopb C runtime", "generated C", "NanopbRuntime", "facades", "facade generics",
          "program", "other Swift", "other", "not in a symbol"]


def load(path):
    return json.load(open(path)) if os.path.exists(path) else {}


def save(path, results):
    with open(path, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def kb(n):
    return f"{n / 1024:,.1f} KiB"


# ---------------------------------------------------------------------------------------------
def cmd_lines(files):
    total = code = 0
    rows = []
    for path in files:
        lines = open(path, encoding="utf-8").read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        n_code, in_block = 0, False
        for line in lines:
            s = line.strip()
            if in_block:
                in_block = "*/" not in s
                continue
            if not s or s.startswith("//"):
                continue
            if s.startswith("/*"):
                in_block = "*/" not in s
                continue
            n_code += 1
        rows.append((os.path.basename(path), len(lines), n_code))
        total += len(lines)
        code += n_code
    width = max(len(r[0]) for r in rows)
    print(f"  {'file'.ljust(width)}  {'lines':>6}  {'code':>6}")
    for name, n, c in rows:
        print(f"  {name.ljust(width)}  {n:>6}  {c:>6}")
    print(f"  {'total'.ljust(width)}  {total:>6}  {code:>6}   (code = not blank, not only a comment)")
    return {"runtime_lines": total, "runtime_code_lines": code, "runtime_files": len(rows)}


# ---------------------------------------------------------------------------------------------
def defined_symbols(obj_dir):
    names = set()
    for base, _, files in os.walk(obj_dir):
        for f in files:
            if f.endswith(".o"):
                for line in run("nm", "--defined-only", os.path.join(base, f)).splitlines():
                    parts = line.split()
                    if len(parts) >= 3:
                        names.add(parts[2])
    return names


class Attributor:
    def __init__(self, release_dir):
        self.nanopb = defined_symbols(os.path.join(release_dir, "CNanopb.build"))
        self.genc = set()
        structs = set()
        for m in SCHEMA_C_MODULES:
            d = os.path.join(release_dir, m + ".build")
            if os.path.isdir(d):
                syms = defined_symbols(d)
                self.genc |= syms
                structs |= {s[:-4] for s in syms if s.endswith("_msg")}
        # Mangled imported C struct: So<len><name>V, where nanopb's struct tag is `_<name>`.
        alts = "|".join(sorted((re.escape(s) for s in structs), key=len, reverse=True)) or "(?!)"
        self.struct_re = re.compile(r"So\d+_?(?:%s)V" % alts)
        self.facade_tokens = [f"{len(m)}{m}" for m in FACADE_MODULES]

    def group(self, name, program_token, program):
        if name == f"{program}_main":
            return "program"
        if name in self.nanopb:
            return "nanopb C runtime"
        if name in self.genc:
            return "generated C"
        if name.startswith(("$s", "_$s", "$S")):
            if any(t in name for t in self.facade_tokens):
                return "facades"
            if self.struct_re.search(name):
                return "facade generics"
            if "13NanopbRuntime" in name:
                return "NanopbRuntime"
            if program_token in name:
                return "program"
            return "other Swift"
        return "other"

    def attribute(self, binary, program):
        token = f"{len(program)}{program}"
        seen = set()
        groups = dict.fromkeys(GROUPS, 0)
        for line in run("nm", "-S", "--defined-only", binary).splitlines():
            parts = line.split(maxsplit=3)
            if len(parts) != 4 or parts[2] in "aAwWvVUN":
                continue
            addr, size, name = int(parts[0], 16), int(parts[1], 16), parts[3]
            if (addr, size) in seen or size == 0:
                continue
            seen.add((addr, size))
            groups[self.group(name, token, program)] += size
        return groups


SECTION_GROUPS = ["code (.text)", "unwind tables (.eh_frame*)", "relocations (.rela.*)",
                  "data (.rodata, .data.rel.ro, .data)", "Swift metadata (swift5_*)", "dynamic linking, headers"]


def section_group(name):
    if name.startswith(".text") or name in (".init", ".fini"):
        return "code (.text)"
    if name.startswith((".eh_frame", ".gcc_except_table")):
        return "unwind tables (.eh_frame*)"
    if name.startswith((".rela", ".relr")):
        return "relocations (.rela.*)"
    if name.startswith((".rodata", ".data", ".init_array", ".fini_array", ".tdata")):
        return "data (.rodata, .data.rel.ro, .data)"
    if name.startswith("swift5_") or name == ".swift_modhash":
        return "Swift metadata (swift5_*)"
    return "dynamic linking, headers"


def sections(binary):
    """Bytes of the allocated, file-backed sections of `binary` (what `size` counts as text+data)."""
    groups = dict.fromkeys(SECTION_GROUPS, 0)
    for line in run("readelf", "-SW", binary).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)\s+\d+", line)
        if not m or "A" not in m.group(4) or m.group(2) == "NOBITS":
            continue
        groups[section_group(m.group(1))] += int(m.group(3), 16)
    return groups


def symbol_kinds(binary, minus):
    """Bytes of the sized symbols of `binary` that `minus` lacks, by what they are."""
    def table(path):
        t = {}
        for line in run("nm", "-S", "--defined-only", path).splitlines():
            p = line.split(maxsplit=3)
            if len(p) == 4 and int(p[1], 16) > 0:
                t[p[3]] = int(p[1], 16)
        return t
    mine, theirs = table(binary), table(minus)
    kinds = {"type metadata, value witnesses, conformances": 0, "static lets (lazy init, once tokens)": 0,
             "code (accessors, thunks, specialisations)": 0, "C (descriptors, tables)": 0}
    meta = re.compile(r"(Mn|MF|Mf|Ma|MB|Mc|MK|WV|WP|Wl|WL|Mb|Mr|Mi|MI|Ml|MP|Hn|MV|w[a-z]{2}|Oy|Oe|Oh|Ob|Wb)$")
    for name, size in mine.items():
        if name in theirs:
            continue
        if not name.startswith(("$s", "_$s")):
            kinds["C (descriptors, tables)"] += size
        elif name.endswith(("WZ", "Wz")):
            kinds["static lets (lazy init, once tokens)"] += size
        elif meta.search(name) or re.search(r"(Mn|Mc|WV|WP|Ma)(Tm)?$", name):
            kinds["type metadata, value witnesses, conformances"] += size
        else:
            kinds["code (accessors, thunks, specialisations)"] += size
    return kinds


def berkeley(binary):
    line = run("size", binary).splitlines()[-1].split()
    return int(line[0]), int(line[1]), int(line[2])


def cmd_sizes(results_path, args):
    configs, out, all_count, one_count = [], None, None, None
    i = 0
    while i < len(args):
        if args[i] == "--out":
            out = args[i + 1]; i += 2
        elif args[i] == "--all-count":
            all_count = int(args[i + 1]); i += 2
        elif args[i] == "--one-count":
            one_count = int(args[i + 1]); i += 2
        else:
            name, path = args[i].split("=", 1)
            configs.append((name, path)); i += 1
    results = load(results_path)
    results["messages_all"] = all_count
    results["messages_one_pruned"] = one_count
    sizes = {}
    for config, build in configs:
        release = os.path.join(build, "release")
        attributor = Attributor(release)
        sizes[config] = {}
        for exe in SIZE_EXES:
            binary = os.path.join(release, exe)
            stripped = os.path.join(out, f"{config}-{exe}")
            run("strip", "-o", stripped, binary)
            text, data, bss = berkeley(stripped)
            groups = attributor.attribute(binary, exe)
            groups["not in a symbol"] = text + data - sum(groups.values())
            sizes[config][exe] = {"file": os.path.getsize(stripped), "text": text, "data": data,
                                  "bss": bss, "alloc": text + data, "groups": groups,
                                  "sections": sections(stripped)}
        sizes[config]["unused_kinds"] = symbol_kinds(os.path.join(release, "SizeOne"),
                                                     os.path.join(release, "SizeOnePruned"))
    results["sizes"] = sizes

    for config, _ in configs:
        s = sizes[config]
        print(f"\n  [{config}] stripped executables (`size`: text includes .rodata and .eh_frame)")
        print(f"    {'executable':<18}{'file bytes':>12}{'text':>10}{'data':>9}{'text+data':>11}")
        for exe in SIZE_EXES:
            e = s[exe]
            print(f"    {exe:<18}{e['file']:>12,}{e['text']:>10,}{e['data']:>9,}{e['alloc']:>11,}")

    derived = {}
    for config, _ in configs:
        s = sizes[config]
        fac = lambda e: s[e]["groups"]["facades"] + s[e]["groups"]["facade generics"]
        d = {
            "used_per_msg_alloc": (s["SizeAll"]["alloc"] - s["SizeOne"]["alloc"]) / (all_count - 1),
            "used_per_msg_facade": (fac("SizeAll") - fac("SizeOne")) / (all_count - 1),
            "used_per_msg_program": (s["SizeAll"]["groups"]["program"] - s["SizeOne"]["groups"]["program"]) / (all_count - 1),
            "unused_per_msg_alloc": (s["SizeOne"]["alloc"] - s["SizeOnePruned"]["alloc"]) / (all_count - one_count),
            "unused_per_msg_facade": (fac("SizeOne") - fac("SizeOnePruned")) / (all_count - one_count),
            "one_pruned_facade": fac("SizeOnePruned"),
            "packet_alloc": s["SizePacket"]["alloc"] - s["SizeBaseline"]["alloc"],
            "packet_file": s["SizePacket"]["file"] - s["SizeBaseline"]["file"],
            "packet_pruned_alloc": s["SizePacketPruned"]["alloc"] - s["SizeBaseline"]["alloc"],
            "packet_pruned_file": s["SizePacketPruned"]["file"] - s["SizeBaseline"]["file"],
        }
        derived[config] = d
    results["size_figures"] = derived

    for config, _ in configs:
        s, d = sizes[config], derived[config]
        print(f"\n  [{config}] bytes of facade code per message ({all_count} messages in the schema)")
        print(f"    used (SizeAll - SizeOne) / {all_count - 1}:  facade symbols {d['used_per_msg_facade']:,.0f} B/message; "
              f"whole binary {d['used_per_msg_alloc']:,.0f} B/message (of which the calling program {d['used_per_msg_program']:,.0f})")
        print(f"    unused but linked (SizeOne - SizeOnePruned) / {all_count - one_count}:  facade symbols "
              f"{d['unused_per_msg_facade']:,.0f} B/message; whole binary {d['unused_per_msg_alloc']:,.0f} B/message")
        print(f"    SizeOnePruned's facade symbols in total: {d['one_pruned_facade']:,} B")
        per = all_count - one_count
        print(f"    what each unused message keeps, per message (sized symbols in SizeOne, not in SizeOnePruned):")
        for k, v in s["unused_kinds"].items():
            print(f"      {k:<48}{v / per:>8,.0f} B")
        print(f"    by section, per message:   {'used':>8}{'unused':>9}")
        for g in SECTION_GROUPS:
            used = (s["SizeAll"]["sections"][g] - s["SizeOne"]["sections"][g]) / (all_count - 1)
            unused = (s["SizeOne"]["sections"][g] - s["SizeOnePruned"]["sections"][g]) / per
            print(f"      {g:<36}{used:>8,.0f}{unused:>9,.0f}")

    for config, _ in configs:
        s, d = sizes[config], derived[config]
        print(f"\n  [{config}] shipped layer in SizePacket (encode + decode of a chat DataPacket) vs SizeBaseline")
        print(f"    all types: +{d['packet_alloc']:,} B text+data ({kb(d['packet_alloc'])}), "
              f"+{d['packet_file']:,} B stripped file")
        print(f"    pruned:    +{d['packet_pruned_alloc']:,} B text+data ({kb(d['packet_pruned_alloc'])}), "
              f"+{d['packet_pruned_file']:,} B stripped file")
        print(f"    {'group (nm -S, unstripped)':<36}{'all types':>12}{'pruned':>12}{'baseline':>12}")
        for g in GROUPS:
            print(f"    {g:<36}{s['SizePacket']['groups'][g]:>12,}{s['SizePacketPruned']['groups'][g]:>12,}"
                  f"{s['SizeBaseline']['groups'][g]:>12,}")
        print(f"    {'section (stripped binary)':<36}{'all types':>12}{'pruned':>12}{'baseline':>12}")
        for g in SECTION_GROUPS:
            print(f"    {g:<36}{s['SizePacket']['sections'][g]:>12,}{s['SizePacketPruned']['sections'][g]:>12,}"
                  f"{s['SizeBaseline']['sections'][g]:>12,}")
    save(results_path, results)


# ---------------------------------------------------------------------------------------------
def cmd_codec(results_path, time_output, annotate_dir, iterations):
    results = load(results_path)
    codec = {}
    for line in open(time_output):
        p = line.split()
        if not p or p[0] != "RESULT":
            continue
        packet, what = p[1], p[2]
        values = {p[i]: float(p[i + 1]) for i in range(3, len(p) - 1, 2)}
        codec.setdefault(packet, {})[what] = values
    for line in open(time_output):
        m = re.match(r"packet (\w+): (\d+) bytes", line)
        if m:
            codec.setdefault(m.group(1), {})["bytes"] = int(m.group(2))
    counts = {}
    names = {"loopFacadeEncode": "facade_encode", "loopOracleEncode": "oracle_encode",
             "loopFacadeDecode": "facade_decode", "loopOracleDecode": "oracle_decode"}
    for packet in codec:
        path = os.path.join(annotate_dir, f"{packet}.txt")
        if not os.path.exists(path):
            continue
        for line in open(path):
            m = re.match(r"\s*([\d,]+) .*\$s10CodecBench(\d+)(\w+?)y", line)
            if not m:
                continue
            ident = m.group(3)[: int(m.group(2))]
            if ident in names:
                counts.setdefault(packet, {})[names[ident]] = int(m.group(1).replace(",", "")) / iterations
        for line in open(path):
            # The oracle's MessageLayout initialiser (informational: its share of oracle decode).
            m = re.match(r"\s*([\d,]+) .*\$s11ProtoOracle13MessageLayoutC_2in\w*cfc ", line)
            if m:
                counts.setdefault(packet, {})["layout_builds"] = int(m.group(1).replace(",", "")) / iterations
    results["codec"] = codec
    results["instructions"] = counts
    for packet, ops in codec.items():
        print(f"\n  packet '{packet}' ({ops.get('bytes', '?')} bytes encoded)")
        print(f"    {'operation':<16}{'median ns/op':>14}{'p25':>10}{'p75':>10}{'instructions/op':>17}")
        for op in ["facade_encode", "oracle_encode", "facade_decode", "oracle_decode"]:
            if op in ops:
                v = ops[op]
                ins = counts.get(packet, {}).get(op)
                ins_text = f"{ins:>17,.0f}" if ins else f"{'n/a':>17}"
                print(f"    {op:<16}{v['median_ns']:>14,.1f}{v['p25_ns']:>10,.1f}{v['p75_ns']:>10,.1f}{ins_text}")
        for kind in ["encode", "decode"]:
            r = ops.get(f"ratio_{kind}")
            c = counts.get(packet, {})
            ir = (c[f"oracle_{kind}"] / c[f"facade_{kind}"]) if f"facade_{kind}" in c and f"oracle_{kind}" in c else None
            if r:
                print(f"    {kind}: oracle/facade wall-time ratio {r['median']:.2f} (median of per-round ratios; "
                      f"p25 {r['p25']:.2f}, p75 {r['p75']:.2f})" + (f"; instruction ratio {ir:.2f}" if ir else ""))
        c = counts.get(packet, {})
        if "layout_builds" in c and "oracle_decode" in c:
            print(f"    (of the oracle's decode instructions, {100 * c['layout_builds'] / c['oracle_decode']:.0f}% build "
                  "MessageLayouts: DynamicMessage.merge makes a new LayoutCache for every call)")
    save(results_path, results)


# ---------------------------------------------------------------------------------------------
RATIO_GOALS = {"c": 1.05, "swiftprotobuf": 1.0}
# Each program's loop functions in callgrind_annotate's output (Swift names mangled).
LOOP_PATTERNS = {"facade": r"\$s10CodecBench\d+loopFacade{Kind}\w*y",
                 "swiftprotobuf": r"\$s\d+codec_speed_swiftprotobuf\d+loop{Kind}\w*y"}


def inclusive(path, pattern):
    """Inclusive instruction count of the first function matching `pattern` in a callgrind_annotate
    --inclusive=yes listing."""
    for line in open(path):
        m = re.match(r"\s*([\d,]+) .*" + pattern, line)
        if m:
            return int(m.group(1).replace(",", ""))
    return None


def cmd_ratios(results_path, work):
    """Facades / plain nanopb C / libprotobuf full and lite (instructions per operation), the fuzz
    targets' fixed-input throughput and the peak-memory table (scripts/bench-ratios.sh)."""
    results = load(results_path)
    iterations = dict(line.split() for line in open(os.path.join(work, "iterations")))
    ratios = {"packets": {}}
    for packet in ["chat", "metrics"]:
        size = os.path.getsize(os.path.join(work, f"{packet}.bin"))
        ops = {}
        for prog in ["facade", "c", "full", "lite", "swiftprotobuf"]:
            name = f"{prog}-{packet}"
            if prog == "swiftprotobuf" and name not in iterations:
                continue  # the peer could not be built here (bench-ratios.sh said why)
            path, n = os.path.join(work, f"{name}.txt"), int(iterations[name])
            for kind in ["decode", "encode"]:
                pattern = LOOP_PATTERNS.get(prog, r":loop_{kind}\b").format(Kind=kind.capitalize(), kind=kind)
                count = inclusive(path, pattern)
                if count is None:
                    sys.exit(f"bench-report: no loop_{kind} in {path}")
                ops.setdefault(kind, {})[prog] = count / n
        ratios["packets"][packet] = {"bytes": size, "ops": ops}
    fixed = None
    fuzz_path = os.path.join(work, "fuzz-rate.txt")
    if os.path.exists(fuzz_path):
        for line in open(fuzz_path):
            m = re.search(r"fixed inputs, facade / plain C throughput = ([\d.]+)", line)
            if m:
                fixed = float(m.group(1))
    ratios["fuzz_fixed"] = fixed
    peak_path = os.path.join(work, "peak-memory.txt")
    ratios["peak_memory"] = open(peak_path).read().rstrip("\n").split("\n") if os.path.exists(peak_path) else None
    results["ratios"] = ratios
    save(results_path, results)
    print()
    for line in ratio_lines(ratios):
        print("  " + line)


def ratio_lines(ratios):
    """The ratio table as Markdown lines (printed by `ratios`, written by `summary`)."""
    p = ratios["packets"]
    head = " | ".join(f"{k} packet, {v['bytes']:,} B" for k, v in p.items())
    lines = [f"| instructions per operation (callgrind) | {head} | goal |",
             "|---|" + "--:|" * len(p) + "---|"]
    names = {"facade": "facades", "c": "plain nanopb C (same runtime, generated C, flags)",
             "full": "libprotobuf full (C++, -O2)", "lite": "libprotobuf lite (C++, -O2)",
             "swiftprotobuf": "SwiftProtobuf 1.38.1 (release)"}
    progs = [prog for prog in names if all(prog in v["ops"]["decode"] for v in p.values())]
    for kind in ["decode", "encode"]:
        for prog in progs:
            cells = " | ".join(f"{v['ops'][kind][prog]:,.0f}" for v in p.values())
            lines.append(f"| {kind}: {names[prog]} | {cells} | |")
        for prog, label in [("c", "nanopb C"), ("full", "libprotobuf full"), ("lite", "libprotobuf lite"),
                            ("swiftprotobuf", "SwiftProtobuf")]:
            if prog not in progs:
                continue
            values = [v["ops"][kind]["facade"] / v["ops"][kind][prog] for v in p.values()]
            cells = " | ".join(f"**{x:.2f}**" for x in values)
            goal = ""
            if prog in RATIO_GOALS:
                g = RATIO_GOALS[prog]
                goal = f"<= {g} ({'met' if all(x <= g for x in values) else 'NOT met'})"
            lines.append(f"| {kind}: facades / {label} | {cells} | {goal} |")
    f = ratios.get("fuzz_fixed")
    lines.append("")
    lines.append(f"Fuzz target `decode` (facades) / `decode_c` (plain C), throughput on every seed of Corpus/seeds "
                 f"200 times (ASan + libFuzzer release builds, scripts/fuzz-rate.sh): "
                 + (f"**{f:.2f}x** (goal >= 0.9x: {'met' if f >= 0.9 else 'NOT met'})" if f is not None
                    else "not measured in this run (BENCH_FUZZ=0)"))
    return lines


def cmd_peer_sizes(results_path, args):
    """SizePacket built against SwiftProtobuf, measured as cmd_sizes measures the facades' probes."""
    out, builds = None, []
    i = 0
    while i < len(args):
        if args[i] == "--out":
            out = args[i + 1]; i += 2
        else:
            builds.append(tuple(args[i].split("=", 1))); i += 1
    results = load(results_path)
    peer = {}
    print("\n  SwiftProtobuf 1.38.1: the same SizePacket source against protoc-gen-swift's code, vs SizeBaseline")
    for config, binary in builds:
        stripped = os.path.join(out, f"{config}-SizePacketSwiftProtobuf")
        run("strip", "-o", stripped, binary)
        text, data, _ = berkeley(stripped)
        base = results["sizes"][config]["SizeBaseline"]
        facades = results["size_figures"][config]
        added = text + data - base["alloc"]
        p = {"alloc": text + data, "added": added, "file_added": os.path.getsize(stripped) - base["file"],
             "ratio_all": facades["packet_alloc"] / added, "ratio_pruned": facades["packet_pruned_alloc"] / added}
        peer[config] = p
        print(f"    [{config}] SwiftProtobuf +{added:,} B text+data ({kb(added)}); facades ÷ SwiftProtobuf: "
              f"all types {p['ratio_all']:.2f} (goal <= 0.2), pruned {p['ratio_pruned']:.2f} (goal <= 0.1)")
    results["swiftprotobuf_sizes"] = peer
    save(results_path, results)


# ---------------------------------------------------------------------------------------------
def cmd_summary(results_path, doc, command, header):
    r = load(results_path)
    rows = []
    rows.append(("NanopbRuntime source lines (code lines)",
                 f"{r['runtime_lines']:,} ({r['runtime_code_lines']:,}) in {r['runtime_files']} files",
                 "`wc -l Sources/Shipped/NanopbRuntime/*.swift`; code = not blank, not only a comment"))
    sf = r.get("size_figures", {})
    n = r.get("messages_all")
    for config, label in [("stripped", "full dead strip"), ("default", "SwiftPM default")]:
        if config not in sf:
            continue
        d = sf[config]
        rows.append((f"Facade bytes per used message ({label})",
                     f"{d['used_per_msg_facade']:,.0f} B (whole binary {d['used_per_msg_alloc']:,.0f} B); goal <= 850 B: "
                     f"{'met' if d['used_per_msg_facade'] <= 850 else 'NOT met'}",
                     f"(SizeAll - SizeOne) / {n - 1}, facade-attributed symbols; whole binary includes call sites"))
        rows.append((f"Facade bytes per unused message still linked ({label})",
                     f"{d['unused_per_msg_facade']:,.0f} B (whole binary {d['unused_per_msg_alloc']:,.0f} B)",
                     f"(SizeOne all types - SizeOne pruned) / {n - r['messages_one_pruned']}"))
        rows.append((f"Shipped layer, bundled schema, all types ({label})",
                     f"{d['packet_alloc']:,} B text+data ({kb(d['packet_alloc'])}); file +{d['packet_file']:,} B",
                     "SizePacket - SizeBaseline, stripped"))
        rows.append((f"Shipped layer, facades pruned to use ({label})",
                     f"{d['packet_pruned_alloc']:,} B text+data ({kb(d['packet_pruned_alloc'])}); file +{d['packet_pruned_file']:,} B",
                     "SizePacketPruned - SizeBaseline, stripped"))
        p = r.get("swiftprotobuf_sizes", {}).get(config)
        if p:
            met = lambda ratio, goal: "met" if ratio <= goal else "NOT met"
            rows.append((f"SwiftProtobuf 1.38.1 in the same program ({label})",
                         f"{p['added']:,} B text+data ({kb(p['added'])}); facades ÷ SwiftProtobuf: all types "
                         f"{p['ratio_all']:.2f} (goal <= 0.2: {met(p['ratio_all'], 0.2)}), pruned {p['ratio_pruned']:.2f} "
                         f"(goal <= 0.1: {met(p['ratio_pruned'], 0.1)})",
                         "the SizePacket source against protoc-gen-swift's code - SizeBaseline, stripped"))
    codec, counts = r.get("codec", {}), r.get("instructions", {})
    for packet, ops in codec.items():
        for kind in ["encode", "decode"]:
            f, o = ops.get(f"facade_{kind}"), ops.get(f"oracle_{kind}")
            ratio = ops.get(f"ratio_{kind}")
            if not (f and o and ratio):
                continue
            c = counts.get(packet, {})
            ins = ""
            if f"facade_{kind}" in c and f"oracle_{kind}" in c:
                ins = (f"; instructions {c[f'facade_{kind}']:,.0f} vs {c[f'oracle_{kind}']:,.0f} "
                       f"(x{c[f'oracle_{kind}'] / c[f'facade_{kind}']:.2f})")
            rows.append((f"{kind.capitalize()} {packet} DataPacket ({ops.get('bytes', '?')} B): facade vs oracle",
                         f"{f['median_ns']:,.0f} vs {o['median_ns']:,.0f} ns/op, oracle/facade x{ratio['median']:.2f}{ins}",
                         f"median of interleaved rounds (p25-p75 of ratio {ratio['p25']:.2f}-{ratio['p75']:.2f})"))
    w0 = max(len(x[0]) for x in rows)
    w1 = max(len(x[1]) for x in rows)
    print(f"  {'figure'.ljust(w0)} | {'value'.ljust(w1)} | method")
    print(f"  {'-' * w0}-+-{'-' * w1}-+-------")
    for a, b, c in rows:
        print(f"  {a.ljust(w0)} | {b.ljust(w1)} | {c}")

    if doc:
        section = ["<!-- bench:begin (written by scripts/bench.sh; edit the script, not this section) -->",
                   "## Latest `make bench` figures", "", header, "", "```sh", command, "```", "",
                   "| Figure | Value | Method |", "|---|---|---|"]
        section += [f"| {a} | {b} | {c} |" for a, b, c in rows]
        s = r.get("sizes", {})
        for config, label in [("stripped", "full dead strip"), ("default", "SwiftPM default")]:
            if config not in s:
                continue
            section += ["", f"Breakdown of the shipped layer ({label}; bytes of sized symbols in the unstripped "
                        "executable, `nm -S`; \"not in a symbol\" is the rest of text+data: unwind tables, "
                        "relocations, Swift metadata records, literals):", "",
                        "| Group | SizePacket (all types) | SizePacketPruned | SizeBaseline |", "|---|--:|--:|--:|"]
            for g in GROUPS:
                section.append(f"| {g} | {s[config]['SizePacket']['groups'][g]:,} | "
                               f"{s[config]['SizePacketPruned']['groups'][g]:,} | {s[config]['SizeBaseline']['groups'][g]:,} |")
            for g in SECTION_GROUPS:
                section.append(f"| section: {g} | {s[config]['SizePacket']['sections'][g]:,} | "
                               f"{s[config]['SizePacketPruned']['sections'][g]:,} | {s[config]['SizeBaseline']['sections'][g]:,} |")
            section.append(f"| **text+data** | {s[config]['SizePacket']['alloc']:,} | "
                           f"{s[config]['SizePacketPruned']['alloc']:,} | {s[config]['SizeBaseline']['alloc']:,} |")
        ratios = r.get("ratios")
        if ratios:
            section += ["", "Facades against plain nanopb C and Google's libprotobuf on the same bytes "
                        "(scripts/bench-ratios.sh; **bold**: facades / other, lower is better):", ""]
            section += ratio_lines(ratios)
            if ratios.get("peak_memory"):
                section += ["", "Peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh):", "", "```"]
                section += ratios["peak_memory"] + ["```"]
        section.append("<!-- bench:end -->")
        text = open(doc).read() if os.path.exists(doc) else ""
        begin, end = text.find("<!-- bench:begin"), text.find("<!-- bench:end -->")
        block = "\n".join(section)
        if begin >= 0 and end > begin:
            text = text[:begin] + block + text[end + len("<!-- bench:end -->"):]
        else:
            text = (text.rstrip("\n") + "\n\n" if text else "") + block + "\n"
        with open(doc, "w") as f:
            f.write(text)
        print(f"\n  wrote the figures into {doc} (section between the bench:begin/end markers)")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "lines":
        results_path, files = args[0], args[1:]
        results = load(results_path)
        results.update(cmd_lines(files))
        save(results_path, results)
    elif cmd == "sizes":
        cmd_sizes(args[0], args[1:])
    elif cmd == "peer-sizes":
        cmd_peer_sizes(args[0], args[1:])
    elif cmd == "codec":
        cmd_codec(args[0], args[1], args[2], int(args[3]))
    elif cmd == "ratios":
        cmd_ratios(args[0], args[1])
    elif cmd == "summary":
        opts = dict(zip(args[1::2], args[2::2]))
        cmd_summary(args[0], opts.get("--doc"), opts.get("--command", ""), opts.get("--header", ""))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
