# Sourced by the fuzz scripts: how every fuzz build is made and run.
#
# Not SwiftPM's --sanitize=fuzzer --sanitize=address: it hands swiftc two -sanitize= options in an
# order that varies from one `swift build` to the next, and swiftc keeps only the last. Measured:
# one build of the same tree had 32,741 coverage counters (Swift code without ASan), the next 965
# (Swift code without coverage); and as the command lines changed, every invocation rebuilt
# modules that had not changed. One --sanitize=fuzzer keeps SwiftPM's handling of fuzz
# executables (libFuzzer's main, the fuzzer link); -Xswiftc -sanitize=fuzzer,address (after it,
# so it wins) gives Swift both, -fsanitize=address gives C and C++ ASan on top of SwiftPM's
# fuzzer coverage. Same flags every build, about 113,500 counters.
FUZZ_BUILD_FLAGS=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address -Xcxx -fsanitize=address)
# FUZZ_COVERAGE=runtime: coverage only on the code under test, the shipped runtime (nanopb's C, the
# generated C, NanopbRuntime's Swift), ASan on everything as above, in a build folder of its own
# (Fuzz/.build-scoped). -Xswiftc -sanitize=address comes last and wins over SwiftPM's
# -sanitize=fuzzer, so Swift gets ASan without coverage (the C flags and libFuzzer's link stay);
# WIREPROOF_FUZZ_RUNTIME_COVERAGE=1 makes the root manifest give NanopbRuntime its coverage back.
# Only this folder is ever built with the variable set: SwiftPM 6.3 did not recompile a module
# whose manifest flags alone had changed (seen once while making this), so never flip it in place.
# The judges and the harness (oracle, FacadeProof, catalog, FuzzKit) and the generated facades'
# accessors, which no target calls, carry none. Why (docs/fuzzing.md, "Figures"): the
# default build has 106,577 counters, 1,020 of them nanopb's; libFuzzer clears and scans every
# counter after every execution, 28 % of a `decode` campaign's CPU time. Used by
# `wireproof fuzz rate`; the default (all) keeps Swift coverage, which the differential's judges
# (oracle, SwiftProtobuf) need to guide it.
[ "${FUZZ_COVERAGE:-all}" != runtime ] || export WIREPROOF_FUZZ_RUNTIME_COVERAGE=1
[ "${FUZZ_COVERAGE:-all}" != runtime ] ||
  FUZZ_BUILD_FLAGS=(-c release --sanitize=fuzzer -Xswiftc -sanitize=address -Xcc -fsanitize=address -Xcxx -fsanitize=address --scratch-path .build-scoped)
case "${FUZZ_COVERAGE:-all}" in all|runtime) ;; *) echo "fuzz-env: FUZZ_COVERAGE must be all or runtime, not '$FUZZ_COVERAGE'" >&2; return 1 ;; esac
# fatalError (a broken property) must reach libFuzzer as a plain trap: the Swift runtime's
# backtracer would otherwise run first and trip AddressSanitizer reading its own memory.
export SWIFT_BACKTRACE=enable=no
