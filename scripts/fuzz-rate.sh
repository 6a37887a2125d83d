#!/usr/bin/env bash
# Facade vs plain C decode rate under libFuzzer (docs/fuzzing.md, "Figures"): the `decode` target
# in facade-only mode (WIREPROOF_FUZZ_FACADE_ONLY=1: decode, re-encode, decode again, compare)
# against `decode_c` (the same work in C over the same nanopb runtime and generated C), same seeds,
# same dictionary, same sanitizer (ASan, its default options for both), same libFuzzer seed, one
# after the other on core FUZZ_RATE_CORE (default 0), SECONDS each (default 60). Prints executions,
# rates, edges, the sizes of the inputs each campaign added, and the ratios.
# Rates are per CPU second (user + sys of the fuzzer process), not per wall second: on a shared
# machine the wall clock mostly measures the other processes.
# Both targets are built with FUZZ_COVERAGE=runtime unless the caller sets it (scripts/fuzz-env.sh):
# coverage on the code under test only (the runtime, C and Swift), so libFuzzer's per-execution
# work over its counters is nearly the same for both and the ratio measures the decoding;
# FUZZ_COVERAGE=all measures the default fuzz build. Builds the two products first (a no-op when
# built). FUZZ_RATE_CAMPAIGN=0 skips the campaigns and measures only the fixed input set (make
# bench does).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
seconds=${1:-60}
core=${FUZZ_RATE_CORE:-0}
export FUZZ_COVERAGE=${FUZZ_COVERAGE:-runtime}
# Before fuzz-env.sh: it exports the variable that gives the root manifest's runtime coverage
# flags, with which the debug wireproof build fails (coverage without a sanitizer).
wireproof=$(wireproof_tool)
source "$root/scripts/fuzz-env.sh"
work=$root/.scratch/fuzz/rate/$FUZZ_COVERAGE
mkdir -p "$work"
# The schema the harness loads. `wireproof fuzz` also puts the differential's placeholder source in
# place, without which a fresh clone's Fuzz package does not load at all.
"$wireproof" fuzz descriptor-set "$work/wireproof.pb"
export WIREPROOF_DESCRIPTOR_SET=$work/wireproof.pb
for product in decode decode_c; do
  (cd Fuzz && swift build "${FUZZ_BUILD_FLAGS[@]}" --product "$product" > "$work/build-$product.log" 2>&1) || die "cannot build $product (FUZZ_COVERAGE=$FUZZ_COVERAGE)"
done
bin=$(cd Fuzz && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path)
counters() { "$bin/$1" -runs=0 2>&1 | sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p' | head -n 1; }
echo "fuzz-rate: FUZZ_COVERAGE=$FUZZ_COVERAGE, coverage counters: decode $(counters decode), decode_c $(counters decode_c)"

# cpu_seconds LOG COMMAND...: runs COMMAND with its output in LOG; prints its user + sys seconds.
cpu_seconds() {
  local log=$1; shift
  local TIMEFORMAT='%U %S' spent
  spent=$( { time "$@" > "$log" 2>&1; } 2>&1 ) || { echo "fuzz-rate: $* failed (see $log)" >&2; return 1; }
  echo "$spent" | awk '{print $1 + $2}'
}

declare -A rate
for target in decode decode_c; do
  [ "${FUZZ_RATE_CAMPAIGN:-1}" != 0 ] || { mkdir -p "$work/$target"; continue; }
  rm -rf "$work/$target"; mkdir -p "$work/$target/corpus"
  cpu=$(WIREPROOF_FUZZ_FACADE_ONLY=1 cpu_seconds "$work/$target/log" taskset -c "$core" "$bin/$target" -seed=1 -max_total_time="$seconds" -print_final_stats=1 \
    -dict=Corpus/wireproof.dict -max_len=4096 -artifact_prefix="$work/$target/" "$work/$target/corpus" Corpus/seeds)
  execs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$work/$target/log")
  rate[$target]=$(echo "scale=0; $execs / $cpu" | bc)
  edges=$(grep -o 'cov: [0-9]*' "$work/$target/log" | tail -n 1 | awk '{print $2}')
  sizes=$(cd "$work/$target/corpus" && find . -type f -printf '%s\n' | sort -n | awk '{a[NR]=$1; s+=$1} END {if (NR) printf "%d new inputs, mean %d B, median %d B", NR, s/NR, a[int((NR+1)/2)]}')
  echo "fuzz-rate: $target: $execs executions in $seconds s ($cpu CPU s): ${rate[$target]} exec per CPU s, $edges edges; $sizes"
done
[ "${FUZZ_RATE_CAMPAIGN:-1}" = 0 ] || echo "fuzz-rate: campaign, facade / plain C exec per CPU s = $(echo "scale=2; ${rate[decode]} / ${rate[decode_c]}" | bc)"

# The same work on a fixed input set (every seed, REPEAT times each): campaign rates depend on
# the inputs each campaign happens to explore, this does not.
repeat=${REPEAT:-200}
declare -A fixed
for target in decode decode_c; do
  fixed[$target]=$(WIREPROOF_FUZZ_FACADE_ONLY=1 cpu_seconds "$work/$target/fixed.log" taskset -c "$core" "$bin/$target" -runs="$repeat" Corpus/seeds/*)
  echo "fuzz-rate: $target: every seed $repeat times: ${fixed[$target]} CPU s"
done
echo "fuzz-rate: fixed inputs, facade / plain C throughput = $(echo "scale=2; ${fixed[decode_c]} / ${fixed[decode]}" | bc)"
