#!/usr/bin/env bash
# `make conformance`: Google's conformance suite (protobuf 3.21.12, from Debian's source package) run
# against the facades as an outside peer.
#
#  1. builds conformance_test_runner (scripts/build-conformance-runner.sh; incremental);
#  2. writes a scratch package under .scratch/conformance (wireproof scratch-package) holding the
#     nanopb C and facades `make proto` generates for test_messages_proto3.proto and
#     conformance.proto, plus the host executable in Conformance/Host, and builds it;
#  3. runs the runner with --enforce_recommended and Conformance/failure_list.txt;
#  4. the same suite against a second host built on SwiftProtobuf 1.38.1 (code from protoc-gen-swift,
#     Peers/SwiftProtobuf, built once and reused: `wireproof swiftprotobuf-peer conformance-host`),
#     with Conformance/swiftprotobuf_failure_list.txt, so both lines come from one run. When the peer
#     cannot be built here (swift-protobuf cannot be resolved), the step says why in one line and
#     is skipped; --facades-only skips it on purpose.
# The runner fails the run on any failure not in the list, on a listed test that passes, and on a
# listed test that does not exist; this script fails when either run fails.
#
#   bash scripts/conformance.sh [--facades-only]
#
# Environment: CONFORMANCE_BUILD (scratch build folder, default .scratch/conformance/.build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
pbsrc="$root/.deps/protobuf"
dir="$root/.scratch/conformance"
build=${CONFORMANCE_BUILD:-$dir/.build}
failure_list="$root/Conformance/failure_list.txt"
peer_failure_list="$root/Conformance/swiftprotobuf_failure_list.txt"
with_peer=1
for arg in "$@"; do
  case "$arg" in
    --facades-only) with_peer=0 ;;
    *) echo "conformance: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

say() { echo "conformance: $*"; }
start=$(date +%s)

say "building conformance_test_runner"
bash scripts/build-conformance-runner.sh
runner="$root/.build/conformance/conformance_test_runner"

say "generating facades for test_messages_proto3.proto and conformance.proto"
"$(wireproof_tool)" scratch-package --dir "$dir" --name ConformanceProtos \
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

# Runs the suite against host $2 with failure list $3, output in $dir/$1; prints the runner's
# verdict lines prefixed with the host's name and returns the runner's status.
run_suite() {
  local name=$1 testee=$2 list=$3 out="$dir/$1" status=0
  rm -rf "$out"; mkdir -p "$out"
  (cd "$out" && "$runner" --enforce_recommended --failure_list "$list" --output_dir "$out" "$testee") \
    > "$out/runner.log" 2>&1 || status=$?
  # The runner prints one line per unexpected result and a closing summary per suite; the first
  # summary is the binary/JSON suite, the second the text-format suite (all skipped by both hosts).
  grep -E '^(ERROR|WARNING)|These tests' "$out/runner.log" | head -200 || true
  grep -E '^CONFORMANCE SUITE' "$out/runner.log" | sed "s/^/$name: /" || true
  for f in failing_tests.txt succeeding_tests.txt nonexistent_tests.txt; do
    if [ -s "$out/$f" ]; then say "$name $f:"; sed 's/^/    /' "$out/$f"; fi
  done
  say "$name: full log ${out#"$root"/}/runner.log"
  return "$status"
}

say "running the suite against the facades (--enforce_recommended)"
status=0
run_suite facades "$host" "$failure_list" || status=$?

if [ "$with_peer" = 1 ]; then
  say "building the SwiftProtobuf host (Peers/SwiftProtobuf; the first build compiles SwiftProtobuf)"
  peer_status=0
  peer_host=$("$(wireproof_tool)" swiftprotobuf-peer conformance-host 2> "$dir/peer-build.log") || peer_status=$?
  if [ "$peer_status" = 3 ]; then
    say "swiftprotobuf: skipped: $(tail -1 "$dir/peer-build.log")"
  elif [ "$peer_status" != 0 ]; then
    cat "$dir/peer-build.log" >&2
    say "the SwiftProtobuf host does not build" >&2
    status=1
  else
    say "running the suite against SwiftProtobuf 1.38.1 (--enforce_recommended)"
    run_suite swiftprotobuf "$peer_host" "$peer_failure_list" || status=$?
  fi
fi
say "finished in $(( $(date +%s) - start )) s"
exit "$status"
