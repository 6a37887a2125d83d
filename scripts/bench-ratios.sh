#!/usr/bin/env bash
# Part of `make bench` (called by scripts/bench.sh after its release builds): the
# facades against plain nanopb C, Google's libprotobuf and SwiftProtobuf, side by side in one run, on
# the same bytes.
#   1. CodecBench dump writes the chat DataPacket (356 B, bench.sh's small message) and the metrics
#      DataPacket (~22 KB, a MetricsBatch of 16 x 96 samples) to files.
#   2. Four more programs decode and encode those bytes, each checking the round trip byte for byte:
#      CodecC (Benchmarks/CodecC/main.c, built by bench.sh in its scratch package against CNanopb and
#      BundledProtoC: the facades' own runtime, generated C, config header and release C flags),
#      CodecCpp full and lite (Benchmarks/CodecCpp/codec_cpp.cc over protoc --cpp_out of Protos/, g++ -O2;
#      lite from a scratch copy of the protos and of google/protobuf/timestamp.proto with
#      `option optimize_for = LITE_RUNTIME`, linked against libprotobuf-lite only).
#      codec-speed-swiftprotobuf (Peers/SwiftProtobuf, protoc-gen-swift's code of Protos/, release;
#      skipped with the reason when the peer cannot be built here).
#   3. valgrind --tool=callgrind counts instructions (inclusive cost of each program's decode and
#      encode loop / iterations; counts repeat exactly from run to run). The facade and plain C runs
#      collect inside their loops only (--toggle-collect), so nanopb's entry points and allocator
#      in their listings are the loops' own share: the split the summary gives a missed goal.
#   4. The facade decode fuzz target against the plain C one on fixed inputs (scripts/fuzz-rate.sh
#      with FUZZ_RATE_CAMPAIGN=0; BENCH_FUZZ=0 skips it; fuzz-rate.sh builds the two targets first, incrementally).
#   5. Peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh; BENCH_PEAK=0 skips it).
# Results go into OUT/results.json (key "ratios") for bench.sh's summary.
#   bench-ratios.sh OUT TMP CALLGRIND_ITERATIONS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
out=$1 tmp=$2 iter=$3
work=$out/ratios
cpp=$tmp/cpp
mkdir -p "$work" "$cpp"
started=$(date +%s)
progress() { printf '[ratios %4ds] %s\n' $(( $(date +%s) - started )) "$*"; }

"$out/CodecBench.nodebug" dump "$out/rtm.pb" "$work" > /dev/null || die "CodecBench dump failed"
[ -x "$tmp/build-default/release/CodecC" ] || die "$tmp/build-default/release/CodecC missing (bench.sh builds it)"
# Linked by the Swift toolchain: valgrind 3.19 gives up on its DWARF as on the Swift probes'.
codec_c=$work/CodecC.nodebug
strip -g -o "$codec_c" "$tmp/build-default/release/CodecC"

