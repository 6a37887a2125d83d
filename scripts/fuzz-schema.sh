#!/usr/bin/env bash
# Step 5 of `wireproof prove --fuzz-seconds N`: a bounded libFuzzer run of the `differential`
# target (decode properties + facade / oracle / Google's parser / SwiftProtobuf) over the user's
# schema, then,
# when prove built the device party (the schema sets nanopb options), one of the `device` target
# (facades against the schema's own nanopb build, DeviceMutantCheck's judgment), N seconds each.
#
#   scripts/fuzz-schema.sh --scratch DIR --seconds N [--device DEVICE_DIR]
#                          [--swiftprotobuf SWIFT_DIR | --no-swiftprotobuf REASON]
#
# SWIFT_DIR is prove's SwiftProtobuf peer target (DIR/Sources/ProvedSchemaSwift: protoc-gen-swift's
# code, the registry, SwiftProtobufCodec); with it SwiftProtobuf is the differential's fourth party,
# judged as prove judges its mutants. prove passes --no-swiftprotobuf with its one-line reason when
# its peer is off; the run then has three parties and says so. Neither flag: the peer takes part
# when DIR/Sources/ProvedSchemaSwift holds SwiftProtobufCodec.swift.
# DEVICE_DIR is the device party's build (device_driver, layout.json); with it the `device`
# target runs too.
#
# DIR is prove's scratch package (schema.pb, Sources/ProvedSchemaC, ProvedSchema,
# ProvedSchemaCatalog). The script writes a fuzz package of its own into DIR/fuzz: the sources of
# Fuzz/ with the bundled catalog module swapped for the schema's, the schema's generated targets
# copied beside them, built with -sanitize=fuzzer,address. Seeds and the dictionary come from the
# schema (the binary writes them), the run lasts N seconds, and a crash leaves a triage folder.
# Exit status: 0 no property broke, 1 a property broke (or the sanitizer fired), 2 setup failed.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
die() { echo "fuzz-schema: $*" >&2; exit 2; }  # exit 2: setup failed (1 is a broken property)
scratch="" seconds="" device="" swift="" swift_off=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch) scratch=$(cd "$2" && pwd) || die "no folder $2"; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --device) device=$(cd "$2" && pwd) || die "no folder $2"; shift 2 ;;
    --swiftprotobuf) swift=$(cd "$2" && pwd) || die "no folder $2"; shift 2 ;;
    --no-swiftprotobuf) swift_off=$2; shift 2 ;;
    *) die "unknown argument '$1' (usage: --scratch DIR --seconds N [--device DIR] [--swiftprotobuf DIR | --no-swiftprotobuf REASON])" ;;
  esac
done
[ -n "$scratch" ] && [[ "$seconds" =~ ^[0-9]+$ ]] || die "usage: --scratch DIR --seconds N"
for d in ProvedSchemaC ProvedSchema ProvedSchemaCatalog; do
  [ -d "$scratch/Sources/$d" ] || die "$scratch/Sources/$d is missing (not a prove scratch package)"
done
[ -f "$scratch/schema.pb" ] || die "$scratch/schema.pb is missing"
if [ -z "$swift" ] && [ -z "$swift_off" ]; then
  if [ -f "$scratch/Sources/ProvedSchemaSwift/SwiftProtobufCodec.swift" ]; then swift=$scratch/Sources/ProvedSchemaSwift
  else swift_off="no SwiftProtobuf code in $scratch/Sources/ProvedSchemaSwift"; fi
fi
[ -z "$swift" ] || [ -f "$swift/SwiftProtobufCodec.swift" ] || die "$swift holds no SwiftProtobufCodec.swift (scripts/swiftprotobuf-peer.sh generate writes it)"
bash "$root/scripts/fuzz-setup.sh"
source "$root/scripts/fuzz-env.sh"

pkg=$scratch/fuzz
rm -rf "$pkg/Sources"
mkdir -p "$pkg/Sources"
cp -R "$root/Fuzz/Sources/." "$pkg/Sources/"
for d in ProvedSchemaC ProvedSchema ProvedSchemaCatalog; do cp -R "$scratch/Sources/$d" "$pkg/Sources/$d"; done
grep -rl 'import BundledProtoCatalog' "$pkg/Sources" | xargs sed -i 's/^import BundledProtoCatalog$/import ProvedSchemaCatalog/'
# The fourth party: the schema's SwiftProtobuf code in place of the bundled schema's, or none.
rm -rf "$pkg/Sources/SwiftProtobufSchema"
swift_args=() differential_deps=FuzzKit,GoogleParser
if [ -n "$swift" ]; then
  cp -R "$swift" "$pkg/Sources/SwiftProtobufSchema"
  swift_args=(--package-url "https://github.com/apple/swift-protobuf.git@1.38.1"
              --target SwiftProtobufSchema=swift-protobuf:SwiftProtobuf)
  differential_deps+=,SwiftProtobufSchema
