#!/usr/bin/env python3
"""`make mutation`: mutation testing of Wireproof's own code (docs/mutation.md).

Mutants come from universalmutator (PyPI, installed by `make mutation` into .deps/mutation-venv) with
the project's own operator set (scripts/mutation/*.rules). Each mutant is applied alone to a scratch
copy of the working tree (.scratch/mutation/tree, kept between runs so builds are incremental),
built, and judged by the suites CI runs for that file:

  1. generator and script mutants first regenerate the bundled schema's output (`make proto`
     in the scratch copy): a generation that fails is a kill, as CI's check-protocol would fail;
     setup.sh mutants first run setup.sh (a failure is a kill), with a private copy of .deps;
  2. `swift build --build-tests`: a mutant that does not compile is counted apart, never scored;
  3. the layer's quick suites (`swift test --filter ...`), then, if those pass, every suite and the
     layer's extra checks: any failure kills the mutant; a step past its time limit is "timed out"
     (counted as detected: an infinite loop or a hang is what a CI run would catch).

Every script under scripts/ and every hand-written Swift file under Sources/ belongs to a layer
or to UNLAYERED (with the reason): the run fails before judging anything when one belongs to neither.

The score is (killed + timed out) / (killed + timed out + survived). Mutants listed in
scripts/mutation/equivalent.txt (with the reason) are reported but not scored.

  scripts/mutation.py [--seed N] [--sample N] [--layer NAME]... [--min-score P] [--list]

The planted bugs of plant-bugs.sh and fuzz-planted.sh (scripts/mutation/plants.txt) use the same
scratch copy: `tree DIR`, `plant NAME... --tree DIR` (exactly once), `unplant --tree DIR`, `plant --check`.

Deterministic: the same seed and tree give the same mutants in the same order. Progress goes to
stderr; the report (per layer, per file, survivors as diffs) to .scratch/mutation/report.md and
report.json.
"""

import argparse
import dataclasses
import difflib
import glob
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(ROOT, "scripts", "mutation")
SCRATCH = os.path.join(ROOT, ".scratch", "mutation")
TREE = os.path.join(SCRATCH, "tree")
PLANTED = os.path.join(".git", "planted.json")  # in a scratch copy: what is planted (see planted())


@dataclasses.dataclass
class Layer:
    """A part of the code and the checks CI runs when it changes. Operators come from the file's
    language (RULES_BY_EXTENSION), so a layer may hold Swift and its Python or shell helpers."""
    name: str
    patterns: list          # files, relative to the root (globs)
    quick: str              # `swift test --filter` of the suites closest to the layer
    regenerate: bool = False  # the bundled output must be regenerated before building
    extra: tuple = ()       # further commands run after the full suites (e.g. check-protocol)
    build_is_check: bool = False  # the code exists to break the build (ABI guard, config asserts)
    prepare: tuple = ()     # commands run before the build (a failure kills); run again unmutated after
    extra_limit: int = 0    # seconds an extra check may take (0: the build's limit); for CI legs
    private_deps: bool = False  # the scratch copy gets its own .deps (the code writes there)
    sampled: bool = True    # in runs without --layer; False: a mutant may cost a CI leg's time


RULES_BY_EXTENSION = {".swift": "swift", ".c": "c", ".h": "c", ".sh": "sh", ".py": "py"}

