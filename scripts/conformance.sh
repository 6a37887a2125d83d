#!/usr/bin/env bash
# `make conformance`: Google's conformance suite (protobuf 3.21.12, from Debian's source package) run
# against the facades as an outside peer.
#
#  1. builds conformance_test_runner (scripts/build-conformance-runner.sh; incremental);
#  2. writes a scratch package under .scratch/conformance (scripts/scratch-package.sh) holding the
#     nanopb C and facades `make proto` generates for test_messages_proto3.proto and
#     conformance.proto, plus the host executable in Conformance/Host, and builds it;
#  3. runs the runner with --enforce_recommended and Conformance/failure_list.txt.
# The runner fails the run on any failure not in the list, on a listed test that passes, and on a
# listed test that does not exist; this script passes its exit status on.
#
#   bash scripts/conformance.sh [--list-only]
#
# Environment: CONFORMANCE_BUILD (scratch build folder, default .scratch/conformance/.build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
pbsrc="$root/.deps/protobuf"
dir="$root/.scratch/conformance"
build=${CONFORMANCE_BUILD:-$dir/.build}
failure_list="$root/Conformance/failure_list.txt"

say() { echo "conformance: $*"; }
start=$(date +%s)

say "building conformance_test_runner"
bash scripts/build-conformance-runner.sh
runner="$root/.build/conformance/conformance_test_runner"

say "generating facades for test_messages_proto3.proto and conformance.proto"
bash scripts/scratch-package.sh --dir "$dir" --name ConformanceProtos \
  --include "$pbsrc/src" --include "$pbsrc/conformance" \
  --executable "ConformanceHost=$root/Conformance/Host" \
  google/protobuf/test_messages_proto3.proto conformance.proto

say "building the host"
if ! "$SWIFT" build --package-path "$dir" --scratch-path "$build" --product ConformanceHost > "$dir/build.log" 2>&1; then
  grep -E 'error|warning' "$dir/build.log" | head -40 >&2
  say "the host does not build (log: ${dir#"$root"/}/build.log)" >&2
  exit 1
fi
host="$build/debug/ConformanceHost"

say "running the suite (--enforce_recommended)"
out="$dir/out"
rm -rf "$out"; mkdir -p "$out"
status=0
(cd "$out" && "$runner" --enforce_recommended --failure_list "$failure_list" --output_dir "$out" "$host") \
  > "$out/runner.log" 2>&1 || status=$?
# The runner prints one line per unexpected result and a closing summary per suite.
grep -E '^(ERROR|WARNING|CONFORMANCE SUITE)|These tests' "$out/runner.log" | head -200 || true
for f in failing_tests.txt succeeding_tests.txt nonexistent_tests.txt; do
  if [ -s "$out/$f" ]; then say "$f:"; sed 's/^/    /' "$out/$f"; fi
done
say "finished in $(( $(date +%s) - start )) s (full log: ${out#"$root"/}/runner.log)"
exit "$status"
