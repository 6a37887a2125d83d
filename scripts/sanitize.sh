#!/usr/bin/env bash
# `make asan` / `make tsan`: the test suites under a sanitizer, in a build folder of their own.
#
#   bash scripts/sanitize.sh asan   every test but the oracle-vs-protoc cross-check under
#                                   AddressSanitizer + LeakSanitizer, with the C
#                                   targets (nanopb runtime, generated C) also under
#                                   UndefinedBehaviorSanitizer in abort mode (Swift itself has no
#                                   UBSan; its checks are always on). Any report fails the run
#   bash scripts/sanitize.sh tsan   the runtime suites (ownership, views, oneofs, concurrency
#                                   stress) and the transport suite (Dispatch callbacks) under
#                                   ThreadSanitizer with halt_on_error=1, since a
#                                   TSan report does not change the exit status otherwise
#
# Extra arguments go to `swift test` (e.g. --filter NanopbRuntimeTests). These builds keep the index
# store: on Linux, building the test runner discovers the tests through it (with
# --disable-index-store, `swift build --build-tests` fails: "index store path does not exist").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
kind=${1:-}; shift || true
case "$kind" in
  asan)
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    # -fno-sanitize-recover makes every UBSan check abort; the handlers come with the ASan runtime.
    flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
           --scratch-path "$root/.build/asan")
    # ProtocCrossCheckTests compare the oracle (Swift with no unsafe code) with protoc subprocesses
    # over 1,700 random messages: nothing for ASan to see, and the long pole of the leg's test run
    # (208 of its 208 s on 5 December 2026: every other suite had ended first). `make test` runs them.
    filter=(--skip ProtocCrossCheckTests)
    ;;
  tsan)
    export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    flags=(--sanitize=thread --scratch-path "$root/.build/tsan")
    # Serially: with Swift Testing's parallelism on 2 cores TSan missed a planted race in
    # `modifying` 3 runs of 3 (it saw it 5 of 5 serially), and the load stretched loopback waits.
    # AllocationBudgetTests decode hostile inputs on one thread: nothing for TSan to see (with
    # 1 MiB inputs they took 289 of the leg's 360 s); ASan still runs them.
    filter=(--no-parallel --filter 'NanopbRuntimeTests|FacadeEdgeCaseTests|WireTransportTests|RuntimeLimitTests'
            --skip AllocationBudgetTests)
    ;;
  *) echo "sanitize: usage: $0 asan|tsan [swift test arguments]" >&2; exit 2 ;;
esac
# Bounded waits in the transport suites last up to 4 times longer (they end when their condition
# holds): the instrumented suites under load once took over 5 s to see a refused loopback connect.
export WIREPROOF_TEST_WAIT_SCALE=4
[ $# -eq 0 ] || filter=("$@")
echo "sanitize: building tests with ${flags[0]}"
"$SWIFT" build --build-tests "${flags[@]}"
echo "sanitize: running swift test ${flags[0]} ${filter[*]}"
"$SWIFT" test --skip-build "${flags[@]}" "${filter[@]}"
