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
# fatalError (a broken property) must reach libFuzzer as a plain trap: the Swift runtime's
# backtracer would otherwise run first and trip AddressSanitizer reading its own memory.
export SWIFT_BACKTRACE=enable=no
