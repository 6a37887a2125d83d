#!/usr/bin/env bash
# `make bench`: the shipped layer's figures, measured side by side in one run (DESIGN.md: benchmarks
# are scripts that print ratios; tests never assert timings). Prints, with progress as it goes:
#   1. lines of the fixed-cost runtime (Sources/Shipped/NanopbRuntime);
#   2. bytes of facade code per message on a dead-stripped release link;
#   3. what the shipped layer (nanopb + generated C + NanopbRuntime + facades) adds to an executable
#      that encodes and decodes a DataPacket, with a per-group breakdown, and what SwiftProtobuf
#      1.38.1 adds to the same program (3b);
#   4. encode and decode time of the facades against the oracle (wall time, interleaved rounds,
#      medians, ratios; plus callgrind instruction counts);
#   4b. scripts/bench-ratios.sh: facades / plain nanopb C (Benchmarks/CodecC) / libprotobuf full and
#      lite (Benchmarks/CodecCpp) on the chat (356 B) and metrics (22 KB) packets, callgrind; the fuzz
#      targets' fixed-input rate (builds them first, incrementally; BENCH_FUZZ=0 skips); peak memory on the
#      hostile inputs (scripts/peak-memory.sh; BENCH_PEAK=0 skips);
# then one summary table, every goal of the shipped layer in it with "met" / "not met", which
# `wirebench report summary` also writes into docs/measurements.md (between the
# <!-- bench:begin --> / <!-- bench:end --> markers).
#
# How. Everything is built in a throwaway SwiftPM package (.scratch/bench/pkg, git-ignored) that
# depends on this one by path, with build folders under $BENCH_TMP, so the package's own build is
# untouched. Its executables (sources in Benchmarks/):
#   SizeBaseline      trivial work, no protobuf
#   SizePacket        builds, encodes, decodes a chat DataPacket through BundledProto (all types)
#   SizePacketPruned  the same source against facades pruned to the types it spells
#   SizeOne           uses every accessor of one message (wireproof size-probe), all types linked
#   SizeOnePruned     the same source against facades pruned to that one message
#   SizeAll           uses every accessor of every message
#   CodecBench        facade vs oracle encode/decode timings; writes the packets' bytes (dump)
#   CodecC            the same decode/encode in plain C over CNanopb + BundledProtoC
# Each is built in two release configurations:
#   default   `swift build -c release`: SwiftPM already links with --gc-sections, but Swift 6.3 on
#             ELF puts every public symbol in llvm.used (sections flagged SHF_GNU_RETAIN), so public
#             facade accessors are never stripped, and C targets get no per-function sections.
#   stripped  full dead strip: also -Xswiftc -Xfrontend -Xswiftc -internalize-at-link (public
#             symbols may be dropped: the executable is the whole link unit),
#             -Xswiftc -Xfrontend -Xswiftc -function-sections (internalizing also drops the
#             per-function sections the retain flag forced) and -Xcc -ffunction-sections
#             -Xcc -fdata-sections (nanopb and the generated descriptors per symbol).
# Sizes are of `strip`ped copies (`size`: text+data); the breakdown reads `nm -S` of the unstripped
# binary (Sources/Tools/BenchReport/SymbolAttribution.swift explains the groups). The figures are
# read, merged into $BENCH_TMP/out/results.json and written out by `wirebench report` (BenchReport).
#
# Knobs (environment): BENCH_ROUNDS (101) and BENCH_BATCH_MS (4) for the wall-time rounds,
# BENCH_CALLGRIND_ITERATIONS (300; 0 skips valgrind), BENCH_TMP (/tmp/wp-bench), BENCH_DOC
# (docs/measurements.md; empty: do not write it), BENCH_CLEAN=1 (rebuild from nothing; needed after
# changing build flags by hand: Swift skips rewriting an object whose IR did not change).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
cd "$root"
ROUNDS=${BENCH_ROUNDS:-101}
BATCH_MS=${BENCH_BATCH_MS:-4}
CG_ITER=${BENCH_CALLGRIND_ITERATIONS:-300}
TMP=${BENCH_TMP:-/tmp/wp-bench}
DOC=${BENCH_DOC-docs/measurements.md}
pkg=$root/.scratch/bench/pkg
out=$TMP/out
results=$out/results.json
started=$(date +%s)