LAYERS = [
    Layer("runtime", ["Sources/Shipped/NanopbRuntime/*.swift", "Sources/Shipped/NanopbDeviceLimits/*.swift"],
          "NanopbRuntimeTests|FacadeEdgeCaseTests|RuntimeLimitTests"),
    Layer("c-config", ["Sources/Shipped/CNanopb/include/wireproof_*.h",
                       "Sources/Shipped/CNanopb/wireproof_abi_check.c"],
          "NanopbRuntimeTests|FacadeEdgeCaseTests|CNanopbTests|ProtoGenKitTests", extra=("make check-protocol",),
          build_is_check=True),
    Layer("generator", ["Sources/Tools/ProtoGenKit/*.swift", "Sources/Tools/ProtoGenKit/Generation/*.swift"],
          "ProtoGenKitTests|NanopbRuntimeTests|FacadeEdgeCaseTests|ConformanceTests", regenerate=True),
    # ConformanceTests (slow: every exemplar through the facades) runs in the all-suites step.
    Layer("oracle", ["Sources/Proof/ProtoOracle/*.swift"], "ProtoOracleTests"),
    Layer("schema", ["Sources/Proof/ProtoSchema/*.swift"], "ProtoSchemaTests|ProtoOracleTests"),
    Layer("proof", ["Sources/Proof/FacadeProof/*.swift", "Sources/Proof/OracleCheck/*.swift",
                    "Sources/Proof/CatalogGenerator/*.swift"],
          "FacadeProofTests|ConformanceTests|ProtoOracleTests"),
    Layer("transport", ["Sources/Wire/WireTransport/*.swift"], "WireTransportTests"),
    # The generation scripts and check-protocol itself (lib.sh: every bash script sources it).
    Layer("scripts", ["scripts/proto-options.py", "scripts/check-protocol.sh", "scripts/nanopb-symbols.sh",
                      "scripts/lib.sh"],
          "ProtoGenKitTests|NanopbRuntimeTests|ConformanceTests|CNanopbTests", regenerate=True,
          extra=("make check-protocol",)),
    # Layers added later come after these eight, so a sample of 8 (CI's) takes one mutant from each
    # of the eight, as before. Those marked sampled=False are judged only when named with --layer.
    # The command-line tools and their process plumbing: prove, generate, oracle-check.
    Layer("tools", ["Sources/Tools/ProveKit/*.swift", "Sources/Tools/protogen/*.swift",
                    "Sources/Tools/wireproof/*.swift", "Sources/Tools/CommandLineSupport/*.swift",
                    "Sources/Tools/ProcessSupport/*.swift", "Sources/Proof/ProofSupport/*.swift"],
          "ProcessSupportTests|ProveKitTests|ProtoOracleTests", extra=("make check-protocol",)),
    # nanopb's own generator run with the schema's options, and the device party built from it.
    Layer("device", ["Sources/Proof/DeviceProof/*.swift", "Sources/Tools/NanopbDeviceLayout/*.swift",
                     "scripts/device-build.py", "scripts/nanopb_options_file.py"],
          "DeviceProofTests|DeviceLimitEmitterTests"),
    # make interop runs the discovery suite in its namespace, next to the openssl and socat peers.
    Layer("discovery", ["Sources/Wire/WireDiscovery/*.swift", "scripts/discovery-test.sh", "scripts/interop.sh"],
          "WireDiscoveryTests|InteropTests", extra=("make interop",), extra_limit=600, sampled=False),
    Layer("netfuzz", ["Sources/Tools/NetFuzz/*/*.swift", "scripts/netfuzz.sh", "scripts/wire-pki.sh"],
          "WireTransportTests", extra=("make netfuzz",), extra_limit=900, sampled=False),
    Layer("exerciser", ["Sources/Proof/RuntimeExerciser/*.swift", "scripts/valgrind.sh"],
          "NanopbRuntimeTests", extra=("make valgrind",), extra_limit=900, sampled=False),
    # setup.sh installs the patched nanopb runtime the build compiles: it runs before the build, a
    # build it breaks is a kill, and it gets a private .deps (it would otherwise write the shared one).
    Layer("setup", ["scripts/setup.sh"], "CNanopbTests|NanopbRuntimeTests|ProtoScriptTests",
          prepare=("bash scripts/setup.sh >/dev/null",), build_is_check=True, private_deps=True, sampled=False),
    Layer("conformance", ["scripts/conformance.sh", "scripts/build-conformance-runner.sh"],
          "ConformanceTests", extra=("make conformance",), extra_limit=900, sampled=False),
    # The SwiftProtobuf peer package's driver. These files are in the tools layer too (sampled there
    # with ProveKitTests); named with --layer, a mutant of them also faces make migration-sample.
    Layer("migration", ["Sources/Tools/ProveKit/SwiftProtobufPeer.swift", "Sources/Tools/ProveKit/SwiftProtobufPeer+*.swift",
                        "Sources/Tools/ProveKit/SwiftProtobufPlan.swift", "Sources/Tools/ProveKit/GeneratedFolderSync.swift"],
          "ProveKitTests|MigrationSampleTests", extra=("make migration-sample",), extra_limit=900, sampled=False),
    Layer("foreign", ["scripts/check-foreign-schemas.sh", "scripts/foreign-corpus.sh"],
          "ProtoGenKitTests", extra=("make check-foreign",), extra_limit=3600, sampled=False),
    Layer("sanitizers", ["scripts/sanitize.sh"], "NanopbRuntimeTests",
          extra=("make asan", "make tsan"), extra_limit=3600, sampled=False),
    Layer("fuzz", ["scripts/fuzz.sh", "scripts/fuzz-env.sh", "scripts/fuzz-setup.sh", "scripts/cflite-check.sh"],
          "NanopbRuntimeTests", extra=("make fuzz-smoke",), extra_limit=1200, sampled=False),
    Layer("wide-schema", ["scripts/wide-schema.sh"], "RuntimeLimitTests",
          extra=("make check-wide-schema",), extra_limit=1200, sampled=False),
    # make bench's reporter: attribution, callgrind listings, the summary's goals, the doc section.
    Layer("bench-report", ["Sources/Tools/BenchReport/*.swift"], "BenchReportTests"),
]

