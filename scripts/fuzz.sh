#!/usr/bin/env bash
# libFuzzer campaigns over the bundled schema (docs/fuzzing.md). Entry points: mk/fuzz.mk.
#
#   scripts/fuzz.sh build                      build every target (Fuzz/, release, fuzzer + ASan)
#   scripts/fuzz.sh run TARGET SECONDS         a campaign: progress, then the end report and plot
#   scripts/fuzz.sh smoke [SECONDS]            every target for SECONDS (default 30), then the
#                                              regression replay through every binary; CI leg
#   scripts/fuzz.sh minimize TARGET            merge the campaign's corpus down to what adds coverage
#   scripts/fuzz.sh triage TARGET FILE         triage folder for one crashing input
#   scripts/fuzz.sh corpus                     regenerate Corpus/seeds, Corpus/wireproof.dict and
#                                              decode_c's type table (generated files)
#   scripts/fuzz.sh replay TARGET FILE...      run inputs once through a target
#   scripts/fuzz.sh descriptor-set FILE        the bundled schema's descriptor set (what the harness
#                                              reads) into FILE, rewritten only when it changes
#   scripts/fuzz.sh generate                   protoc-gen-swift's code for the bundled schema into
#                                              Fuzz/Sources/SwiftProtobufSchema (the differential's
#                                              SwiftProtobuf party; part of `build`)
#
# Targets: decode, differential, structure. Work happens in .scratch/fuzz/<target>/ (corpus/ holds
# the campaign's new entries, crashes/ what broke, triage/<sha1>/ the triage of each crash).
# Environment: FUZZ_JOBS (parallel libFuzzer workers for `run`, default 1), FUZZ_ARGS (more
# libFuzzer flags).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
cd "$root"
targets=(decode differential structure)
scratch=$root/.scratch/fuzz
python=/usr/bin/python3
source "$root/scripts/fuzz-env.sh"

# The differential's fourth party (SwiftProtobuf) lives in a git-ignored target. It must hold a
# source before SwiftPM first plans the package, or the target stays out of the cached plan and the
# build after generation fails with "no such module" (as SwiftProtobufPeer.locked explains);
# the generated code replaces the placeholder.
party=$root/Fuzz/Sources/SwiftProtobufSchema
mkdir -p "$party"
compgen -G "$party/*.swift" > /dev/null ||
  echo "// Placeholder until scripts/fuzz.sh generate writes protoc-gen-swift's code here." > "$party/Placeholder.swift"

bin_dir() { (cd Fuzz && swift build "${FUZZ_BUILD_FLAGS[@]}" --show-bin-path); }

known_target() {
  local t
  for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done
  die "unknown target '$1' (one of: ${targets[*]})"
}

# The descriptor set of the bundled schema, next to the binaries (the harness reads wireproof.pb
# beside its executable, or $WIREPROOF_DESCRIPTOR_SET).
descriptor_set() {
  local out=$1 protos
  mapfile -t protos < <(cd Protos && find . -name '*.proto' -type f | sed 's|^\./||' | LC_ALL=C sort)
  (cd Protos && protoc -I. -I/usr/include --include_imports --descriptor_set_out="$out.tmp" "${protos[@]}")
  if cmp -s "$out.tmp" "$out"; then rm "$out.tmp"; else mv "$out.tmp" "$out"; fi
}

# protoc-gen-swift 1.38.1's code for every file of the bundled schema, its message registry and
# prove's adapter (SwiftProtobufCodec) into the SwiftProtobufSchema target: the differential judges
# each input with SwiftProtobuf as `wireproof prove` judges its mutants.
generate() {
  local set=$scratch/swiftprotobuf/wireproof.pb status=0
  mkdir -p "$(dirname "$set")"
  descriptor_set "$set"
  "$(wireproof_tool)" swiftprotobuf-peer generate --descriptor-set "$set" --out "$party" || status=$?
  [ "$status" = 0 ] || die "the differential's SwiftProtobuf party cannot be generated (wireproof swiftprotobuf-peer exit $status; reason above)"
}

build() {
  bash scripts/setup.sh >/dev/null
  bash scripts/fuzz-setup.sh
  generate
  echo "fuzz: building ${targets[*]} (release, -sanitize=fuzzer,address; the C runtime is instrumented too)"
  local start=$SECONDS
  # By product: a whole-package build would also compile the root package's unrelated targets.
  local product
  for product in "${targets[@]}" decode_c; do (cd Fuzz && swift build "${FUZZ_BUILD_FLAGS[@]}" --product "$product"); done
  local bin; bin=$(bin_dir)
  descriptor_set "$bin/wireproof.pb"
  echo "fuzz: built in $((SECONDS - start)) s: $bin/{$(IFS=,; echo "${targets[*]}")}"
}

