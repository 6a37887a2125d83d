#!/usr/bin/env bash
# Does fuzzing find bugs? Re-introduces bugs of the classes nanopb's security advisories describe
# into a scratch copy of the tree (never into this one: .scratch/planted/tree), one at a time, and
# measures each fuzz target's time to the first crash, median of RUNS runs (seeds 1..RUNS), each
# run on one core for at most LIMIT seconds. Prints a table (docs/fuzzing.md has the figures).
#
#   scripts/fuzz-planted.sh [--runs 3] [--limit 60] [--targets "decode differential"] [BUG...]
#
# Bugs (pb_decode.c of the staged nanopb runtime, Sources/Shipped/CNanopb/runtime/):
#   no-length-bound     pb_make_string_substream lets a length reach past the parent stream
#   varint-off-by-one   pb_decode_varint reads an 11th byte (the bound check starts one byte late)
#   submsg-leak         a repeated singular submessage is not released before its replacement
#   invalid-free        a new repeated element is not initialised, so a failed decode frees garbage
#   no-nul-terminator   a decoded string is not NUL-terminated
#   read-off-by-one     pb_read's end-of-stream check lets a read run one byte past the stream
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
source "$root/scripts/fuzz-env.sh"

tree=$root/.scratch/planted/tree
decode_c=$tree/Sources/Shipped/CNanopb/runtime/pb_decode.c
mkdir -p "$tree"
# The tree without build products (a second run keeps the scratch copy's Fuzz/.build: incremental).
tar -C "$root" --exclude=./.build --exclude=./.scratch --exclude=./Fuzz/.build --exclude=./.git --exclude=./.deps -cf - . | tar -C "$tree" -xf -
cp "$decode_c" "$tree/pb_decode.c.pristine"

# One planted bug: a perl substitution on pb_decode.c that must match exactly once.
plant() {
  local expr
  case "$1" in
    no-length-bound) expr='s/    if \(substream->bytes_left < size\)\n        PB_RETURN_ERROR\(stream, "parent stream too short"\);\n//' ;;
    varint-off-by-one) expr='s/if \(bitpos >= 63 && \(byte & 0xFE\) != 0\)/if (bitpos >= 70 \&\& (byte \& 0xFE) != 0)/' ;;
    submsg-leak) expr='s/                pb_release_single_field\(field\);\n//' ;;
    invalid-free) expr='s/(\(\*size\)\+\+;\n)                initialize_pointer_field\(field->pData, field\);\n/$1/' ;;
    no-nul-terminator) expr='s/    dest\[size\] = 0;\n//' ;;
    read-off-by-one) expr='s/(bool checkreturn pb_read\(.*?)if \(stream->bytes_left < count\)/$1if (stream->bytes_left + 1 < count)/s' ;;
    *) echo "fuzz-planted: unknown bug $1" >&2; exit 2 ;;
  esac
  cp "$tree/pb_decode.c.pristine" "$decode_c"
  perl -0pi -e "$expr" "$decode_c"
  if cmp -s "$tree/pb_decode.c.pristine" "$decode_c"; then echo "fuzz-planted: $1 did not apply" >&2; exit 1; fi
}

bin_dir() { (cd "$tree/Fuzz" && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path); }
build() {
  (cd "$tree/Fuzz" && for t in $targets; do swift build "${FUZZ_BUILD_FLAGS[@]}" --product "$t" 2>&1 | grep -E 'error|Compiling CNanopb' || true; done)
}

rows=()
for bug in "${bugs[@]}"; do
  plant "$bug"
  echo "fuzz-planted: $bug: building $targets"
  build
  bin=$(bin_dir)
  mapfile -t protos < <(cd "$tree/Protos" && find . -name '*.proto' -type f | sed 's|^\./||' | LC_ALL=C sort)
  (cd "$tree/Protos" && protoc -I. -I/usr/include --include_imports --descriptor_set_out="$bin/wireproof.pb" "${protos[@]}")
  for target in $targets; do
    times=() found=0 what=""
    for seed in $(seq 1 "$runs"); do
      work=$tree/.planted/$bug/$target/$seed
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
cp "$tree/pb_decode.c.pristine" "$decode_c"
echo
printf '%-18s %-13s %5s %-10s %s\n' "bug" "target" "found" "median" "report (last run)"
printf '%s\n' "${rows[@]}"
