#!/usr/bin/env bash
# Shows that every sanitizer leg can fail: plants one bug at a time in a scratch copy of the working
# tree (.scratch/plant/tree, never the repository), runs the leg on it, and checks that the leg FAILS
# WITH THE SANITIZER'S OWN REPORT (not through a test assertion). Each plant is reverted before the
# next one; nothing here is ever committed. docs/sanitizers.md describes the plants and the results.
#
#   bash scripts/plant-bugs.sh            every plant on every leg that should catch it
#   bash scripts/plant-bugs.sh leak race  only these plants
#
# Plants (what is broken -> which legs must report it, and the report they must print):
#   leak       NanopbBox.deinit skips wp_pb_release: every tree leaks
#              -> asan (LeakSanitizer), valgrind (definitely lost), accounting (plain swift test)
#   oob-typed  NanopbField.scalar reads the element after the field through a typed pointer
#              -> asan (heap-buffer-overflow), valgrind (Invalid read)
#   oob-raw    NanopbField.bytes copies one byte past the data, through the raw pointer it computes
#              -> asan (heap-buffer-overflow in memcpy), valgrind (Invalid read)
#   race       NanopbMsg.modifying writes in place without the uniqueness check
#              -> tsan (data race)
#   nanopb     nanopb's pb_dec_string allocates no room for the NUL it writes (patched in the
#              scratch copy's .deps/, which `make setup` copies into the runtime)
#              -> asan (heap-buffer-overflow in pb_dec_string), valgrind (Invalid write)
#
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
mkdir -p "$tree"
copy_tree() {  # SUBDIR: copy the repository's working tree (or one folder of it) over the scratch tree
  tar -C "$root" --exclude=./.build --exclude=./.scratch --exclude=./.git -cf - "./$1" | tar -C "$tree" -xf -
}
copy_tree .
cd "$tree"
bash scripts/setup.sh >/dev/null

# edit FILE OLD NEW: replace exactly one occurrence (the plant fails if the code moved), and remember
# the file so unplant restores it. The facades are touched too: the incremental build does not
# recompile a client when only an inlined (@_transparent) body of the runtime changed, and a plant in
# one would otherwise never reach the facades that inline it.
planted_files=()
edit() {
  planted_files+=("$1")
  touch Sources/Generated/BundledProto/*.swift
  python3 - "$@" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"plant: anchor not found exactly once in {path}: {old!r}")
open(path, "w").write(text.replace(old, new))
EOF
}

plant() {  # NAME: apply the plant to the scratch tree
  case "$1" in
    leak) edit Sources/Shipped/NanopbRuntime/NanopbBox.swift \
            '        wp_pb_release(&descriptor, raw)' '        _ = descriptor  // PLANTED: the tree is never released' ;;
    oob-typed) edit Sources/Shipped/NanopbRuntime/NanopbField.swift \
            '        return field.pointee' '        return (field + 1).pointee  // PLANTED: one element past the field' ;;
    oob-raw) edit Sources/Shipped/NanopbRuntime/NanopbField.swift \
            'as: UInt8.self, count: Int(field.pointee.size))' 'as: UInt8.self, count: Int(field.pointee.size) + 1)  // PLANTED' ;;
    race) edit Sources/Shipped/NanopbRuntime/NanopbMsg.swift \
            'let inPlace = isOwning && isKnownUniquelyReferenced(&_owner)' 'let inPlace = isOwning  // PLANTED: no uniqueness check' ;;
    nanopb) edit .deps/nanopb/pb_decode.c \
            '    alloc_size = (size_t)(size + 1);' '    alloc_size = (size_t)(size > 0 ? size : 1); /* PLANTED: no room for the NUL */'
            bash scripts/setup.sh >/dev/null ;;
    *) echo "plant: unknown plant $1" >&2; return 1 ;;
  esac
}

unplant() {  # restore the planted files from the repository's working tree (with a fresh mtime)
  local f
  for f in "${planted_files[@]}"; do cp "$root/$f" "$tree/$f"; done
  [ ${#planted_files[@]} -eq 0 ] || touch Sources/Generated/BundledProto/*.swift
  planted_files=()
  bash scripts/setup.sh >/dev/null
}

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
