#!/usr/bin/env bash
# UDP batching benchmark (a script, never a test). Builds `wirebench` (release),
# then in one run, side by side:
#   1. syscalls: BURSTS_STRACE bursts of 100 datagrams, individual sends vs one batch per burst,
#      each under `strace -f -c` (every thread); prints send-family calls and all calls per datagram;
#   2. CPU: BURSTS bursts each way without strace, alternating modes ROUNDS times; prints the
#      process CPU time (user + system, all threads) per datagram and the batched/individual ratio
#      of the medians.
# Goals from the issue: <= 0.01 send syscalls per datagram batched; CPU <= 0.7x individual.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
BURSTS=${BURSTS:-2000} BURSTS_STRACE=${BURSTS_STRACE:-100} ROUNDS=${ROUNDS:-5} SIZE=100 BYTES=${BYTES:-200}
"$SWIFT" build -c release --product wirebench >/dev/null
bench=$("$SWIFT" build -c release --show-bin-path)/wirebench
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "udp-batch-bench: $SIZE-datagram bursts of $BYTES-byte datagrams over loopback (WireTransport Connection, .udp)"
declare -A sends total
for mode in individual batched; do
  strace -f -c -o "$scratch/$mode.strace" "$bench" udp-burst "$mode" "$BURSTS_STRACE" "$SIZE" "$BYTES" >/dev/null
  # strace -c table: "% time seconds usecs/call calls errors syscall"; the total line ends in "total".
  sends[$mode]=$(awk '$NF ~ /^(sendto|sendmsg|sendmmsg|send)$/ { n += ($5 ~ /^[0-9]+$/ ? $4 : $4) } END { print n + 0 }' "$scratch/$mode.strace")
  total[$mode]=$(awk '$NF == "total" { print $4 }' "$scratch/$mode.strace")
done
datagrams=$((BURSTS_STRACE * SIZE))
for mode in individual batched; do
  awk -v m="$mode" -v s="${sends[$mode]}" -v t="${total[$mode]}" -v d="$datagrams" \
    'BEGIN { printf "  syscalls %-10s: %d datagrams, %d send-family calls (%.4f per datagram), %d calls in all (%.3f per datagram)\n", m, d, s, s / d, t, t / d }'
done
echo "  strace detail (send family):"
for mode in individual batched; do
  awk -v m="$mode" '$NF ~ /^(sendto|sendmsg|sendmmsg|send)$/ { printf "    %-10s %-9s %s calls\n", m, $NF, $4 }' "$scratch/$mode.strace"
done

: > "$scratch/cpu"
for round in $(seq "$ROUNDS"); do
  for mode in individual batched; do
    "$bench" udp-burst "$mode" "$BURSTS" "$SIZE" "$BYTES" | tee -a "$scratch/cpu" | sed 's/^/  cpu round '"$round"': /'
  done
done
median() { grep "mode=$1 " "$scratch/cpu" | sed 's/.*cpu_us_per_datagram=\([0-9.]*\).*/\1/' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ind=$(median individual) bat=$(median batched)
awk -v i="$ind" -v b="$bat" -v si="${sends[individual]}" -v sb="${sends[batched]}" -v d="$datagrams" 'BEGIN {
  printf "udp-batch-bench: median CPU per datagram: individual %.3f us, batched %.3f us; batched/individual = %.2fx (goal <= 0.70)\n", i, b, b / i
  printf "udp-batch-bench: send syscalls per datagram: individual %.4f, batched %.4f (goal <= 0.01)\n", si / d, sb / d
}'