progress() { printf '[bench %4ds] %s\n' $(( $(date +%s) - started )) "$*"; }

command="make bench"
knobs=""
[ "$ROUNDS" = 101 ] || knobs+=" BENCH_ROUNDS=$ROUNDS"
[ "$BATCH_MS" = 4 ] || knobs+=" BENCH_BATCH_MS=$BATCH_MS"
[ "$CG_ITER" = 300 ] || knobs+=" BENCH_CALLGRIND_ITERATIONS=$CG_ITER"
[ -z "$knobs" ] || command="${knobs# } make bench"
header="Measured $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?') (plus any uncommitted changes), \
$($SWIFT --version 2>/dev/null | head -1 | sed 's/ (.*//'), $(nproc) cores (shared; load average $(cut -d' ' -f1 /proc/loadavg) at start)."
echo "To reproduce: $command    (= bash scripts/bench.sh; about 8 minutes on 2 shared cores from nothing, 5 with the Swift builds cached)"
echo "$header"

[ -f Sources/Shipped/CNanopb/runtime/pb_decode.c ] || die "nanopb runtime missing: run 'make setup'"
command -v valgrind >/dev/null || CG_ITER=0
rm -rf "$out"; mkdir -p "$out" "$TMP"
[ "${BENCH_CLEAN:-0}" = 1 ] && rm -rf "$TMP/build-default" "$TMP/build-stripped" "$TMP/protogen"
"$SWIFT" build --scratch-path "$TMP/protogen" --product wirebench > "$out/wirebench-build.log" 2>&1 ||
  { tail -20 "$out/wirebench-build.log"; die "wirebench (the reporter) does not build"; }
report=("$("$SWIFT" build --scratch-path "$TMP/protogen" --show-bin-path)/wirebench" report)