# Hand-written code that belongs to no layer, each with the reason. `check_layers` fails on any
# file under scripts/ (*.sh, *.py) or Sources/ (*.swift, not Sources/Generated) that matches
# neither a layer nor this list, so new code cannot silently escape mutation testing.
UNLAYERED = {
    # Measurements: they print figures for the docs; no test or CI leg runs them or reads what
    # they print, so every mutant of theirs would survive.
    "scripts/bench.sh": "a measurement (make bench); nothing runs it in CI or checks its figures",
    "scripts/bench-ratios.sh": "a measurement (bench.sh --ratios); nothing runs it in CI or checks its figures",
    "scripts/udp-batch-bench.sh": "a measurement (make udp-batch-bench); nothing runs it in CI",
    "scripts/load-test.sh": "a load run (make load-test) by hand; no CI leg runs it",
    "scripts/peak-memory.sh": "a measurement (make peak-memory); no CI leg runs it",
    "scripts/fuzz-rate.sh": "a measurement of fuzzing speed; nothing runs it in CI",
    "Sources/Tools/wirebench/*.swift": "the benchmark binary of udp-batch-bench.sh and load-test.sh; no test runs it",
    # Checks of the checks, run by hand: their own job is to make a sanitizer or fuzzer fail.
    "scripts/plant-bugs.sh": "plants bugs to show the sanitizer and valgrind legs catch them; run by hand, no CI leg",
    "scripts/fuzz-planted.sh": "plants bugs to show the fuzz targets find them; run by hand, no CI leg",
    # Optional paths no CI leg takes.
    "scripts/fuzz-plot.py": "draws a coverage plot after a fuzz campaign (make fuzz), not in the smoke leg; nothing reads the plot",
    # Unsafe to mutate in a scratch copy.
    "scripts/swiftpm-mirrors.py": "writes the machine-wide ~/.swiftpm mirror file (a mutant would redirect every "
                                  "SwiftPM build on the machine), and runs only where ../shared/vendor exists, "
                                  "which the scratch copy has not",
    "scripts/mutation.py": "this tool: judging its mutants means running it inside itself (make mutation-ci, "
                           "~15 min a mutant); docs/mutation.md 'Shown to work' records its checks",
}


def check_layers():
    """Every script and hand-written Swift file belongs to a layer or to UNLAYERED. Returns the
    files that belong to neither."""
    layered = set()
    for layer in LAYERS:
        layered.update(layer_files(layer))
    excluded = set()
    for pattern in UNLAYERED:
        excluded.update(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    wanted = set()
    for pattern in ("scripts/**/*.sh", "scripts/**/*.py", "Sources/**/*.swift"):
        wanted.update(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern), recursive=True))
    wanted = {p for p in wanted if not p.startswith("Sources/Generated/")}
    return sorted(wanted - layered - excluded)


@dataclasses.dataclass
class Mutant:
    layer: Layer
    path: str      # relative to the root
    line: int      # 1-based
    original: str
    mutated: str
    rule: str

    @property
    def ident(self):
        """Stable across runs while the line's text stays: path, line text hash, mutant hash."""
        h = hashlib.sha1((self.original + "\0" + self.mutated).encode()).hexdigest()[:10]
        return f"{self.path}:{self.line}:{h}"

    @property
    def key(self):
        return key_of(self.ident)

    def diff(self):
        return "".join(difflib.unified_diff([self.original], [self.mutated],
                                            f"a/{self.path}", f"b/{self.path}", n=0,
                                            lineterm="\n")).replace("@@ -1 +1 @@", f"@@ line {self.line} @@")


def key_of(ident):
    """`path:line:hash` without the line number: what equivalent.txt and --resume match on, so a
    mutant keeps its verdict when code above it moves."""
    path, _, rest = ident.partition(":")
    return f"{path}:{rest.partition(':')[2]}"


def log(*parts):
    print("mutation:", *parts, file=sys.stderr, flush=True)


def layer_files(layer):
    files = []
    for pattern in layer.patterns:
        files += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    return files


GLOB_MASK = "\x01\x02"


def mask_prose(path, source):
    """`source` with the lines the rules must not see blanked (the tool skips blank lines; line
    numbers stay): a Python docstring's lines, and the body of a shell here-document (prose, or
    code in another language: deleting a Python line of it with `:` is no fault of the script's)."""
    masked = list(source)
    if path.endswith((".py", ".sh")):
        # universalmutator reads `/*` as the start of a C block comment and skips every line up to
        # a `*/`: a glob such as `"$dir"/*.h` hid the rest of a script. Masked here, restored in
        # the mutants (GLOB_MASK has the same length, and no rule matches it).
        masked = [line.replace("/*", GLOB_MASK) for line in source]
    if path.endswith(".py"):
        inside = False
        for i, line in enumerate(source):
            quotes = line.count('"""') + line.count("'''")
            if inside or quotes:
                masked[i] = "\n"
            if quotes % 2:
                inside = not inside
    elif path.endswith(".sh"):
        end = None
        for i, line in enumerate(source):
            if end is not None:
                masked[i] = "\n"
                if line.strip() == end:
                    end = None
                continue
            here = re.search(r"<<-?\s*['\"]?([A-Za-z_]\w*)['\"]?", line)
            if here and "<<<" not in line:
                end = here.group(1)
    return masked


def generate(layer):
    """Every mutant of every file of `layer`, in file and line order."""
    from universalmutator import mutator  # noqa: E402 (installed by make mutation)
    out = []
    for path in layer_files(layer):
        # The file's language picks the operators (the shell ones would turn Python lines into `:`).
        rules = os.path.join(RULES, RULES_BY_EXTENSION[os.path.splitext(path)[1]] + ".rules")
        with open(os.path.join(ROOT, path)) as f:
            source = f.readlines()
        masked = mask_prose(path, source)
        devnull = open(os.devnull, "w")
        saved, sys.stdout = sys.stdout, devnull  # universalmutator prints per rule file
        try:
            # ignoreStringOnly: a mutant that only changes a string literal (a message) is not a fault.
            found = mutator.mutants_regexp(masked, ruleFiles=[rules], ignorePatterns=[], ignoreStringOnly=True)
        finally:
            sys.stdout = saved
            devnull.close()
        for (line, mutated, rule_used, _) in found:
            original = source[line - 1]
            mutated = mutated.replace(GLOB_MASK, "/*")
            if mutated.strip() == original.strip():
                continue
            out.append(Mutant(layer, path, line, original, mutated, rule_used[0]))
    return out


