#!/usr/bin/env bash
# The SwiftProtobuf peer (Peers/SwiftProtobuf): builds protoc-gen-swift, generates Swift code with it
# into the package's git-ignored Generated/ folders, and builds the programs that use that code.
# SwiftProtobuf itself is compiled once per checkout (the manifest never changes; generated files are
# replaced only when their content changes, so a rerun rebuilds only what changed).
#
#   bash scripts/swiftprotobuf-peer.sh plugin
#       builds protoc-gen-swift; prints its path
#   bash scripts/swiftprotobuf-peer.sh conformance-host
#       generates conformance.proto and test_messages_proto3.proto (Debian's protobuf source in
#       .deps/protobuf), builds swiftprotobuf-conformance-host; prints its path
#   bash scripts/swiftprotobuf-peer.sh prove-peer --descriptor-set FILE --out PATH PROTO...
#       generates the named files of a descriptor set (protoc --descriptor_set_in) with a registry of
#       their message types, builds swiftprotobuf-peer and copies it to PATH (used by `wireproof
#       prove`: the copy belongs to its scratch package, so another schema may reuse the package)
#
# Exit status: 0 done; 3 the peer is unavailable here (SwiftPM cannot resolve swift-protobuf, or it
# does not build): the last line of stderr says why in one line; 1 anything else (a generation
# failure is a real failure). Progress and build logs: Peers/SwiftProtobuf/.build/peer-*.log.
# Environment: SWIFT, SWIFTPROTOBUF_PEER_CONFIG (debug, the default, or release).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
config=${SWIFTPROTOBUF_PEER_CONFIG:-debug}
package="$root/Peers/SwiftProtobuf"
generated="$package/Generated"
logs="$package/.build"

say() { echo "swiftprotobuf-peer: $*" >&2; }
unavailable() { say "unavailable: $*"; exit 3; }
die() { say "$*"; exit 1; }

# Every target folder must exist before SwiftPM loads the manifest.
mkdir -p "$generated/ConformanceMessages" "$generated/ProvedSchema" "$logs"
# One generator or builder at a time per checkout (prove runs may overlap with make conformance).
exec 9> "$logs/peer.lock"
flock 9

# swift build in the peer package; unavailable (exit 3) with a one-line reason when it fails
# before our own code compiles (resolution, or SwiftProtobuf itself).
build() {
  local product=$1 log="$logs/peer-$1.log"
  if ! "$SWIFT" package --package-path "$package" resolve > "$logs/peer-resolve.log" 2>&1; then
    unavailable "swift package resolve cannot fetch swift-protobuf 1.38.1 ($(grep -m1 -i error "$logs/peer-resolve.log" || tail -1 "$logs/peer-resolve.log"))"
  fi
  if ! "$SWIFT" build --package-path "$package" -c "$config" --product "$product" > "$log" 2>&1; then
    grep -E 'error:' "$log" | head -20 >&2 || tail -20 "$log" >&2
    if grep -q 'checkouts/swift-protobuf' <(grep -E 'error:' "$log"); then
      unavailable "SwiftProtobuf 1.38.1 does not build with this toolchain (log: $log)"
    fi
    die "$product does not build (log: $log)"
  fi
  printf '%s\n' "$("$SWIFT" build --package-path "$package" -c "$config" --show-bin-path)/$product"
}

# Moves the files of staging folder $1 into $2, replacing only files whose content changed and
# removing files $1 does not have, so SwiftPM recompiles only what changed.
sync_folder() {
  local from=$1 to=$2 f
  (cd "$from" && find . -type f) | while read -r f; do
    if ! cmp -s "$from/$f" "$to/$f"; then mkdir -p "$(dirname "$to/$f")"; cp "$from/$f" "$to/$f"; fi
  done
  (cd "$to" && find . -type f) | while read -r f; do [ -e "$from/$f" ] || rm -f "$to/$f"; done
}

# protoc-gen-swift into a staging folder: public types (the code is its own module), one file name
# per .proto path (so equal base names in two folders cannot clash).
generate() {
  local staging=$1; shift
  local plugin; plugin=$(build protoc-gen-swift)
  rm -rf "$staging"; mkdir -p "$staging"
  protoc --plugin=protoc-gen-swift="$plugin" --swift_out="$staging" \
    --swift_opt=Visibility=Public --swift_opt=FileNaming=PathToUnderscores "$@" ||
    die "protoc-gen-swift failed on: ${*: -1}"
}

case "${1:-}" in
  plugin)
    build protoc-gen-swift
    ;;
  conformance-host)
    pbsrc="$root/.deps/protobuf"
    [ -f "$pbsrc/conformance/conformance.proto" ] || die "no $pbsrc/conformance: run make setup"
    staging="$logs/staging-conformance"
    generate "$staging" -I "$pbsrc/conformance" -I "$pbsrc/src" conformance.proto google/protobuf/test_messages_proto3.proto
    sync_folder "$staging" "$generated/ConformanceMessages"
    build swiftprotobuf-conformance-host
    ;;
  prove-peer)
    shift
    descriptors="" out="" files=()
    while [ $# -gt 0 ]; do
      case "$1" in
        --descriptor-set) descriptors=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --*) die "unknown option '$1'" ;;
        *) files+=("$1"); shift ;;
      esac
    done
    [ -f "$descriptors" ] && [ -n "$out" ] && [ ${#files[@]} -gt 0 ] || die "usage: see the header of $0"
    staging="$logs/staging-prove"
    generate "$staging" --descriptor_set_in="$descriptors" "${files[@]}"
    # The registry: every message type protoc-gen-swift declared (its conformance line names the
    # Swift type), keyed by its full protobuf name at run time.
    mapfile -t types < <(sed -n 's/^extension \([A-Za-z0-9_.]*\): SwiftProtobuf\.Message, SwiftProtobuf\._MessageImplementationBase.*/\1/p' "$staging"/*.swift | sort -u)
    {
      echo "// Written by scripts/swiftprotobuf-peer.sh; do not edit. Every message type of the proved schema."
      echo "import SwiftProtobuf"
      echo ""
      echo "public let provedMessageTypes: [any SwiftProtobuf.Message.Type] = ["
      for t in "${types[@]}"; do echo "    $t.self,"; done
      echo "]"
    } > "$staging/ProvedMessageRegistry.swift"
    sync_folder "$staging" "$generated/ProvedSchema"
    peer=$(build swiftprotobuf-peer)
    mkdir -p "$(dirname "$out")"
    cp "$peer" "$out.tmp" && mv "$out.tmp" "$out"
    say "${#types[@]} message types through protoc-gen-swift"
    ;;
  *)
    die "usage: swiftprotobuf-peer.sh plugin|conformance-host|prove-peer ... (see the header of $0)"
    ;;
esac
