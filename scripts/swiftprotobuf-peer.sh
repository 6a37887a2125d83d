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
#   bash scripts/swiftprotobuf-peer.sh size-probe [SWIFT BUILD ARGUMENTS...]
#       the bundled schema through protoc-gen-swift, and Benchmarks/SizePacket/main.swift built
#       against it in release (make bench's SwiftProtobuf size rows); prints the executable's path
#   bash scripts/swiftprotobuf-peer.sh codec-speed
#       the bundled schema through protoc-gen-swift and codec-speed-swiftprotobuf built against it in
#       release (make bench's SwiftProtobuf speed rows); prints the executable's path
#   bash scripts/swiftprotobuf-peer.sh migration-sample
#       the bundled schema through protoc-gen-swift, and the migration sample
#       (Tests/MigrationSampleTests/MovingFromSwiftProtobuf.swift) built against it and run; fails
#       unless it prints Tests/MigrationSampleTests/transcript.txt, the text MigrationSampleTests
#       holds the facades' build of the same file to
#   bash scripts/swiftprotobuf-peer.sh generate --descriptor-set FILE --out DIR
#       generates every file of a descriptor set (protoc --descriptor_set_in) that SwiftProtobuf does
#       not ship into DIR, with a registry of all its message types (`wireproof prove` does this
#       into its scratch package, whose runner links SwiftProtobuf next to the facades)
#
# Exit status: 0 done; 3 the peer is unavailable here (SwiftPM cannot resolve swift-protobuf, it
# does not build, or protoc-gen-swift crashes on the schema): the last line of stderr says why in
# one line; 1 anything else (a generation failure is a real failure). Progress and build logs: Peers/SwiftProtobuf/.build/peer-*.log.
# Environment: SWIFT, SWIFTPROTOBUF_PEER_CONFIG (debug, the default, or release).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
config=${SWIFTPROTOBUF_PEER_CONFIG:-debug}
package="$root/Peers/SwiftProtobuf"
generated="$package/Generated"
logs="$package/.build"

say() { echo "swiftprotobuf-peer: $*" >&2; }
unavailable() { say "unavailable: $*"; exit 3; }

# Every target folder must exist and hold a source before SwiftPM first loads the manifest: a target
# that was empty then stays out of SwiftPM's cached build plan, and the first build after its code
# arrives fails with "no such module" (seen on every fresh clone). The placeholder goes away when
# the generated code replaces it.
mkdir -p "$logs"
for target in ConformanceMessages BundledProto SizePacket MigrationSample; do
  mkdir -p "$generated/$target"
  if ! compgen -G "$generated/$target/*.swift" > /dev/null; then
    # An executable target's placeholder is its (empty) main.swift.
    name=Placeholder.swift; [ "$target" = ConformanceMessages ] || [ "$target" = BundledProto ] || name=main.swift
    echo "// Placeholder until scripts/swiftprotobuf-peer.sh writes this target's code." > "$generated/$target/$name"
  fi
done
# One generator or builder at a time per checkout (prove runs may overlap with make conformance).
exec 9> "$logs/peer.lock"
flock 9

# swift build in the peer package; unavailable (exit 3) with a one-line reason when it fails
# before our own code compiles (resolution, or SwiftProtobuf itself). Arguments after the product
# go to swift build (a scratch path, release flags).
build() {
  local product=$1 log="$logs/peer-$1.log"; shift
  if ! "$SWIFT" package --package-path "$package" resolve > "$logs/peer-resolve.log" 2>&1; then
    unavailable "swift package resolve cannot fetch swift-protobuf 1.38.1 ($(grep -m1 -i error "$logs/peer-resolve.log" || tail -1 "$logs/peer-resolve.log"))"
  fi
  if ! "$SWIFT" build --package-path "$package" -c "$config" --product "$product" "$@" > "$log" 2>&1; then
    grep -E 'error:' "$log" | head -20 >&2 || tail -20 "$log" >&2
    if grep -q 'checkouts/swift-protobuf' <(grep -E 'error:' "$log"); then
      unavailable "SwiftProtobuf 1.38.1 does not build with this toolchain (log: $log)"
    fi
    die "$product does not build (log: $log)"
  fi
  printf '%s\n' "$("$SWIFT" build --package-path "$package" -c "$config" "$@" --show-bin-path)/$product"
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
  local log="$logs/peer-protoc.log"
  if ! protoc --plugin=protoc-gen-swift="$plugin" --swift_out="$staging" \
    --swift_opt=Visibility=Public --swift_opt=FileNaming=PathToUnderscores "$@" 2> "$log"; then
    # A crash of the plugin is SwiftProtobuf's own bug on this schema: the peer cannot take part.
    if grep -q 'Plugin killed by signal' "$log"; then
      unavailable "protoc-gen-swift 1.38.1 crashed on this schema ($(grep -m1 -o 'Swift runtime failure: [^ ].*in protoc-gen-swift' "$log" || grep -m1 -o 'Plugin killed by signal [0-9]*' "$log"); log: ${log#"$root"/})"
    fi
    cat "$log" >&2
    die "protoc-gen-swift failed on: ${*: -1}"
  fi
}

# The bundled schema (Protos/) through protoc-gen-swift into the BundledProtoSwift target.
generate_bundled() {
  local staging="$logs/staging-bundled" protos
  mapfile -t protos < <(cd "$root/Protos" && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort)
  generate "$staging" -I "$root/Protos" -I /usr/include "${protos[@]}"
  sync_folder "$staging" "$generated/BundledProto"
}

