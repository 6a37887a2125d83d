#!/usr/bin/env bash
# `make check-foreign`: the whole proof (`wireproof prove`) on schemas this project has never seen,
# and the refusals and links a real schema meets. Fails on any failure; prints progress per schema
# and a final table (messages, exemplars, passed, deviation rows exercised, seconds).
#   1. every schema of the foreign corpus (scripts/foreign-corpus.sh: googleapis, onnx, onnx-ml,
#      test_messages_proto3, the well-known types, descriptor.proto, nanopb's own test schemas with
#      their .options files), our naming torture schema (Tests/Schemas/naming) and our option
#      schemas (Tests/Schemas/options-*: every option kind, wildcard patterns, repeated file
#      options, a schema shipping a newer nanopb.proto) through `wireproof prove`, one after the
#      other in ONE scratch package (.scratch/foreign/prove: the runtime and oracle compile once;
#      each schema rebuilds only its generated targets). Every schema that sets nanopb options
#      proves with the device party (docs/device.md), except the two on which nanopb 0.4.7 itself
#      crashes (see 2.), which prove with --no-device;
#      Two nanopb tests again with `--honour-options` (their int_size, anonymous_oneof and
#      FT_IGNORE options applied: rows `<name>+honour`);
#   2. refusals at generation time, `wireproof prove` exit status 2: Google's
#      test_messages_proto2.proto (proto2 groups) naming the file and the group field, and
#      nanopb's fixed_count test with --honour-options naming the option it cannot honour;
#      and the device crash the device party finds in nanopb's fixed_count test (nanopb 0.4.7
#      reads past a FT_POINTER fixed_count array holding fewer elements): exit 1 naming it;
#   3. two schemas sharing imports linked into one program (`wireproof link-check`).
#
#   bash scripts/check-foreign-schemas.sh [--mutants N] [--only NAME]...
#
#   --mutants N   seeded decode mutants per message type (default 64, as `wireproof prove`)
#   --only NAME   only these corpus schemas (folder names, e.g. nanopb-map; repeatable); skips
#                 steps 2 and 3
# Results: .scratch/foreign/results/<schema>.{log,json} (the prove output and its --json summary).
# Environment: SWIFT.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
cd "$root"
mutants=64 only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mutants) mutants=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    *) echo "check-foreign: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
scratch="$root/.scratch/foreign"
results="$scratch/results"
rm -rf "$results"; mkdir -p "$results"
failures=()
started=$(date +%s)

mapfile -t corpus < <(bash scripts/foreign-corpus.sh)
schemas=("${corpus[@]}" "$root/Tests/Schemas/naming" "$root/Tests/Schemas/options-wildcards"
         "$root/Tests/Schemas/options-repeated" "$root/Tests/Schemas/options-newer-nanopb")