def sample(mutants_by_layer, count, seed):
    """`count` mutants spread round-robin over the layers (in LAYERS order). Within a layer the order is a hash of the
    seed and the mutant's text (file, original and mutated line, not the line number), so an edit
    elsewhere does not change which mutants a seed picks: only new or changed code brings new ones."""
    def key(m):
        return hashlib.sha1(f"{seed}\0{m.path}\0{m.original}\0{m.mutated}".encode()).hexdigest()
    queues = [sorted(mutants, key=key, reverse=True) for mutants in mutants_by_layer.values()]  # LAYERS order
    picked = []
    while len(picked) < count and any(queues):
        for q in queues:
            if q and len(picked) < count:
                picked.append(q.pop())
    return picked


def run(cmd, timeout, cwd=None, logfile=None, retry_timeout=False):
    """Runs a shell command; returns 'ok', 'failed' or 'timeout'. With `retry_timeout`, a step that
    runs out of time is run once more with twice the limit before it counts as timed out, so a
    machine that was busy for a moment does not turn a survivor into a "timed out" (a kill)."""
    outcome = run_once(cmd, timeout, cwd or TREE, logfile)
    if outcome == "timeout" and retry_timeout:
        with open(logfile or os.devnull, "a") as out:
            out.write(f"\n(timed out after {timeout:.0f} s; once more with {2 * timeout:.0f} s)\n")
        outcome = run_once(cmd, 2 * timeout, cwd or TREE, logfile)
    return outcome


def run_once(cmd, timeout, cwd, logfile):
    with open(logfile or os.devnull, "a") as out:
        out.write(f"\n$ {cmd}\n")
        out.flush()
        started = time.time()
        proc = subprocess.Popen(cmd, shell=True, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, env=dict(os.environ, CI="", WIREPROOF_MUTATION="1"))
        try:
            outcome = "ok" if proc.wait(timeout=timeout) == 0 else "failed"
        except subprocess.TimeoutExpired:
            kill_session(proc.pid)
            proc.wait()
            outcome = "timeout"
        out.write(f"({outcome} in {time.time() - started:.1f} s)\n")
        return outcome


def kill_session(sid):
    """Kills every process of session `sid` (the step's shell leads a session of its own). Killing
    its process group is not enough: swift test starts the test binary in a group of its own, and
    a timed-out mutant's test run (an endless loop) kept spinning, slowing every later step.
    A process may fork while /proc is read, so the sweep repeats until it finds none (5 at most)."""
    for _ in range(5):
        found = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue  # gone meanwhile
            # After the command name (in parentheses, may contain spaces): state, ppid, pgrp, session.
            fields = stat[stat.rfind(")") + 2:].split()
            if fields[0] != "Z" and int(fields[3]) == sid:
                found += 1
                try:
                    os.kill(int(entry), 9)
                except ProcessLookupError:
                    pass
        if not found:
            return


def prepare_tree(tree, private_deps=False, also=()):
    """The scratch copy in `tree`: the working tree's tracked and untracked (not ignored) files and
    the ignored folders `also`, in a git repository of its own (a mutant is undone by `git checkout`
    + `git clean`). A refresh undoes a plant left behind, deletes what the working tree no longer has
    and keeps ignored files (build folders, setup.sh's staged runtime), so builds stay incremental.
    .deps is linked; with `private_deps` (setup.sh mutants, the nanopb plant) what setup.sh unpacks
    is copied, so nothing done there reaches the working tree's own."""
    files = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    files = {f for f in files if os.path.isfile(os.path.join(ROOT, f))}  # not deleted in the working tree
    os.makedirs(tree, exist_ok=True)
    if os.path.isdir(os.path.join(tree, ".git")):
        if os.path.isfile(os.path.join(tree, PLANTED)):
            unplant(tree)
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=tree, capture_output=True).stdout.decode()
        for rel in set(listed.split("\0")) - files - {""}:
            pathlib.Path(tree, rel).unlink(missing_ok=True)
    for rel in files:
        os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(tree, rel))
    for rel in also:
        shutil.rmtree(os.path.join(tree, rel), ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, rel), os.path.join(tree, rel), dirs_exist_ok=True)
    deps, shared = os.path.join(tree, ".deps"), os.path.join(ROOT, ".deps")
    if os.path.lexists(deps) and os.path.islink(deps) == private_deps:  # the other kind, from an earlier run
        os.remove(deps) if private_deps else shutil.rmtree(deps)
    if not private_deps and not os.path.lexists(deps):
        os.symlink(shared, deps)
    for entry in os.listdir(shared) if private_deps else []:
        src, dst = os.path.join(shared, entry), os.path.join(deps, entry)
        if not os.path.lexists(dst):  # copies of what setup.sh unpacks (and writes into), links to the rest
            os.makedirs(deps, exist_ok=True)
            shutil.copytree(src, dst, symlinks=True) if entry in ("nanopb", "protobuf") else os.symlink(src, dst)
    git = ["git", "-c", "user.name=mutation", "-c", "user.email=mutation@localhost"]
    shutil.rmtree(os.path.join(tree, ".git"), ignore_errors=True)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "baseline"]):
        subprocess.run(git + args, cwd=tree, check=True, capture_output=True)
    planted(tree, [])


