# Sourced by the fuzz scripts: how every fuzz build is made and run.
#
# swiftc keeps only the last -sanitize= option it is given, and SwiftPM's --sanitize=fuzzer
# --sanitize=address passes two, in an order that varies from build to build (measured: one build
# of the same tree had 32,741 coverage counters, the next 965: Swift code without coverage, or
# without ASan). The trailing -Xswiftc -sanitize=fuzzer,address makes the Swift side get both,
# always; the --sanitize options still give clang and the linker theirs.
FUZZ_BUILD_FLAGS=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
# fatalError (a broken property) must reach libFuzzer as a plain trap: the Swift runtime's
# backtracer would otherwise run first and trip AddressSanitizer reading its own memory.
export SWIFT_BACKTRACE=enable=no