# nanopb 0.4.7 crashes decoding these schemas' own exemplars (a FT_POINTER fixed_count array with
# fewer elements): their facade proof runs without the device party; step 2 pins the crash.
device_crashes=" nanopb-fixed_count nanopb-namingstyle "
if [ ${#only[@]} -gt 0 ]; then
  selected=()
  for d in "${schemas[@]}"; do for o in "${only[@]}"; do [ "$(basename "$d")" != "$o" ] || selected+=("$d"); done; done
  [ ${#selected[@]} -gt 0 ] || { echo "check-foreign: no schema named ${only[*]}" >&2; exit 2; }
  schemas=("${selected[@]}")
fi

echo "check-foreign: building wireproof"
"$SWIFT" build --product wireproof > "$scratch/wireproof-build.log" 2>&1 ||
  { tail -20 "$scratch/wireproof-build.log" >&2; echo "check-foreign: wireproof does not build" >&2; exit 1; }
wireproof=$("$SWIFT" build --product wireproof --show-bin-path)/wireproof

# 1. The proof on each schema: "DIR" or "DIR+honour" (with --honour-options).
runs=("${schemas[@]}")
if [ ${#only[@]} -eq 0 ]; then
  runs+=("$root/.deps/foreign/nanopb-intsizes+honour" "$root/.deps/foreign/nanopb-anonymous_oneof+honour")
fi
# Schemas that import descriptor.proto (directly or through nanopb.proto) first, together: the
# SwiftProtobuf peer's code for descriptor.proto then compiles once for all of them instead of
# again after every schema without it (the scratch package keeps only the current schema's code).
with_descriptor=() without_descriptor=()
for run in "${runs[@]}"; do
  if grep -rqlE "import +(public +)?[\"'](google/protobuf/descriptor|nanopb)\.proto[\"']" --include='*.proto' "${run%+honour}" ||
     [ -n "$(find "${run%+honour}" -name descriptor.proto -print -quit)" ]; then
    with_descriptor+=("$run")
  else
    without_descriptor+=("$run")
  fi
done
runs=("${with_descriptor[@]}" "${without_descriptor[@]}")
# Every protoc a proof runs is the first on PATH: a stand-in there logs each call, so the schema's
# compilations (calls that do not read an existing descriptor set) are counted, and must be one.
counting="$scratch/protoc-counting"
mkdir -p "$counting"
cat > "$counting/protoc" <<EOF
#!/bin/sh
echo "\$*" >> "\$PROTOC_LOG"
exec $(command -v protoc) "\$@"
EOF
chmod +x "$counting/protoc"
names=()
index=0
for run in "${runs[@]}"; do
  index=$((index + 1))
  dir=${run%+honour} name=$(basename "$run") extra=()
  [ "$dir" = "$run" ] || extra=(--honour-options)
  [[ "$device_crashes" != *" $(basename "$dir") "* ]] || extra+=(--no-device)
  names+=("$name")
  t0=$(date +%s) status=0
  PATH="$counting:$PATH" PROTOC_LOG="$results/$name.protoc" \
    "$wireproof" prove --proto-dir "$dir" --scratch "$scratch/prove" --mutants "$mutants" "${extra[@]}" \
    --json "$results/$name.json" > "$results/$name.log" 2>&1 || status=$?
  compilations=$(grep -cv -- '--descriptor_set_in' "$results/$name.protoc" 2>/dev/null || true)
  seconds=$(( $(date +%s) - t0 ))
  echo "$seconds" > "$results/$name.seconds"
  verdict=$(grep -E '^prove: (PROVED|FAILED)' "$results/$name.log" | tail -n 1 || true)
  printf 'check-foreign [%d/%d] %-30s exit %d in %3ds  %s\n' "$index" "${#runs[@]}" "$name" "$status" "$seconds" \
    "${verdict:-$(grep -E '^prove: ' "$results/$name.log" | grep -v 'done in' | tail -n 1)}"
  if [ "$status" = 0 ] && [ "${compilations:-0}" != 1 ]; then
    failures+=("$name: protoc compiled the schema ${compilations:-0} times, not once (calls: ${results#"$root"/}/$name.protoc)")
  fi
  if [ "$status" != 0 ]; then
    failures+=("$name: wireproof prove exited $status (log: ${results#"$root"/}/$name.log)")
    { grep -E 'FAIL|error:|refused|prove: ' "$results/$name.log" | grep -v 'done in' | head -n 15 | sed 's/^/    /'; } || true
  fi
done

if [ ${#only[@]} -eq 0 ]; then
  # 2. proto2 groups: refused at generation time, naming the file and the field.
  p2="$scratch/test_messages_proto2"
  rm -rf "$p2"; mkdir -p "$p2/google/protobuf"
  cp "$root/.deps/protobuf/src/google/protobuf/test_messages_proto2.proto" "$p2/google/protobuf/"
  status=0
  "$wireproof" prove --proto-dir "$p2" --scratch "$scratch/prove-refused" --mutants 0 \
    > "$results/test_messages_proto2.log" 2>&1 || status=$?
  if [ "$status" = 2 ] && grep -q 'test_messages_proto2\.proto' "$results/test_messages_proto2.log" &&
     grep -qE 'TestAllTypesProto2\.data\b' "$results/test_messages_proto2.log" && grep -qi 'group' "$results/test_messages_proto2.log"; then
    echo "check-foreign: test_messages_proto2 refused as expected:"
    { grep -i 'group' "$results/test_messages_proto2.log" | head -n 3 | sed 's/^/    /'; } || true
  else
    failures+=("test_messages_proto2: expected a refusal (exit 2) naming the file and the group field 'data'; got exit $status (log: ${results#"$root"/}/test_messages_proto2.log)")
  fi
  # An option the facades cannot honour, with --honour-options: refused, naming file, field and option.
  status=0
  "$wireproof" prove --proto-dir "$root/.deps/foreign/nanopb-fixed_count" --scratch "$scratch/prove-refused" \
    --mutants 0 --honour-options > "$results/fixed_count+honour.log" 2>&1 || status=$?
  if [ "$status" = 2 ] && grep -qE 'fixed_count\.proto: Message1\.data: fixed_count = true .*not supported' "$results/fixed_count+honour.log"; then
    echo "check-foreign: nanopb-fixed_count with --honour-options refused as expected:"
    { grep -m 1 'fixed_count = true' "$results/fixed_count+honour.log" | cut -c1-150 | sed 's/^/    /'; } || true
  else
    failures+=("nanopb-fixed_count --honour-options: expected a refusal (exit 2) naming fixed_count.proto, Message1.data and the option fixed_count; got exit $status (log: ${results#"$root"/}/fixed_count+honour.log)")
  fi

  # The device party finds nanopb 0.4.7's crash on a short FT_POINTER fixed_count array: exit 1, naming it.
  status=0
  "$wireproof" prove --proto-dir "$root/.deps/foreign/nanopb-fixed_count" --scratch "$scratch/prove" \
    --mutants 0 > "$results/fixed_count+device.log" 2>&1 || status=$?
  if [ "$status" = 1 ] && grep -qE '^FAIL device: Message4\.strings fixed_count \(max_count = 4\): past \(3 elements\): the device build crashed' "$results/fixed_count+device.log"; then
    echo "check-foreign: nanopb-fixed_count with the device party: nanopb 0.4.7's crash found as expected:"
    { grep -m 2 '^FAIL device: .*crashed' "$results/fixed_count+device.log" | cut -c1-150 | sed 's/^/    /'; } || true
  else
    failures+=("nanopb-fixed_count with the device party: expected exit 1 naming the device crash on Message4.strings; got exit $status (log: ${results#"$root"/}/fixed_count+device.log)")
  fi

  # 3. Two schemas in one program.
  t0=$(date +%s)
  if "$wireproof" link-check --scratch "$root/.scratch/linked" > "$results/linked.log" 2>&1; then
    echo "check-foreign: two schemas linked into one program in $(( $(date +%s) - t0 ))s:"
  else
    failures+=("two schemas in one program: wireproof link-check failed (log: ${results#"$root"/}/linked.log)")
  fi
  { sed 's/^/    /' "$results/linked.log" | tail -n 4; } || true
fi

# The per-schema table, from each run's --json summary.
echo
/usr/bin/python3 - "$results" "${names[@]}" <<'PY'
import json, os, sys
results, names = sys.argv[1], sys.argv[2:]
print("%-30s %5s %8s %9s %7s %9s %8s %8s %7s  %-34s %-22s %s" % ("schema", "files", "messages", "exemplars", "passed",
      "explained", "excluded", "mutants", "seconds", "deviation rows exercised", "device acc/ref/trunc", "verdict"))
print("%-30s %s" % ("", "(device: exemplars accepted / refused by option / truncated; limit exemplars at accepted, past refused)"))
sums = [0] * 7
for name in names:
    seconds = int(open(os.path.join(results, name + ".seconds")).read())
    try:
        summary = json.load(open(os.path.join(results, name + ".json")))
    except (OSError, ValueError):
        summary = {}
    proof = summary.get("proof") or {"rows": [], "deviations": []}
    rows = proof["rows"]
    total = lambda key: sum(r[key] for r in rows)
    values = [len(rows), total("messages"), total("exemplars"), total("passed"), total("explained"),
              total("excluded"), total("mutantsAccepted") + total("mutantsRejected")]
    sums = [a + b for a, b in zip(sums, values)]
    exercised = [str(x["row"]) for x in proof["deviations"] if x["elements"] > 0 or (x.get("explainedExemplars") or 0) > 0]
    verdict = "PROVED" if summary.get("passed") else ("FAILED: " + (summary.get("error") or "a check failed"))[:60]
    device = summary.get("device")
    if device:
        t = device["total"]
        cell = "%d/%d/%d at %d/%d past %d/%d" % (t["accepted"], t["refusedByOption"], t["truncated"],
                                             t["limitAtAccepted"], t["limitAt"], t["limitPastRefused"], t["limitPast"])
    else:
        cell = "-" if not summary.get("deviceSkipped") else ("off" if summary["deviceSkipped"] == "--no-device" else "-")
    print("%-30s %5d %8d %9d %7d %9d %8d %8d %7d  %-34s %-22s %s" % (name, *values, seconds, ",".join(exercised) or "-", cell, verdict))
print("%-30s %5d %8d %9d %7d %9d %8d %8d" % ("total", *sums))
PY

echo "check-foreign: $(( $(date +%s) - started ))s"
if [ ${#failures[@]} -gt 0 ]; then
  echo "check-foreign: FAILED" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "check-foreign: ok (${#runs[@]} proofs of ${#schemas[@]} schemas passed$([ ${#only[@]} -gt 0 ] || echo '; test_messages_proto2 and an option that cannot be honoured refused; the device crash in nanopb fixed_count found; two schemas linked into one program'))"