def restore():
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=TREE, check=True)
    subprocess.run(["git", "clean", "-fdq"], cwd=TREE, check=True)


def in_transparent_function(tree, path, line):
    """Whether line `line` (1-based) of `path` is inside a Swift function marked `@_transparent`:
    its body is inlined into callers even in debug builds, and SwiftPM's incremental build does not
    recompile those callers when only the body changes (the build would judge stale code)."""
    if not path.endswith(".swift"):
        return False
    with open(os.path.join(tree, path)) as f:
        lines = f.readlines()[:line]
    for index in range(len(lines) - 1, -1, -1):
        if " func " in lines[index] or lines[index].lstrip().startswith("func "):
            before = "".join(lines[max(0, index - 3):index])
            return "@_transparent" in before or "@_transparent" in lines[index]
    return False


def touch_swift_callers(tree):
    """Marks every Swift file outside the runtime changed, so the build recompiles the callers."""
    for folder in ("Sources", "Tests"):
        for path in glob.glob(os.path.join(tree, folder, "**", "*.swift"), recursive=True):
            if "/NanopbRuntime/" not in path:
                os.utime(path)


def refuse(message, status=1):
    """Ends a planting command with a one-line error (status 2: no such plant)."""
    print(f"plant: {message}", file=sys.stderr)
    sys.exit(status)


def read_plants():
    """name -> [file, old text, new text] from plants.txt (its header gives the format)."""
    plants = {}
    with open(os.path.join(RULES, "plants.txt")) as f:
        for raw in f:
            if raw.startswith("plant "):
                name, path = raw.split()[1:3]
                plants[name] = [path, "", ""]
            elif raw[:1] in ("-", "+"):
                plants[name][1 if raw[0] == "-" else 2] += raw[1:]
    return plants


def planted(tree, record=None):
    """Reads, or writes when given, the record of the plants in `tree`: each planted file's path,
    original text, and whether the callers were touched. Only prepare_tree creates the record, so
    nothing but its scratch copies is ever planted."""
    if record is not None:
        with open(os.path.join(tree, PLANTED), "w") as f:
            return json.dump(record, f)
    if not os.path.isfile(os.path.join(tree, PLANTED)):
        refuse(f"{tree} is not a scratch copy made by `mutation.py tree`")
    with open(os.path.join(tree, PLANTED)) as f:
        return json.load(f)


def plant(tree, name, touch=True):
    """Applies plant `name` in `tree`: its old lines must be in the file exactly once, and the file
    inside `tree` (not behind a link out of it, such as a linked .deps). The original is recorded
    for unplant; a plant in a `@_transparent` Swift function marks the callers changed."""
    plants = read_plants()
    if name not in plants:
        refuse(f"unknown plant '{name}' (known: {' '.join(plants)})", 2)
    path, old, new = plants[name]
    target, record = os.path.join(tree, path), planted(tree)
    if not os.path.isfile(target) or not os.path.realpath(target).startswith(os.path.realpath(tree) + os.sep):
        refuse(f"{name}: {path} is no file inside {tree} (a plant in .deps needs `tree --private-deps`)")
    with open(target, newline="") as f:
        text = f.read()
    found = ("\n" + text).count("\n" + old)
    if found != 1:
        refuse(f"{name}: its lines are in {path} {found} times, not once (the code changed?)")
    at = ("\n" + text).index("\n" + old)
    touch = touch and in_transparent_function(tree, path, text.count("\n", 0, at) + 1)
    planted(tree, record + [{"path": path, "text": text, "touch": touch}])
    with open(target, "w", newline="") as f:
        f.write(text[:at] + new + text[at + len(old):])
    if touch:
        touch_swift_callers(tree)


def unplant(tree):
    """Writes back every file a plant changed in `tree` (newly dated, so the next build sees it)."""
    record = planted(tree)
    for entry in reversed(record):
        with open(os.path.join(tree, entry["path"]), "w", newline="") as f:
            f.write(entry["text"])
    if any(entry["touch"] for entry in record):
        touch_swift_callers(tree)
    planted(tree, [])


def check_plant(tree, name):
    """Applies plant `name` in `tree` and undoes it: the file must change, then come back byte for byte."""
    path = pathlib.Path(tree, read_plants().get(name, ["?"])[0])
    before = path.read_bytes() if path.is_file() else b""
    plant(tree, name, touch=False)  # refuses an unknown plant, or lines not found exactly once
    after = path.read_bytes()
    unplant(tree)
    if after == before or path.read_bytes() != before:
        refuse(f"{name}: {path} did not change, or did not come back as it was")
    print(f"plant: {name} applies once to {os.path.relpath(path, tree)} and unplants cleanly")