# Copies facade-side source $1 into staging folder $2 with `import BundledProto` made
# `import BundledProtoSwift`, the one line that differs between the two builds.
swap_import() {
  local source=$1 staging=$2
  mkdir -p "$staging"
  sed 's/^import BundledProto$/import BundledProtoSwift/' "$source" > "$staging/$(basename "$source")"
  grep -q '^import BundledProtoSwift$' "$staging/$(basename "$source")" || die "${source#"$root"/} no longer has the line 'import BundledProto'"
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
  size-probe)
    # The bundled schema through protoc-gen-swift and Benchmarks/SizePacket/main.swift against it,
    # built in release with the remaining arguments (`make bench`: a scratch path, dead-strip flags).
    shift
    generate_bundled
    rm -rf "$logs/staging-size-packet"
    swap_import "$root/Benchmarks/SizePacket/main.swift" "$logs/staging-size-packet"
    sync_folder "$logs/staging-size-packet" "$generated/SizePacket"
    config=release  # after generate: protoc-gen-swift itself stays the debug build
    build size-packet-swiftprotobuf "$@"
    ;;
  codec-speed)
    # The bundled schema through protoc-gen-swift and the speed program against it, in release.
    generate_bundled
    config=release
    build codec-speed-swiftprotobuf
    ;;
  migration-sample)
    sample="$root/Tests/MigrationSampleTests"
    generate_bundled
    staging="$logs/staging-migration-sample"
    rm -rf "$staging"
    swap_import "$sample/MovingFromSwiftProtobuf.swift" "$staging"
    printf '%s\n' "// Generated by scripts/swiftprotobuf-peer.sh: prints the migration sample's transcript." \
      'for line in movingFromSwiftProtobufTranscript() { print(line) }' > "$staging/main.swift"
    sync_folder "$staging" "$generated/MigrationSample"
    program=$(build migration-sample-swiftprotobuf)
    "$program" > "$logs/migration-sample.out"
    if ! diff -u "$sample/transcript.txt" "$logs/migration-sample.out" >&2; then
      die "the migration sample built against SwiftProtobuf prints something else than Tests/MigrationSampleTests/transcript.txt (diff above: - expected, + SwiftProtobuf)"
    fi
    say "migration sample: SwiftProtobuf 1.38.1 prints the $(wc -l < "$sample/transcript.txt") lines of transcript.txt, as the facades do (MigrationSampleTests)"
    ;;
  generate)
    shift
    descriptors="" out=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --descriptor-set) descriptors=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) die "unknown argument '$1'" ;;
      esac
    done
    [ -f "$descriptors" ] && [ -n "$out" ] || die "usage: see the header of $0"
    # Every file of the set except the well-known types, which SwiftProtobuf ships compiled (their
    # generated code needs its internals; their message types come from SwiftProtobuf itself).
    # descriptor.proto is generated at the set's own revision. Lines: "generate FILE" or
    # "shipped SWIFT_TYPE" (scripts/swiftprotobuf-plan.py).
    plan=$(/usr/bin/python3 "$root/scripts/swiftprotobuf-plan.py" "$descriptors") || die "cannot read $descriptors"
    mapfile -t files < <(sed -n 's/^generate //p' <<< "$plan")
    mapfile -t shipped < <(sed -n 's/^shipped //p' <<< "$plan")
    staging="$logs/staging-generate"
    if [ ${#files[@]} -gt 0 ]; then
      generate "$staging" --descriptor_set_in="$descriptors" "${files[@]}"
    else
      rm -rf "$staging"; mkdir -p "$staging"
    fi
    # protoc-gen-swift writes descriptor.proto as the library's own file, without importing
    # SwiftProtobuf; outside the library it needs the import (its types then shadow the library's
    # newer revision inside this module, which is what the proof judges).
    bundled="$staging/google_protobuf_descriptor.pb.swift"
    if [ -f "$bundled" ]; then
      sed -i "s|^// 'import SwiftProtobuf' suppressed.*|import SwiftProtobuf|" "$bundled"
      grep -q '^import SwiftProtobuf$' "$bundled" || die "protoc-gen-swift's descriptor.proto no longer suppresses its import the way this script expects"
    fi
    # The registry: every message type protoc-gen-swift declared (its conformance line names the
    # Swift type) and every shipped one, keyed by full protobuf name at run time.
    mapfile -t types < <(cat /dev/null "$staging"/*.swift 2>/dev/null |
      sed -n -E 's/^(nonisolated )?extension ([A-Za-z0-9_.]+): (SwiftProtobuf\.)?Message, (SwiftProtobuf\.)?_MessageImplementationBase.*/\2/p' | sort -u)
    {
      echo "// Written by scripts/swiftprotobuf-peer.sh generate; do not edit."
      echo "// Every message type of the schema through SwiftProtobuf, by full protobuf name."
      echo "import SwiftProtobuf"
      echo ""
      echo "public let swiftProtobufMessageTypes: [any SwiftProtobuf.Message.Type] = ["
      for t in "${types[@]}"; do echo "    $t.self,"; done
      for t in "${shipped[@]}"; do echo "    SwiftProtobuf.$t.self,"; done
      echo "]"
    } > "$staging/SwiftProtobufMessageTypes.swift"
    cp "$package/ProveAdapter/SwiftProtobufCodec.swift" "$staging/"
    mkdir -p "$out"
    sync_folder "$staging" "$out"
    say "$(( ${#types[@]} + ${#shipped[@]} )) message types through SwiftProtobuf (${#files[@]} files generated by protoc-gen-swift)"
    ;;
  *)
    die "usage: swiftprotobuf-peer.sh plugin|conformance-host|size-probe|codec-speed|migration-sample|generate ... (see the header of $0)"
    ;;
esac
