#!/usr/bin/env bash
# Shows that every sanitizer leg can fail: plants one bug at a time in a scratch copy of the working
# tree (.scratch/plant/tree, never the repository), runs the leg on it, and checks that the leg FAILS
# WITH THE SANITIZER'S OWN REPORT (not through a test assertion). Each plant is reverted before the
# next one; nothing here is ever committed. docs/sanitizers.md describes the plants and the results.
#
#   bash scripts/plant-bugs.sh            every plant on every leg that should catch it
#   bash scripts/plant-bugs.sh leak race  only these plants
#
# Plants (scripts/mutation/plants.txt says what each breaks and holds the edit) -> the legs that must
# report it: leak -> asan (LeakSanitizer), valgrind (definitely lost), accounting (plain swift test);
# oob-typed, oob-raw -> asan (heap-buffer-overflow), valgrind (Invalid read); race -> tsan (data race);
# nanopb (in the copy's .deps/, staged by setup.sh) -> asan (heap-buffer-overflow), valgrind (Invalid write).
# Legs run as CI runs them (scripts/sanitize.sh, scripts/valgrind.sh), narrowed by a test filter to
# the suites that reach the planted code so a run takes minutes, not the whole matrix:
#   asan: --filter NanopbRuntimeTests; tsan: --no-parallel --filter ConcurrencyStressTests;
#   valgrind: runtime-exerciser check; accounting: swift test --filter NanopbRuntimeTests (no sanitizer).
# Exit status: 0 when every leg failed with its report on every plant, 1 otherwise. Logs stay in
# .scratch/plant/logs/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
scratch="$root/.scratch/plant"
tree="$scratch/tree"
logs="$scratch/logs"
mkdir -p "$logs"

echo "plant: copying the working tree to $tree (its own .build folders are kept between runs)"
# The planting tool (wiremutate, run from the root); the copy gets its own .deps/nanopb (the nanopb plant edits it).
(cd "$root" && swift build --product wiremutate >/dev/null) || exit 1
mutate=$(cd "$root" && swift build --show-bin-path)/wiremutate
tool() { (cd "$root" && "$mutate" "$@"); }
tool tree "$tree" --private-deps || exit 1
cd "$tree"
plant() { tool plant "$1" --tree "$tree" && bash scripts/setup.sh >/dev/null; }
unplant() { tool unplant --tree "$tree" && bash scripts/setup.sh >/dev/null; }

legs_for() {
  case "$1" in
    leak) echo "asan valgrind accounting" ;;
    oob-typed|oob-raw|nanopb) echo "asan valgrind" ;;
    race) echo "tsan" ;;
  esac
}

# The report each leg must print for each plant (extended regex).
report_for() {  # PLANT LEG
  case "$2" in
    asan) [ "$1" = leak ] && echo 'ERROR: LeakSanitizer: detected memory leaks' \
                          || echo 'ERROR: AddressSanitizer: heap-buffer-overflow' ;;
    tsan) echo 'WARNING: ThreadSanitizer: data race' ;;
    valgrind) case "$1" in
                leak) echo 'definitely lost: [1-9]' ;;
                nanopb) echo 'Invalid write of size' ;;
                *) echo 'Invalid read of size' ;;
              esac ;;
    accounting) echo 'live allocations -?[0-9]+ -> -?[0-9]+' ;;
  esac
}

run_leg() {  # LEG
  case "$1" in
    asan) bash scripts/sanitize.sh asan --filter NanopbRuntimeTests ;;
    tsan) bash scripts/sanitize.sh tsan --no-parallel --filter ConcurrencyStressTests ;;
    valgrind) bash scripts/valgrind.sh check ;;
    accounting) swift build --build-tests && swift test --skip-build --filter NanopbRuntimeTests ;;
  esac
}

plants=("$@")
[ ${#plants[@]} -gt 0 ] || plants=(leak oob-typed oob-raw race nanopb)
results=()
status=0
for p in "${plants[@]}"; do
  unplant
  plant "$p" || { status=1; continue; }
  for leg in $(legs_for "$p"); do
    log="$logs/$p-$leg.log"
    start=$(date +%s)
    echo "plant: $p -> $leg (log $log)"
    run_leg "$leg" > "$log" 2>&1
    rc=$?
    seconds=$(( $(date +%s) - start ))
    pattern=$(report_for "$p" "$leg")
    if [ "$rc" -ne 0 ] && grep -Eq "$pattern" "$log"; then
      verdict="caught (exit $rc, report: $(grep -Eo "$pattern" "$log" | head -n 1))"
    else
      verdict="NOT CAUGHT (exit $rc, no '$pattern' in the log)"; status=1
    fi
    results+=("$(printf '%-10s %-11s %4ss  %s' "$p" "$leg" "$seconds" "$verdict")")
    echo "plant: ${results[-1]}"
  done
done
unplant
{ echo; echo "Planted bugs:"; printf '  %s\n' "${results[@]}"; } | tee "$logs/summary.txt"
exit "$status"
