#!/usr/bin/env bash
# Load and fault run of the transport (a script, figures in the README and
# docs/transport.md). Builds `wirebench` (release) and runs `wirebench load` on loopback:
#   - CONNECTIONS (default 1,000) concurrent TCP clients, then TLS clients, on one listener each:
#     every client echoes once and is held; the listener must hold them all at once; open
#     descriptors are counted before, at the peak and after everything closed (must match);
#     with the TLS clients held, 200 silent peers connect and never send a ClientHello: the
#     listener counts them, their handshakes time out (TLSOptions.handshakeTimeout, 10 s by
#     default) and free every slot, and no echoing client is lost;
#   - a connect storm: 500 clients at once against a listener limited to 100: exactly 100 served,
#     400 refused and counted, never more than 100 active, every refused client told so;
#   - faults: 50 peers stalled mid-message, 50 sending garbage instead of a TLS handshake, 50
#     resetting while the server writes, while 20 TCP and 20 TLS clients complete 50 echoes each.
# Exits 1 if any of those checks fails. Needs `ulimit -n` >= 2 * CONNECTIONS + 500.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
connections=${CONNECTIONS:-1000}
need=$((2 * connections + 2 * 200 + 100))   # both ends of each client and of each silent peer
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then ulimit -n "$need"; fi
"$SWIFT" build -c release --product wirebench >/dev/null
bash scripts/wire-pki.sh "$root/.build/wire-pki"
exec "$("$SWIFT" build -c release --show-bin-path)/wirebench" load "$root/.build/wire-pki" "$connections"
