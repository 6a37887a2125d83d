#!/usr/bin/env bash
# `make valgrind`: memcheck over runtime-exerciser (Sources/Proof/RuntimeExerciser), which runs the
# shipped layer on every exemplar of the bundled catalog, their truncations and seeded mutations, the
# fuzz regressions (Corpus/regressions), the hostile inputs of docs/sanitizers.md and the ownership paths, on one
# thread and without swift-testing (valgrind 3.19 crashed under its threads).
#
# - valgrind 3.19 cannot read the DWARF that Swift 6.3 emits, so it runs a `strip -g` copy of the
#   binary (symbols stay, so reports still name functions).
# - Any memcheck error (invalid read/write, use of uninitialised memory, bad free) or any definite,
#   indirect or possible leak fails the run (--error-exitcode), except the Swift runtime's one-time
#   allocations listed, each with its reason, in scripts/valgrind.supp.
# - The exerciser itself fails on a wrong outcome or an unbalanced live-allocation count.
#
# Extra arguments go to the exerciser (default: check --corpus Corpus/regressions).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
scratch=${VALGRIND_SCRATCH:-$root/.build}
"$SWIFT" build --product runtime-exerciser --scratch-path "$scratch"
binary="$("$SWIFT" build --product runtime-exerciser --scratch-path "$scratch" --show-bin-path)/runtime-exerciser"
stripped=$(mktemp /tmp/runtime-exerciser.XXXXXX); trap 'rm -f "$stripped"' EXIT
strip -g -o "$stripped" "$binary"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(check --corpus "$root/Corpus/regressions")
echo "valgrind: memcheck over runtime-exerciser ${args[*]}"
valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible \
  --suppressions="$root/scripts/valgrind.supp" --num-callers=24 \
  "$stripped" "${args[@]}"