def planting(args):
    """The commands `tree`, `unplant`, `plant` and `plant --check` (every plant without names)."""
    if args.command == "tree":
        prepare_tree(os.path.abspath(args.dir), args.private_deps, args.also)
    elif args.command == "unplant":
        unplant(args.tree)
    for name in (args.names or read_plants()) if args.command == "plant" and args.check else []:
        check_plant(args.tree, name)
    for name in args.names if args.command == "plant" and not args.check else []:
        plant(args.tree, name)
    return 0


class NeedsFullBaseline(Exception):
    """A mutant survived its quick suites before every suite was timed on the unmutated tree."""


def judge(m, timeouts, logfile):
    """Applies `m` in the scratch tree, judges it, undoes it. Returns (outcome, detail)."""
    target = os.path.join(TREE, m.path)
    with open(target) as f:
        lines = f.readlines()
    assert lines[m.line - 1] == m.original, f"{m.ident}: the scratch copy differs from the tree"
    lines[m.line - 1] = m.mutated
    with open(target, "w") as f:
        f.writelines(lines)
    if in_transparent_function(TREE, m.path, m.line):
        touch_swift_callers(TREE)
    try:
        for cmd in m.layer.prepare:
            r = run(cmd, timeouts["build"], logfile=logfile)
            if r != "ok":
                return ("killed", f"{cmd} failed") if r == "failed" else ("timeout", cmd)
        if m.layer.regenerate:
            if m.layer.name == "generator":
                r = run("swift build --product protogen", timeouts["build"], logfile=logfile)
                if r != "ok":
                    return ("no-compile", "protogen does not build") if r == "failed" else ("timeout", "build")
            r = run("make proto >/dev/null", timeouts["build"], logfile=logfile)
            if r != "ok":
                return ("killed", "make proto failed") if r == "failed" else ("timeout", "make proto")
        r = run("swift build --build-tests", timeouts["build"], logfile=logfile, retry_timeout=True)
        if r == "timeout":
            return ("timeout", "build")
        if r == "failed":
            # A generator or script mutant whose output does not compile is caught by CI's build, and
            # so is a config mutant that trips the ABI guard: that guard's job is to break the build.
            if m.layer.regenerate:
                return ("killed", "generated code does not build")
            if m.layer.build_is_check:
                return ("killed", "the build's own checks")
            return ("no-compile", "")
        # The layer's quick suites, then every other suite (timed on the unmutated tree first).
        r = run(f"swift test --skip-build --filter '{m.layer.quick}'", timeouts["quick"], logfile=logfile,
                retry_timeout=True)
        if r != "ok":
            return ("killed", "quick suites") if r == "failed" else ("timeout", "quick suites")
        if "full" not in timeouts:
            raise NeedsFullBaseline()
        steps = [("all suites", f"swift test --skip-build --skip '{m.layer.quick}'", timeouts["full"])]
        steps += [(cmd, cmd, m.layer.extra_limit or timeouts["build"]) for cmd in m.layer.extra]
        for name, cmd, limit in steps:
            r = run(cmd, limit, logfile=logfile, retry_timeout=True)
            if r == "failed":
                return ("killed", name)
            if r == "timeout":
                return ("timeout", name)
        return ("survived", "")
    finally:
        restore()
        if in_transparent_function(TREE, m.path, m.line):  # callers inlined the mutant: recompile them
            touch_swift_callers(TREE)
        # What a prepare step wrote outside the tracked files (setup.sh's git-ignored nanopb copy
        # in Sources/Shipped/CNanopb) is not undone by restore(): the unmutated step rewrites it.
        for cmd in m.layer.prepare:
            if run(cmd, timeouts["build"], logfile=logfile) != "ok":
                log(f"the unmutated `{cmd}` failed after {m.ident}; see {logfile}")


def load_results(path):
    """The last verdict per mutant id in a results.jsonl an earlier run appended to."""
    found = {}
    if os.path.exists(path):
        for raw in open(path):
            if raw.strip():
                entry = json.loads(raw)
                found[key_of(entry["id"])] = entry
    return found


