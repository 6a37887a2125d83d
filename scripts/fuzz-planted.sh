#!/usr/bin/env bash
# Does fuzzing find bugs? Re-introduces bugs of the classes nanopb's security advisories describe
# into a scratch copy of the tree (never into this one: .scratch/planted/tree), one at a time, and
# measures each fuzz target's time to the first crash, median of RUNS runs (seeds 1..RUNS), each
# run on one core for at most LIMIT seconds. Prints a table (docs/fuzzing.md has the figures).
#
#   scripts/fuzz-planted.sh [--runs 3] [--limit 60] [--targets "decode differential"] [BUG...]
#
# Bugs, in pb_decode.c of the staged nanopb runtime (scripts/mutation/plants.txt says what each breaks):
#   no-length-bound varint-off-by-one read-off-by-one submsg-leak invalid-free no-nul-terminator
set -euo pipefail

. "$(dirname "$0")/lib.sh"
runs=3 limit=60 targets="decode differential" bugs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    -*) echo "fuzz-planted: unknown option $1" >&2; exit 2 ;;
    *) bugs+=("$1"); shift ;;
  esac
done
[ ${#bugs[@]} -gt 0 ] || bugs=(no-length-bound varint-off-by-one read-off-by-one submsg-leak invalid-free no-nul-terminator)
tree=$root/.scratch/planted/tree runs_dir=$root/.scratch/planted/runs
# The planting tool (wiremutate, run from the root); the copy keeps its git-ignored files (Fuzz/.build: incremental builds).
(cd "$root" && swift build --product wiremutate >/dev/null)
mutate=$(cd "$root" && swift build --show-bin-path)/wiremutate
tool() { (cd "$root" && "$mutate" "$@"); }
tool tree "$tree" --also Fuzz/Sources/SwiftProtobufSchema
(cd "$tree" && bash scripts/setup.sh >/dev/null)
wireproof=$(wireproof_tool)
# After the tools' debug builds: with FUZZ_COVERAGE=runtime it exports what gives the root
# manifest coverage flags, with which a build outside the fuzz build fails.
source "$root/scripts/fuzz-env.sh"

bin_dir() { (cd "$tree/Fuzz" && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path); }
build() {
  (cd "$tree/Fuzz" && for t in $targets; do swift build "${FUZZ_BUILD_FLAGS[@]}" --product "$t" 2>&1 | grep -E 'error|Compiling CNanopb' || true; done)
}

rows=()
for bug in "${bugs[@]}"; do
  tool unplant --tree "$tree"
  tool plant "$bug" --tree "$tree"
  echo "fuzz-planted: $bug: building $targets"
  build
  bin=$(bin_dir)
  WIREPROOF_ROOT=$tree "$wireproof" fuzz descriptor-set "$bin/wireproof.pb"
  for target in $targets; do
    times=() found=0 what=""
    for seed in $(seq 1 "$runs"); do
      work=$runs_dir/$bug/$target/$seed
      rm -rf "$work"; mkdir -p "$work/corpus"
      start=$(date +%s.%N)
      taskset -c 0 "$bin/$target" -seed="$seed" -max_total_time="$limit" -dict="$tree/Corpus/wireproof.dict" \
        -artifact_prefix="$work/" -max_len=4096 -timeout=10 "$work/corpus" "$tree/Corpus/seeds" > "$work/log" 2>&1 || true
      elapsed=$(echo "$(date +%s.%N) - $start" | bc)
      if [ -n "$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))" ]; then
        found=$((found + 1)); times+=("$(printf '%.1f' "$elapsed")")
        what=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [A-Za-z-]+|broken property \[[a-z-]+\]' "$work/log" || echo crash)
      else
        times+=(">$limit")
      fi
      echo "  $target seed $seed: ${times[-1]} s ${what:-}"
    done
    median=$(printf '%s\n' "${times[@]}" | sed 's/^>//' | sort -g | sed -n "$(( (runs + 1) / 2 ))p")
    rows+=("$(printf '%-18s %-13s %5s %-10s %s' "$bug" "$target" "$found/$runs" "${median}s" "${what:-none}")")
  done
done
tool unplant --tree "$tree"
echo
printf '%-18s %-13s %5s %-10s %s\n' "bug" "target" "found" "median" "report (last run)"
printf '%s\n' "${rows[@]}"