# --- 1. Lines of the fixed-cost runtime ---------------------------------------------------------
echo
progress "1/5 lines of the fixed-cost runtime (Sources/Shipped/NanopbRuntime/*.swift)"
"${report[@]}" lines "$results" Sources/Shipped/NanopbRuntime/*.swift

# --- 2. The scratch package ---------------------------------------------------------------------
echo
progress "2/5 writing the scratch package .scratch/bench/pkg (probes, pruned facades)"
# Sources are staged in $out/src and copied only when they differ, so a rerun rebuilds only what changed.
install() { mkdir -p "$(dirname "$2")"; cmp -s "$1" "$2" || cp "$1" "$2"; }
src=$out/src
for t in SizeBaseline SizePacket CodecBench; do install "Benchmarks/$t/main.swift" "$pkg/Sources/$t/main.swift"; done
install Benchmarks/CodecC/main.c "$pkg/Sources/CodecC/main.c"
one_type=${BENCH_ONE_TYPE:-Rtm_StreamChunk}
# What the facades hold comes from the generation plan (protogen generate --plan-out), never from their text.
"$SWIFT" run --scratch-path "$TMP/protogen" protogen generate --c-only --proto-dir Protos \
  --c-out "$out/PlanAllC" --plan-out "$out/plan-all.json" > "$out/proto-all.log" 2>&1 ||
  { cat "$out/proto-all.log"; die "the generation plan of the bundled schema failed"; }
probe=("$SWIFT" run --scratch-path "$TMP/protogen" wireproof size-probe --plan "$out/plan-all.json" --module BundledProto)
all_count=$("${probe[@]}" --out "$src/SizeAll.swift" --all)
"${probe[@]}" --out "$src/SizeOne.swift" --type "$one_type" >/dev/null
sed 's/^import BundledProto$/import PrunedOne/' "$src/SizeOne.swift" > "$src/SizeOnePruned.swift"
sed 's/^import BundledProto$/import PrunedPacket/' Benchmarks/SizePacket/main.swift > "$src/SizePacketPruned.swift"
for t in SizeAll SizeOne SizeOnePruned SizePacketPruned; do install "$src/$t.swift" "$pkg/Sources/$t/main.swift"; done
# Pruned facades (and their C) for the two pruned probes, by the same `make proto` pipeline.
for p in One Packet; do
  "$SWIFT" run --scratch-path "$TMP/protogen" protogen generate --proto-dir Protos \
    --c-out "$pkg/Sources/Pruned${p}C" --swift-out "$pkg/Sources/Pruned$p" --prune-sources "$pkg/Sources/Size${p}Pruned" \
    --plan-out "$out/plan-$p.json" \
    > "$out/proto-$p.log" 2>&1 || { cat "$out/proto-$p.log"; die "pruned facades for Size${p}Pruned failed"; }
done
message_count() { "${report[@]}" plan-messages "$1"; }
one_count=$(message_count "$out/plan-One.json")
echo "  $all_count messages in the bundled schema; SizeOne uses $one_type; facades pruned to it: $one_count message(s)," \
  "pruned to SizePacket: $(message_count "$out/plan-Packet.json")"
protoc -IProtos -I/usr/include --include_imports --descriptor_set_out="$out/rtm.pb" \
  $(cd Protos && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort)

"$SWIFT" run --scratch-path "$TMP/protogen" wireproof scratch-manifest --dir "$pkg" --name WireproofBench \
  --written-by "scripts/bench.sh (make bench)" --wireproof-root "$root" \
  --target PrunedOneC=wireproof:CNanopb --target PrunedOne=PrunedOneC,wireproof:NanopbRuntime \
  --target PrunedPacketC=wireproof:CNanopb --target PrunedPacket=PrunedPacketC,wireproof:NanopbRuntime \
  --executable SizeBaseline --executable SizePacket=wireproof:BundledProto --executable SizePacketPruned=PrunedPacket \
  --executable SizeOne=wireproof:BundledProto --executable SizeOnePruned=PrunedOne --executable SizeAll=wireproof:BundledProto \
  --executable CodecBench=wireproof:BundledProto,wireproof:ProtoOracle,wireproof:ProtoSchema \
  --executable CodecC=wireproof:BundledProtoC,wireproof:CNanopb >/dev/null || die "cannot write the bench package's manifest"

# --- 3. Release builds --------------------------------------------------------------------------
echo
build() {  # CONFIG FLAGS...
  local config=$1; shift
  progress "3/5 swift build -c release ($config${*:+: $*})"
  local t0; t0=$(date +%s)
  # shellcheck disable=SC2068
  if ! "$SWIFT" build -c release --package-path "$pkg" --scratch-path "$TMP/build-$config" $@ \
       > "$out/build-$config.log" 2>&1; then
    tail -40 "$out/build-$config.log"; die "release build ($config) failed; log: $out/build-$config.log"
  fi
  echo "  built in $(( $(date +%s) - t0 ))s"
}
dead_strip=(-Xswiftc -Xfrontend -Xswiftc -internalize-at-link -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xcc -ffunction-sections -Xcc -fdata-sections)
build default
build stripped "${dead_strip[@]}"
for config in default stripped; do
  for exe in SizePacket SizePacketPruned SizeOne SizeOnePruned SizeAll SizeBaseline; do
    "$TMP/build-$config/release/$exe" "probe" >/dev/null 2>&1 || die "$config/$exe does not run"
  done
done

echo
progress "3/5 sizes: stripped copies, \`size\`, \`nm -S\` attribution"
"${report[@]}" sizes "$results" default="$TMP/build-default" stripped="$TMP/build-stripped" \
  --out "$out" --all-count "$all_count" --one-count "$one_count"

# --- 3b. The same size probe against SwiftProtobuf ---------------------------------------------
# Benchmarks/SizePacket/main.swift, unchanged but for its import, built against protoc-gen-swift's
# code for Protos/ in the SwiftProtobuf peer package (`wireproof swiftprotobuf-peer size-probe`), in
# both configurations; the baseline is the same SizeBaseline.
echo
peer_builds=()
for config in default stripped; do
  progress "3/5 SwiftProtobuf 1.38.1: the SizePacket source against protoc-gen-swift's code ($config)"
  flags=(); [ "$config" = default ] || flags=("${dead_strip[@]}")
  status=0
  exe=$("$(wireproof_tool)" swiftprotobuf-peer size-probe -- --scratch-path "$TMP/swiftprotobuf-$config" "${flags[@]}" \
        2> "$out/swiftprotobuf-$config.log") || status=$?
  if [ "$status" -eq 0 ]; then
    "$exe" probe > /dev/null || die "$config SwiftProtobuf size probe does not run"
    peer_builds+=("$config=$exe")
  elif [ "$status" -eq 3 ]; then
    echo "  bench-swiftprotobuf: skipped: $(tail -n 1 "$out/swiftprotobuf-$config.log")"
  else
    tail -20 "$out/swiftprotobuf-$config.log"; die "the SwiftProtobuf size probe failed ($config)"
  fi
done
[ ${#peer_builds[@]} -eq 0 ] || "${report[@]}" peer-sizes "$results" --out "$out" "${peer_builds[@]}"

# --- 4. Codec timings ---------------------------------------------------------------------------
echo
bench=$TMP/build-default/release/CodecBench
progress "4/5 facade vs oracle, wall time: $ROUNDS interleaved rounds of ~${BATCH_MS} ms batches per operation"
"$bench" time "$out/rtm.pb" "$ROUNDS" "$BATCH_MS" | tee "$out/codec-time.txt" | grep -v '^RESULT' | sed 's/^/  /'
mkdir -p "$out/callgrind"
if [ "$CG_ITER" -gt 0 ]; then
  progress "4/5 facade vs oracle, instructions: valgrind --tool=callgrind, $CG_ITER iterations per operation"
  # valgrind 3.19 gives up on Swift 6.3's DWARF ("Possibly corrupted debuginfo file"); without it
  # (strip -g keeps the symbol table) it runs fine. Deterministic hashing makes the counts repeat
  # exactly from run to run (the oracle uses dictionaries).
  strip -g -o "$out/CodecBench.nodebug" "$bench"
  for packet in chat user; do
    if SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/callgrind/$packet.out" \
         "$out/CodecBench.nodebug" count "$out/rtm.pb" "$packet" "$CG_ITER" > "$out/callgrind/$packet.log" 2>&1; then
      callgrind_annotate --inclusive=yes --threshold=100 "$out/callgrind/$packet.out" > "$out/callgrind/$packet.txt" 2>&1 || true
    else
      echo "  valgrind failed on packet $packet (see $out/callgrind/$packet.log); wall time only"
    fi
  done
fi
"${report[@]}" codec "$results" "$out/codec-time.txt" "$out/callgrind" "$CG_ITER"

# --- 4b. Ratios against plain nanopb C and libprotobuf, fuzz rate, peak memory ---------------
echo
if [ "$CG_ITER" -gt 0 ]; then
  bash scripts/bench-ratios.sh "$out" "$TMP" "$CG_ITER"
else
  echo "  (no valgrind: the facade / nanopb C / libprotobuf ratios are not measured)"
fi

# --- 5. Summary ---------------------------------------------------------------------------------
echo
progress "5/5 summary"
"${report[@]}" summary "$results" --command "$command" --header "$header" \
  ${DOC:+--doc "$DOC"}
echo
progress "done (raw figures: $results)"