def describe_tree():
    """The commit the working tree is at, marked when it has uncommitted changes."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def load_equivalent():
    path = os.path.join(RULES, "equivalent.txt")
    known = {}
    if os.path.exists(path):
        for raw in open(path):
            line = raw.strip()
            if line and not line.startswith("#"):
                ident, _, reason = line.partition(" ")
                known[key_of(ident)] = reason.strip()
    return known


def main():
    global SCRATCH, TREE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=0, help="judge this many mutants (0: all)")
    ap.add_argument("--layer", action="append", default=[],
                    help="only these layers (repeatable); without it, every layer but those whose checks "
                         "are whole CI legs (sampled=False in LAYERS)")
    ap.add_argument("--min-score", type=float, default=0.0, help="fail below this score (0-100)")
    ap.add_argument("--list", action="store_true", help="list the chosen mutants and stop")
    ap.add_argument("--resume", action="store_true",
                    help="reuse the verdicts in .scratch/mutation/results.jsonl for mutants judged before")
    ap.add_argument("--rejudge", action="append", default=[], metavar="OUTCOME",
                    help="with --resume: judge again the mutants whose last verdict was OUTCOME "
                         "(e.g. survived, after adding the tests that should kill them)")
    ap.add_argument("--scratch", default=SCRATCH,
                    help="folder of the scratch copy, log and results (one per concurrent run)")
    ap.add_argument("--shard", default="0/1", metavar="K/N",
                    help="judge only the chosen mutants at positions K, K+N, K+2N, ... (concurrent runs)")
    ap.add_argument("--results-from", action="append", default=[], metavar="DIR",
                    help="with --resume: also reuse the verdicts in DIR/results.jsonl (another shard's)")
    ap.add_argument("--no-new", action="store_true",
                    help="with --resume: judge only mutants that have a verdict on record (with --rejudge: "
                         "just those again); the others are reported as not judged")
    ap.add_argument("--report-only", action="store_true",
                    help="judge nothing: report the verdicts --resume finds (unjudged mutants are listed)")
    ap.add_argument("--timeout-scale", type=float, default=3.0,
                    help="a step may take this many times its baseline duration")
    sub = ap.add_subparsers(dest="command", help="planting (scripts/mutation/plants.txt) in a scratch copy")
    tree = sub.add_parser("tree", help="copy or refresh the working tree into DIR (ignored files are kept)")
    tree.add_argument("dir")
    tree.add_argument("--private-deps", action="store_true", help="copy .deps/nanopb and .deps/protobuf, not link")
    tree.add_argument("--also", action="append", default=[], metavar="FOLDER", help="a git-ignored folder to copy too")
    planter = sub.add_parser("plant", help="apply the named plants (--check: apply and undo each)")
    planter.add_argument("names", nargs="*")
    planter.add_argument("--check", action="store_true")
    for p in (planter, sub.add_parser("unplant", help="put back every file a plant changed")):
        p.add_argument("--tree", required=True, help="a scratch copy made by `tree`")
    args = ap.parse_args()
    if args.command:
        return planting(args)
    SCRATCH = os.path.abspath(args.scratch)
    TREE = os.path.join(SCRATCH, "tree")
    shard, _, shards = args.shard.partition("/")
    if not (shard.isdigit() and shards.isdigit() and int(shard) < int(shards)):
        ap.error("--shard takes K/N with 0 <= K < N")

    unlayered = check_layers()
    if unlayered:
        for path in unlayered:
            log(f"{path} belongs to no layer: add it to one in scripts/mutation.py (LAYERS), or to "
                f"UNLAYERED with the reason no check can judge its mutants")
        return 2
    layers = [l for l in LAYERS if l.name in args.layer] if args.layer else [l for l in LAYERS if l.sampled]
    unknown = set(args.layer) - {l.name for l in LAYERS}
    if unknown:
        ap.error(f"unknown layer(s) {', '.join(sorted(unknown))}; known: {', '.join(l.name for l in LAYERS)}")
    by_layer = {l.name: generate(l) for l in layers}
    total = sum(len(v) for v in by_layer.values())
    chosen = sample(by_layer, args.sample or total, args.seed)
    if not args.report_only:
        chosen = chosen[int(shard)::int(shards)]
    log(f"{total} mutants over {len(layers)} layers; judging {len(chosen)} (seed {args.seed})")
    if args.list:
        for m in chosen:
            print(f"{m.layer.name:10} {m.ident}\n{m.diff()}")
        return 0

    equivalent = load_equivalent()
    os.makedirs(SCRATCH, exist_ok=True)
    results_path = os.path.join(SCRATCH, "results.jsonl")
    earlier = {}
    if args.resume:
        for folder in args.results_from + [SCRATCH]:
            earlier.update(load_results(os.path.join(folder, "results.jsonl")))
    if args.report_only:
        def verdict(m):
            if m.key in equivalent:
                return (m, "equivalent", equivalent[m.key], 0.0)
            if m.key in earlier:
                e = earlier[m.key]
                return (m, e["outcome"], e["detail"], e["seconds"])
            return (m, "not judged", "", 0.0)
        return finish([verdict(m) for m in chosen], args, 0.0)
    logfile = os.path.join(SCRATCH, "steps.log")
    open(logfile, "w").close()
    if not args.resume:
        open(results_path, "w").close()
    tree_state = describe_tree()
    log("preparing the scratch copy and its baseline build (incremental after the first run)")
    prepare_tree(TREE, private_deps=any(m.layer.private_deps for m in chosen))
    clock = time.time()
    if run("bash scripts/setup.sh >/dev/null && swift build --build-tests", 3600, logfile=logfile) != "ok":
        log(f"the unmutated tree does not build; see {logfile}")
        return 2
    build_s = time.time() - clock
    clock = time.time()
    quick_layers = sorted({m.layer.quick for m in chosen})
    for q in quick_layers:
        if run(f"swift test --skip-build --filter '{q}'", 1800, logfile=logfile) != "ok":
            log(f"the unmutated tree fails its suites ({q}); see {logfile}")
            return 2
    quick_s = (time.time() - clock) / max(1, len(quick_layers))
    timeouts = {"build": max(300, args.timeout_scale * build_s), "quick": max(60, args.timeout_scale * quick_s)}

    def time_all_suites():
        """Rebuilds the unmutated tree and times every suite on it: the limit for "all suites"."""
        if run("swift build --build-tests", 3600, logfile=logfile) != "ok":
            return False
        clock = time.time()
        if run("swift test --skip-build", 3600, logfile=logfile) != "ok":
            return False
        full_s = time.time() - clock
        timeouts["full"] = max(120, args.timeout_scale * full_s)
        log("baseline: all suites %.0f s on the unmutated tree; limit %d s" % (full_s, timeouts["full"]))
        return True
    log("baseline: build %.0f s, quick suites %.0f s; limits %s (all suites: measured when a mutant "
        "first reaches them)" % (build_s, quick_s, {k: int(v) for k, v in timeouts.items()}))

    results = []
    started = time.time()
    for i, m in enumerate(chosen, 1):
        t0 = time.time()
        before = earlier.get(m.key)
        if m.key in equivalent:
            outcome, detail = "equivalent", equivalent[m.key]
        elif before and before["outcome"] not in args.rejudge:
            outcome, detail = before["outcome"], before["detail"]
            results.append((m, outcome, detail, before["seconds"]))
            log(f"[{i}/{len(chosen)}] {m.layer.name} {m.path}:{m.line} {outcome} (judged before, {before['tree']})")
            continue
        elif not before and args.no_new:
            results.append((m, "not judged", "", 0.0))
            continue
        else:
            with open(logfile, "a") as out:
                out.write(f"\n===== mutant {m.ident}\n{m.diff()}")
            try:
                outcome, detail = judge(m, timeouts, logfile)
            except NeedsFullBaseline:
                if not time_all_suites():
                    log(f"the unmutated tree fails its suites; see {logfile}")
                    return 2
                outcome, detail = judge(m, timeouts, logfile)
        seconds = time.time() - t0
        results.append((m, outcome, detail, seconds))
        with open(results_path, "a") as out:
            out.write(json.dumps({"id": m.ident, "layer": m.layer.name, "outcome": outcome, "detail": detail,
                                  "seconds": round(seconds, 1), "tree": tree_state,
                                  "was": before["outcome"] if before else None}) + "\n")
        log(f"[{i}/{len(chosen)}] {m.layer.name} {m.path}:{m.line} {outcome}"
            f"{' (' + detail + ')' if detail else ''}{' (was ' + before['outcome'] + ')' if before else ''}"
            f" in {seconds:.0f} s")
        write_report(results, args, time.time() - started)  # a run cut short still leaves its report

    return finish(results, args, time.time() - started)


def finish(results, args, seconds):
    """Writes the report, prints its table, and turns the score into the exit status."""
    report = write_report(results, args, seconds)
    print(report["table"])
    score = report["score"]
    if score is None:
        log("no mutant compiled: no score")
        return 1 if args.min_score > 0 else 0
    if score < args.min_score:
        log(f"FAILED: score {score:.1f} % is below {args.min_score:.1f} %")
        return 1
    log(f"score {score:.1f} % (minimum {args.min_score:.1f} %)")
    return 0


def write_report(results, args, seconds):
    def tally(rows):
        c = {k: 0 for k in ("killed", "timeout", "survived", "no-compile", "equivalent", "not judged")}
        for _, outcome, _, _ in rows:
            c[outcome] += 1
        scored = c["killed"] + c["timeout"] + c["survived"]
        c["score"] = None if scored == 0 else 100.0 * (c["killed"] + c["timeout"]) / scored
        return c

    def fmt(name, c):
        s = "-" if c["score"] is None else f"{c['score']:.1f}%"
        return (f"{name:44} {c['killed']:7} {c['timeout']:8} {c['survived']:9} {c['no-compile']:11} "
                f"{c['equivalent']:11} {c['not judged']:11} {s:>7}")

    header = (f"{'layer / file':44} {'killed':>7} {'timeout':>8} {'survived':>9} {'no-compile':>11} "
              f"{'equivalent':>11} {'not judged':>11} {'score':>7}")
    lines = [header]
    data = {"seed": args.seed, "sample": args.sample, "seconds": round(seconds), "layers": {}, "survivors": []}
    for layer in LAYERS:
        rows = [r for r in results if r[0].layer is layer]
        if not rows:
            continue
        c = tally(rows)
        lines.append(fmt(layer.name, c))
        data["layers"][layer.name] = c
        for path in sorted({r[0].path for r in rows}):
            lines.append(fmt("  " + path, tally([r for r in rows if r[0].path == path])))
    total = tally(results)
    lines.append(fmt("total", total))
    judged = sum(r[3] for r in results)
    lines.append(f"{len(results)} mutants, seed {args.seed}: {judged / 60:.1f} min of judging "
                 f"(this run {seconds / 60:.1f} min; verdicts reused by --resume keep their own time)")
    table = "\n".join(lines)
    md = ["# Mutation report", "", "```", table, "```", "", "## Survivors", ""]
    for m, outcome, _, _ in results:
        if outcome == "survived":
            md += [f"### {m.ident} ({m.layer.name})", "", "```diff", m.diff().rstrip("\n"), "```", ""]
            data["survivors"].append({"id": m.ident, "layer": m.layer.name, "diff": m.diff()})
    data["total"] = total
    with open(os.path.join(SCRATCH, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(SCRATCH, "report.json"), "w") as f:
        json.dump(data, f, indent=1)
    return {"table": table, "score": total["score"]}


if __name__ == "__main__":
    sys.exit(main())
