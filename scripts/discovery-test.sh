#!/usr/bin/env bash
# `make discovery-test`: the discovery suite (Tests/WireDiscoveryTests) against a real mDNS
# responder, never on the machine's real interfaces.
#
# Creates a network namespace with a veth pair (both ends inside it, 10.213.0.1/24 and .2/24) and
# its loopback, a private D-Bus system bus (own config and socket under a scratch folder; the
# machine's /run/dbus is not touched), and avahi-daemon inside the namespace with a config of ours
# that allows only the veth interface. Runs `swift test --filter WireDiscoveryTests` inside the
# namespace, then stops both daemons by pid and deletes the namespace (also on failure). Needs root
# (ip netns) and scripts/setup.sh's packages (avahi-daemon, dbus, iproute2, libavahi-compat-libdnssd-dev).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
[ "$(id -u)" = 0 ] || { echo "discovery-test: needs root (ip netns, avahi-daemon)" >&2; exit 1; }
if [ -s /run/avahi-daemon/pid ] && kill -0 "$(cat /run/avahi-daemon/pid)" 2>/dev/null; then
  echo "discovery-test: an avahi-daemon already runs on this machine (pid $(cat /run/avahi-daemon/pid)); its pid file would clash" >&2
  exit 1
fi

ns=wpdisc$$
run=$(mktemp -d /tmp/wireproof-discovery.XXXXXX)
dbus_pid="" avahi_pid=""
cleanup() {
  [ -n "$avahi_pid" ] && kill "$avahi_pid" 2>/dev/null || true
  [ -n "$dbus_pid" ] && kill "$dbus_pid" 2>/dev/null || true
  sleep 0.3
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$run"
  rm -f /run/avahi-daemon/pid
}
trap cleanup EXIT

echo "discovery-test: building the tests"
"$SWIFT" build --build-tests

echo "discovery-test: namespace $ns with veth pair wpd0/wpd1"
ip netns add "$ns"
ip -n "$ns" link set lo up
ip -n "$ns" link add wpd0 type veth peer name wpd1
ip -n "$ns" addr add 10.213.0.1/24 dev wpd0
ip -n "$ns" addr add 10.213.0.2/24 dev wpd1
ip -n "$ns" link set wpd0 up multicast on
ip -n "$ns" link set wpd1 up multicast on

cat > "$run/dbus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$run/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$run/dbus.conf" --fork --print-pid=3 3>"$run/dbus.pid"
dbus_pid=$(cat "$run/dbus.pid")
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$run/system_bus_socket"

cat > "$run/avahi.conf" <<CONF
[server]
host-name=wireproof-ns
use-ipv4=yes
use-ipv6=no
allow-interfaces=wpd0
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
[reflector]
enable-reflector=no
CONF
ip netns exec "$ns" avahi-daemon --no-drop-root --no-chroot --no-rlimits -D -f "$run/avahi.conf"
for _ in $(seq 50); do
  [ -s /run/avahi-daemon/pid ] && break
  sleep 0.1
done
avahi_pid=$(cat /run/avahi-daemon/pid)
echo "discovery-test: dbus-daemon pid $dbus_pid, avahi-daemon pid $avahi_pid (allow-interfaces=wpd0)"
sleep 1  # the daemon probes its host name before it accepts registrations

WIREPROOF_DISCOVERY_NAMESPACE=$ns ip netns exec "$ns" "$SWIFT" test --skip-build --filter WireDiscoveryTests