# --- libprotobuf programs, full and lite ---------------------------------------------------------
stamp=$(cat Benchmarks/CodecCpp/codec_cpp.cc Protos/rtm/*.proto | sha1sum | cut -c1-12)
if [ "$(cat "$cpp/stamp" 2>/dev/null)" != "$stamp" ]; then
  progress "building the libprotobuf programs (protoc --cpp_out, g++ -O2; full and lite)"
  rm -rf "$cpp" && mkdir -p "$cpp/full" "$cpp/lite/protos/rtm" "$cpp/lite/protos/google/protobuf"
  (cd Protos && protoc -I. -I/usr/include --cpp_out="$cpp/full" rtm/*.proto)
  lite() { sed '0,/^package /s//option optimize_for = LITE_RUNTIME;\npackage /' "$1" > "$2"; }
  for f in Protos/rtm/*.proto; do lite "$f" "$cpp/lite/protos/rtm/$(basename "$f")"; done
  lite /usr/include/google/protobuf/timestamp.proto "$cpp/lite/protos/google/protobuf/timestamp.proto"
  grep -q 'LITE_RUNTIME' "$cpp/lite/protos/rtm/data.proto" || die "could not make a lite copy of the protos"
  (cd "$cpp/lite/protos" && protoc -I. --cpp_out="$cpp/lite" rtm/*.proto google/protobuf/timestamp.proto)
  g++ -std=c++17 -O2 -I"$cpp/full" -o "$cpp/CodecCppFull" Benchmarks/CodecCpp/codec_cpp.cc "$cpp"/full/rtm/*.pb.cc \
    -lprotobuf -lpthread
  g++ -std=c++17 -O2 -I"$cpp/lite" -o "$cpp/CodecCppLite" Benchmarks/CodecCpp/codec_cpp.cc "$cpp"/lite/rtm/*.pb.cc \
    "$cpp"/lite/google/protobuf/timestamp.pb.cc -lprotobuf-lite -lpthread
  # Lite means no reflection: the lite binary must not need libprotobuf.so (full).
  if ldd "$cpp/CodecCppLite" | grep -q 'libprotobuf\.so'; then die "CodecCppLite links the full libprotobuf"; fi
  echo "$stamp" > "$cpp/stamp"
fi

# --- SwiftProtobuf's program (the peer package, release) -----------------------------------------
swiftprotobuf=""
progress "building codec-speed-swiftprotobuf (protoc-gen-swift's code of Protos/, release)"
status=0
exe=$("$(wireproof_tool)" swiftprotobuf-peer codec-speed 2> "$work/swiftprotobuf-build.log") || status=$?
if [ "$status" = 0 ]; then
  swiftprotobuf=$work/codec-speed-swiftprotobuf.nodebug
  strip -g -o "$swiftprotobuf" "$exe"
elif [ "$status" = 3 ]; then
  echo "  SwiftProtobuf row skipped: $(tail -n 1 "$work/swiftprotobuf-build.log")"
else
  tail -20 "$work/swiftprotobuf-build.log"; die "codec-speed-swiftprotobuf does not build"
fi

# --- Instruction counts --------------------------------------------------------------------------
# The metrics packet is 60x the chat packet: fewer iterations keep the run short (counts per
# operation do not depend on the iteration count beyond the fixed set-up, which the loops exclude).
big_iter=$(( iter / 10 > 0 ? iter / 10 : 1 ))
callgrind() {  # NAME ITERATIONS [--toggle-collect=FUNCTION]... COMMAND...
  local name=$1 n=$2 options=(); shift 2
  while [[ $1 == --toggle-collect=* ]]; do options+=("$1"); shift; done
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind "${options[@]}" --callgrind-out-file="$work/$name.out" "$@" \
    > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; die "valgrind failed on $name"; }
  callgrind_annotate --inclusive=yes --threshold=100 "$work/$name.out" > "$work/$name.txt" 2>&1
  echo "$name $n" >> "$work/iterations"
}
rm -f "$work/iterations"
for packet in chat metrics; do
  n=$iter; [ "$packet" = metrics ] && n=$big_iter
  progress "callgrind, $packet packet ($(stat -c %s "$work/$packet.bin") B), $n iterations: facades, nanopb C, libprotobuf full, lite${swiftprotobuf:+, SwiftProtobuf}"
  callgrind "facade-$packet" "$n" '--toggle-collect=$s10CodecBench16loopFacade*' \
    "$out/CodecBench.nodebug" count "$out/rtm.pb" "$packet" "$n"
  callgrind "c-$packet" "$n" --toggle-collect=loop_decode --toggle-collect=loop_encode "$codec_c" "$work/$packet.bin" "$n"
  callgrind "full-$packet" "$n" "$cpp/CodecCppFull" "$work/$packet.bin" "$n"
  callgrind "lite-$packet" "$n" "$cpp/CodecCppLite" "$work/$packet.bin" "$n"
  [ -z "$swiftprotobuf" ] || callgrind "swiftprotobuf-$packet" "$n" "$swiftprotobuf" "$work/$packet.bin" "$n"
done

# --- Fuzz target rate on fixed inputs ------------------------------------------------------------
if [ "${BENCH_FUZZ:-1}" != 0 ]; then
  progress "fuzz targets decode (facade) and decode_c (plain C) on fixed inputs (scripts/fuzz-rate.sh)"
  # fuzz-rate.sh builds the two products it measures first (incremental), never older binaries.
  FUZZ_RATE_CAMPAIGN=0 bash scripts/fuzz-rate.sh | tee "$work/fuzz-rate.txt" | sed 's/^/  /'
else
  echo "  BENCH_FUZZ=0: fuzz rate not measured"; rm -f "$work/fuzz-rate.txt"
fi

# --- Peak memory on the hostile inputs -----------------------------------------------------------
if [ "${BENCH_PEAK:-1}" != 0 ]; then
  progress "peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh)"
  bash scripts/peak-memory.sh | tee "$work/peak-memory.txt" | sed 's/^/  /'
else
  echo "  BENCH_PEAK=0: peak memory not measured"; rm -f "$work/peak-memory.txt"
fi

"$(cd "$root" && "$SWIFT" build --scratch-path "$tmp/protogen" --show-bin-path)/wirebench" report ratios "$out/results.json" "$work"