else
  printf '%s\n' "// Written by scripts/fuzz-schema.sh: prove's SwiftProtobuf peer is off for this schema." \
    "import FacadeProof" "let swiftProtobufParty: PeerCodec? = nil" > "$pkg/Sources/differential/SwiftProtobufParty.swift"
fi
"$(wireproof_tool)" scratch-manifest --dir "$pkg" --name ProvedSchemaFuzz --written-by scripts/fuzz-schema.sh \
  --purpose "Wireproof's fuzz targets (Fuzz/) over the schema of the enclosing prove scratch package." \
  --wireproof-root "$root" --cxx17 \
  --target ProvedSchemaC=wireproof:CNanopb --target ProvedSchema=ProvedSchemaC,wireproof:NanopbRuntime,wireproof:NanopbDeviceLimits \
  --target ProvedSchemaCatalog=ProvedSchema,wireproof:FacadeProof --target CLibcrypto --links CLibcrypto=crypto \
  --target FuzzKit=ProvedSchemaCatalog,CLibcrypto,wireproof:FacadeProof,wireproof:ProtoOracle,wireproof:ProtoSchema,wireproof:NanopbRuntime \
  --target GoogleParser --links GoogleParser=protobuf,stdc++ \
  "${swift_args[@]}" \
  --executable differential="$differential_deps" --executable device=FuzzKit,wireproof:DeviceProof >/dev/null ||
  die "cannot write $pkg/Package.swift"
rm -rf "$pkg/Sources/decode" "$pkg/Sources/structure" "$pkg/Sources/decode_c"

targets=(differential)
driver="" layout=""
if [ -n "$device" ]; then
  driver=$device/device_driver layout=$device/layout.json
  [ -x "$driver" ] && [ -f "$layout" ] || die "$device holds no device_driver and layout.json"
  targets+=(device)
fi
for target in "${targets[@]}"; do
  echo "fuzz-schema: building the $target target for $scratch (release, -sanitize=fuzzer,address)"
  (cd "$pkg" && swift build "${FUZZ_BUILD_FLAGS[@]}" --product "$target" 2>&1 | tail -n 3) || die "the fuzz package did not build"
done
bin=$(cd "$pkg" && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path)
for target in "${targets[@]}"; do [ -x "$bin/$target" ] || die "the fuzz package did not build $target"; done
cp "$scratch/schema.pb" "$bin/wireproof.pb"
export WIREPROOF_DEVICE_DRIVER=$driver WIREPROOF_DEVICE_LAYOUT=$layout

broken=0
for target in "${targets[@]}"; do
  work=$pkg/work/$target
  rm -rf "$work/seeds" "$work/crashes"; mkdir -p "$work/corpus" "$work/crashes"
  WIREPROOF_WRITE_CORPUS=$work "$bin/differential" >/dev/null || die "could not write the schema's seeds"
  echo "fuzz-schema: $target: $(ls "$work/seeds" | wc -l) seeds from the schema's exemplars; fuzzing $seconds s"
  if [ "$target" = differential ]; then
    if [ -n "$swift" ]; then echo "fuzz-schema: differential: four parties (facades, oracle, Google's parser, SwiftProtobuf 1.38.1)"
    else echo "fuzz-schema: differential: three parties, without SwiftProtobuf ($swift_off)"; fi
  fi
  status=0
  "$bin/$target" -max_total_time="$seconds" -dict="$work/wireproof.dict" -artifact_prefix="$work/crashes/" \
    -print_final_stats=1 -max_len=4096 -timeout=10 "$work/corpus" "$work/seeds" > "$work/fuzz.log" 2>&1 || status=$?
  grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/fuzz.log" || true
  if [ "$status" != 0 ] || [ -n "$(ls -A "$work/crashes")" ]; then
    broken=1
    echo "fuzz-schema: $target: a property broke (log: $work/fuzz.log):"
    grep -m1 -E 'broken property|ERROR: AddressSanitizer|ERROR: LeakSanitizer|deadly signal' "$work/fuzz.log" || true
    for f in "$work/crashes"/*; do
      [ -f "$f" ] || continue
      echo "  reproducer: $f (first byte: type selector); protoc --decode_raw of the rest:"
      tail -c +2 "$f" | protoc --decode_raw 2>&1 | head -n 20 | sed 's/^/    /' || true
    done
  else
    echo "fuzz-schema: $target: no property broke"
  fi
done
exit "$broken"
