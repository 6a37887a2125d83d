#!/usr/bin/env bash
# Facade vs plain C decode rate under libFuzzer (docs/fuzzing.md, "Figures"): the `decode` target in facade-only
# mode (WIREPROOF_FUZZ_FACADE_ONLY=1: decode, re-encode, decode again, compare) against `decode_c`
# (the same work in C over the same nanopb runtime and generated C), same seeds, same dictionary,
# same sanitizer (ASan), same libFuzzer seed, one after the other on core 0, SECONDS each
# (default 60). Prints executions, exec/s, edges and the ratio. Build first: make fuzz-build.
# FUZZ_RATE_CAMPAIGN=0 skips the campaigns and measures only the fixed input set (make bench does).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
seconds=${1:-60}
source "$root/scripts/fuzz-env.sh"
bin=$(cd Fuzz && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path)
work=$root/.scratch/fuzz/rate
declare -A rate edges execs
for target in decode decode_c; do
  [ "${FUZZ_RATE_CAMPAIGN:-1}" != 0 ] || { mkdir -p "$work/$target"; continue; }
  [ -x "$bin/$target" ] || { echo "fuzz-rate: $bin/$target missing; run make fuzz-build" >&2; exit 1; }
  rm -rf "$work/$target"; mkdir -p "$work/$target/corpus"
  WIREPROOF_FUZZ_FACADE_ONLY=1 taskset -c 0 "$bin/$target" -seed=1 -max_total_time="$seconds" -print_final_stats=1 \
    -dict=Corpus/wireproof.dict -max_len=4096 -artifact_prefix="$work/$target/" "$work/$target/corpus" Corpus/seeds \
    > "$work/$target/log" 2>&1 || { echo "fuzz-rate: $target stopped (see $work/$target/log)" >&2; exit 1; }
  execs[$target]=$(awk '/^stat::number_of_executed_units/ {print $2}' "$work/$target/log")
  rate[$target]=$(awk '/^stat::average_exec_per_sec/ {print $2}' "$work/$target/log")
  edges[$target]=$(grep -o 'cov: [0-9]*' "$work/$target/log" | tail -n 1 | awk '{print $2}')
  echo "fuzz-rate: $target: ${execs[$target]} executions in $seconds s, ${rate[$target]} exec/s, ${edges[$target]} edges"
done
[ "${FUZZ_RATE_CAMPAIGN:-1}" = 0 ] || echo "fuzz-rate: facade / plain C exec/s = $(echo "scale=2; ${rate[decode]} / ${rate[decode_c]}" | bc)" \
  "(edges count the instrumented code each path reaches: the facade path also covers the Swift runtime)"

# The same work on a fixed input set (every seed, REPEAT times each): campaign exec/s depends on
# the inputs each campaign happens to explore (±20 % between campaigns), this does not.
repeat=${REPEAT:-200}
declare -A fixed
for target in decode decode_c; do
  start=$(date +%s.%N)
  WIREPROOF_FUZZ_FACADE_ONLY=1 taskset -c 0 "$bin/$target" -runs="$repeat" Corpus/seeds/* > "$work/$target/fixed.log" 2>&1
  fixed[$target]=$(echo "$(date +%s.%N) - $start" | bc)
  echo "fuzz-rate: $target: every seed $repeat times: ${fixed[$target]} s"
done
echo "fuzz-rate: fixed inputs, facade / plain C throughput = $(echo "scale=2; ${fixed[decode_c]} / ${fixed[decode]}" | bc)"
