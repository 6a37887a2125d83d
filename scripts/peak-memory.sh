#!/usr/bin/env bash
# `make peak-memory`: peak resident memory added by decoding the hostile inputs of docs/sanitizers.md through the
# facades (runtime-exerciser peak, one process per decode so each peak is its own), with the standard
# allocation budget (6 x input + 1 MiB), without a budget, and through Google's libprotobuf (C++,
# Debian's libprotobuf-dev) on the same bytes. Prints a table with the ratio to the
# input size and the goal (peak <= 8 x input + 1 MiB with the default). A measurement, not a test.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
"$SWIFT" build --product runtime-exerciser >/dev/null
exe="$("$SWIFT" build --product runtime-exerciser --show-bin-path)/runtime-exerciser"
# Google's C++ runtime on the same bytes (Benchmarks/PeakMemory/peak_libprotobuf.cc), built once.
out="$root/.scratch/peak-memory"
google="$out/peak_libprotobuf"
if [ ! -x "$google" ] || [ "$root/Benchmarks/PeakMemory/peak_libprotobuf.cc" -nt "$google" ]; then
  echo "peak-memory: building the libprotobuf decoder (protoc --cpp_out, g++ -O2)"
  rm -rf "$out" && mkdir -p "$out/gen"
  (cd "$root/Protos" && protoc -I. -I/usr/include --cpp_out="$out/gen" rtm/*.proto)
  g++ -std=c++17 -O2 -I"$out/gen" -o "$google" "$root/Benchmarks/PeakMemory/peak_libprotobuf.cc" \
    "$out"/gen/rtm/*.pb.cc -lprotobuf -lpthread
fi
printf '%-44s %9s %11s %8s %10s  %s\n' input "input KiB" "peak KiB" "peak/in" "goal KiB" outcome
run() {  # NAME KIND COUNT [unlimited|libprotobuf]
  local name=$1; shift
  local line in peak goal outcome
  if [ "${3:-}" = libprotobuf ]; then line=$("$google" "$1" "$2"); else line=$("$exe" peak "$@"); fi
  in=$(sed -n 's/.*input_bytes=\([0-9]*\).*/\1/p' <<<"$line")
  peak=$(sed -n 's/.*peak_added_kib=\([0-9]*\).*/\1/p' <<<"$line")
  outcome=$(sed -n 's/.*outcome=//p' <<<"$line")
  goal=$(( in * 8 / 1024 + 1024 ))
  printf '%-44s %9d %11d %8s %10d  %s%s\n' "$name" $((in / 1024)) "$peak" \
    "$(awk -v p="$peak" -v i="$in" 'BEGIN { printf "%.1fx", p * 1024 / i }')" "$goal" \
    "$( [ "${3:-}" = libprotobuf ] && echo "(reference)" || { [ "$peak" -le "$goal" ] && echo "within goal" || echo "OVER goal"; })" "; $outcome"
}
run "Participant, 524,288 empty tracks" participant 524288
run "Participant, 524,288 empty tracks, no budget" participant 524288 unlimited
run "Participant, 524,288 empty tracks, libprotobuf" participant 524288 libprotobuf
run "StatsSnapshot, 262,144 empty map entries" stats 262144
run "StatsSnapshot, 262,144 entries, no budget" stats 262144 unlimited
run "StatsSnapshot, 262,144 entries, libprotobuf" stats 262144 libprotobuf
run "Participant, 4,194,304 empty tracks (8 MiB)" participant 4194304
run "StatsSnapshot, 2,097,152 entries (8 MiB)" stats 2097152