binary() {
  local bin; bin=$(bin_dir)
  [ -x "$bin/$1" ] && [ -f "$bin/wireproof.pb" ] || die "$bin/$1 is not built; run 'make fuzz-build'"
  echo "$bin/$1"
}

# libFuzzer flags every run shares: the dictionary, artifacts into the target's crashes/.
common_flags() {
  echo "-dict=$root/Corpus/wireproof.dict -artifact_prefix=$scratch/$1/crashes/ -print_final_stats=1 -max_len=4096 -rss_limit_mb=2048 -timeout=10"
}

# End report of one log: execs, exec/s, coverage, new corpus entries; the coverage plot.
report() {
  local target=$1 log=$2 seconds=$3 before=$4
  local work=$scratch/$target
  local execs rate cov ft after
  execs=$(grep -h '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
  rate=$(grep -h '^stat::average_exec_per_sec' "$log" | awk '{s += $2} END {print s + 0}')
  cov=$(grep -ho 'cov: [0-9]*' "$log" | tail -n 1 | awk '{print $2}')
  ft=$(grep -ho 'ft: [0-9]*' "$log" | tail -n 1 | awk '{print $2}')
  after=$(find "$work/corpus" -type f | wc -l)
  echo
  echo "fuzz report: target $target, ${seconds} s"
  printf '  %-22s %s\n' "executions" "$execs" "exec/s" "$rate" "coverage (edges)" "${cov:-?}" "features" "${ft:-?}" \
    "corpus entries" "$after ($((after - before)) new in $work/corpus)"
  "$python" scripts/fuzz-plot.py "$log" "$work/coverage.png" "$target" && echo "  coverage over time:    $work/coverage.png"
  local crashes; crashes=$(find "$work/crashes" -type f 2>/dev/null | wc -l)
  printf '  %-22s %s\n' "crashes" "$crashes"
  [ "$crashes" = 0 ] || { for f in "$work/crashes"/*; do triage "$target" "$f"; done; return 1; }
}

run() {
  local target=$1 seconds=$2 exe; known_target "$target"
  [[ "$seconds" =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number"
  exe=$(binary "$target")
  local work=$scratch/$target
  mkdir -p "$work/corpus" "$work/crashes"
  local before; before=$(find "$work/corpus" -type f | wc -l)
  local log=$work/fuzz.log
  echo "fuzz: $target for $seconds s; progress below (libFuzzer: #execs, cov = edges, ft = features, corp = entries)"
  # Seeds and regressions are read-only inputs; new entries go to the first folder.
  local jobs=${FUZZ_JOBS:-1} status=0
  if [ "$jobs" -gt 1 ]; then
    "$exe" $(common_flags "$target") -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" ${FUZZ_ARGS:-} \
      "$work/corpus" Corpus/seeds Corpus/regressions > /dev/null 2>&1 || status=$?
    cat fuzz-*.log > "$log"; rm -f fuzz-*.log
    grep -E '^#[0-9]+' "$log" | tail -n 5
  else
    { "$exe" $(common_flags "$target") -max_total_time="$seconds" ${FUZZ_ARGS:-} \
        "$work/corpus" Corpus/seeds Corpus/regressions 2>&1; echo $? > "$work/status"; } |
      tee "$log" | grep --line-buffered -E '^#[0-9]+|ERROR|broken property|SUMMARY|Fatal error' || true
    status=$(cat "$work/status")
  fi
  report "$target" "$log" "$seconds" "$before" || return 1
  grep -q '^stat::number_of_executed_units: [1-9]' "$log" || die "$target executed nothing (see $log)"
  [ "$status" = 0 ] || die "$target exited with status $status (see $log)"
}

triage() {
  local target=$1 file=$2 exe; exe=$(binary "$target")
  local sha; sha=$(sha1sum "$file" | cut -c1-40)
  local folder=$scratch/$target/triage/$sha
  mkdir -p "$folder"
  cp "$file" "$folder/reproducer"
  # The symbolized stack (swift-demangle'd) and the broken property, from one replay.
  ASAN_OPTIONS=symbolize=1:detect_leaks=1 ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer || true) \
    "$exe" "$folder/reproducer" > "$folder/stack.raw.txt" 2>&1 || true
  swift demangle < "$folder/stack.raw.txt" > "$folder/stack.txt" 2>/dev/null || cp "$folder/stack.raw.txt" "$folder/stack.txt"
  rm -f "$folder/stack.raw.txt"
  "$exe" -minimize_crash=1 -runs=20000 -exact_artifact_path="$folder/minimized" "$folder/reproducer" > "$folder/minimize.log" 2>&1 || true
  [ -f "$folder/minimized" ] || cp "$folder/reproducer" "$folder/minimized"
  # The message bytes follow the type byte.
  for input in reproducer minimized; do
    { printf 'type selector byte: %d\n' "$(od -An -tu1 -N1 "$folder/$input" | tr -d ' ')"
      tail -c +2 "$folder/$input" | protoc --decode_raw 2>&1 || true; } > "$folder/$input.decode_raw.txt"
  done
  echo "fuzz: triage of $(basename "$file") in $folder:"
  grep -m1 -E 'broken property|ERROR: AddressSanitizer|ERROR: LeakSanitizer|deadly signal' "$folder/stack.txt" | sed 's/^/  /' || true
  echo "  reproducer, minimized ($(wc -c < "$folder/minimized") bytes), *.decode_raw.txt, stack.txt"
  echo "  to keep it: cp $folder/minimized Corpus/regressions/<what-it-broke> (make test replays it)"
}

minimize() {
  local target=$1 exe; known_target "$target"; exe=$(binary "$target")
  local work=$scratch/$target
  [ -d "$work/corpus" ] || die "no campaign corpus in $work/corpus; run 'make fuzz TARGET=$target' first"
  rm -rf "$work/corpus.min"; mkdir -p "$work/corpus.min"
  "$exe" -merge=1 $(common_flags "$target") "$work/corpus.min" Corpus/seeds "$work/corpus" 2>&1 | grep -E 'MERGE-OUTER|ERROR' || true
  local before after; before=$(find "$work/corpus" -type f | wc -l); after=$(find "$work/corpus.min" -type f | wc -l)
  rm -rf "$work/corpus"; mv "$work/corpus.min" "$work/corpus"
  echo "fuzz: minimized $target's corpus (with Corpus/seeds): $before -> $after entries in $work/corpus"
}

corpus() {
  local exe; exe=$(binary decode)
  rm -rf Corpus/seeds
  # The writer exits from LLVMFuzzerInitialize, before any input: no leak check on a generator run.
  ASAN_OPTIONS=detect_leaks=0 WIREPROOF_WRITE_CORPUS=$root/Corpus "$exe"
  ASAN_OPTIONS=detect_leaks=0 WIREPROOF_WRITE_C_TABLE=$root/Fuzz/Sources/decode_c/MessageTable.generated.h "$exe"
}

replay() {
  local target=$1; shift; known_target "$target"
  local exe; exe=$(binary "$target")
  "$exe" -runs=1 "$@"
}

smoke() {
  local seconds=${1:-30} failed=0 t
  build
  for t in "${targets[@]}"; do
    run "$t" "$seconds" || failed=1
  done
  for t in "${targets[@]}"; do
    echo "fuzz: replaying Corpus/regressions through $t"
    replay "$t" Corpus/regressions/* > "$scratch/$t/replay.log" 2>&1 || { failed=1; tail -n 30 "$scratch/$t/replay.log"; }
    grep -c '^Executed ' "$scratch/$t/replay.log" | sed "s/^/  inputs replayed: /"
  done
  echo "fuzz: ClusterFuzzLite build.sh into a scratch \$OUT"
  bash scripts/cflite-check.sh || failed=1
  [ "$failed" = 0 ] && echo "fuzz-smoke: ok" || { echo "fuzz-smoke: FAILED"; return 1; }
}

command=${1:-}; shift || true
case "$command" in
  build) build ;;
  run) [ $# = 2 ] || die "usage: run TARGET SECONDS"; run "$@" ;;
  smoke) smoke "$@" ;;
  minimize) [ $# = 1 ] || die "usage: minimize TARGET"; minimize "$1" ;;
  triage) [ $# = 2 ] || die "usage: triage TARGET FILE"; known_target "$1"; triage "$@" ;;
  corpus) corpus ;;
  replay) [ $# -ge 2 ] || die "usage: replay TARGET FILE..."; replay "$@" ;;
  generate) generate ;;
  descriptor-set) [ $# = 1 ] || die "usage: descriptor-set FILE"; descriptor_set "$1" ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
