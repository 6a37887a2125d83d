#!/usr/bin/env bash
# `make netfuzz`: seeded network fuzzing of a live peer (docs/transport.md).
#
# Builds `wirepeer` (the facades behind TCP, TLS and UDP listeners) with AddressSanitizer +
# LeakSanitizer in a build folder of its own (.build/netfuzz-asan), builds the `netfuzz` driver
# normally, makes a throw-away PKI, and runs the driver: exemplar-derived mutants of the message
# type from a fixed seed over each transport, on loopback. A dead or hung peer is a finding: its
# preceding inputs and the peer's stderr are saved under $NETFUZZ_OUT (default .build/netfuzz/out)
# and the run fails. Bounded: NETFUZZ_COUNT mutants per transport (default 50000) and NETFUZZ_SECONDS
# for the whole run (default 120).
#
# Variables: NETFUZZ_TYPE (full message name, default rtm.DataPacket), NETFUZZ_SEED, NETFUZZ_COUNT,
# NETFUZZ_SECONDS, NETFUZZ_ARGS (more driver options, e.g. "--replay DIR" or "--transports udp").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
out=${NETFUZZ_OUT:-$root/.build/netfuzz/out}
pki=$root/.build/netfuzz/pki

echo "netfuzz: building wirepeer with AddressSanitizer (.build/netfuzz-asan)"
"$SWIFT" build --product wirepeer --sanitize=address --scratch-path "$root/.build/netfuzz-asan" --disable-index-store
echo "netfuzz: building the driver"
"$SWIFT" build --product netfuzz
peer=$("$SWIFT" build --show-bin-path --sanitize=address --scratch-path "$root/.build/netfuzz-asan")/wirepeer
driver=$("$SWIFT" build --show-bin-path)/netfuzz
bash scripts/wire-pki.sh "$pki"
rm -rf "$out"
mkdir -p "$out"

# For the peer (the driver is not instrumented): stop at the first report; leaks reported at exit.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# shellcheck disable=SC2086
exec "$driver" --peer "$peer" --cert "$pki/server.pem" --key "$pki/server.key" --ca "$pki/ca.pem" --out "$out" \
  --type "${NETFUZZ_TYPE:-rtm.DataPacket}" ${NETFUZZ_SEED:+--seed "$NETFUZZ_SEED"} \
  --count "${NETFUZZ_COUNT:-50000}" --seconds "${NETFUZZ_SECONDS:-120}" ${NETFUZZ_ARGS:-}
