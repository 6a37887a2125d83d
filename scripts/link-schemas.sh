#!/usr/bin/env bash
# Two schemas in one program run by `make check-foreign`: Tests/Schemas/linked/
# alpha and beta both import Google's well-known types and linked/common.proto. The shared files
# are generated once into a module of their own (Shared, SharedC); each schema is generated with
# `protogen generate --external-module Shared:SharedC`, so its C target holds only its own file. A scratch
# package (.scratch/linked, never committed) links both into one executable
# (Tests/Schemas/linked/program): it fails to link if a symbol is defined twice, fails to compile
# if the two schemas saw different Timestamp or Tag types, and prints each message's encoding,
# which this script compares with `protoc --encode` of the same values.
#
#   bash scripts/link-schemas.sh
#
# Environment: SWIFT, SWIFT_BUILD_FLAGS (for `swift run protogen`), LINK_SCRATCH (default .scratch/linked).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
cd "$root"
schemas="$root/Tests/Schemas/linked"
dir=${LINK_SCRATCH:-$root/.scratch/linked}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The shared module's schema: the well-known types both import, and the shared file.
shared="$dir/Protos/Shared"
rm -rf "$dir/Protos"; mkdir -p "$shared/google/protobuf" "$shared/linked"
for f in timestamp duration; do cp "/usr/include/google/protobuf/$f.proto" "$shared/google/protobuf/"; done
cp "$schemas/shared/linked/common.proto" "$shared/linked/"

gen() {  # NAME PROTO_DIR [protogen generate arguments...]
  local name=$1 protos=$2; shift 2
  "$SWIFT" run protogen generate --proto-dir "$protos" --c-out "$dir/Sources/${name}C" \
    --swift-out "$dir/Sources/$name" "$@" || die "generation of $name failed"
}
gen Shared "$shared"
gen Alpha "$schemas/alpha" --proto-path "$shared" --external-module Shared:SharedC
gen Beta "$schemas/beta" --proto-path "$shared" --external-module Shared:SharedC
for name in Alpha Beta; do
  if ls "$dir/Sources/${name}C/include/google" >/dev/null 2>&1 || ls "$dir/Sources/${name}C/include/linked/common.pb.h" >/dev/null 2>&1; then
    die "${name}C holds C of a shared file: $(cd "$dir/Sources/${name}C" && find . -name '*.h' | tr '\n' ' ')"
  fi
done
rm -rf "$dir/Sources/Linked"; mkdir -p "$dir/Sources/Linked"
cp "$schemas/program/main.swift" "$dir/Sources/Linked/"

"$(wireproof_tool)" scratch-manifest --dir "$dir" --name LinkedSchemas --written-by scripts/link-schemas.sh \
  --purpose "Two schemas sharing one module of imports, linked into one program." --wireproof-root "$root" \
  --target SharedC=wireproof:CNanopb --target Shared=SharedC,wireproof:NanopbRuntime \
  --target AlphaC=SharedC,wireproof:CNanopb --target Alpha=AlphaC,Shared,wireproof:NanopbRuntime \
  --target BetaC=SharedC,wireproof:CNanopb --target Beta=BetaC,Shared,wireproof:NanopbRuntime \
  --executable Linked=Alpha,Beta,Shared,wireproof:NanopbRuntime >/dev/null || die "cannot write the package's manifest"

echo "link-schemas: building .scratch/linked (SharedC + AlphaC + BetaC in one executable)"
status=0
"$SWIFT" build --package-path "$dir" --product Linked > "$dir/build.log" 2>&1 || status=$?
if [ "$status" != 0 ]; then
  grep -E 'error|multiple definition' "$dir/build.log" | head -20 >&2
  die "the two schemas do not build or link into one program (log: ${dir#"$root"/}/build.log)"
fi
out=$("$dir/.build/debug/Linked") || die "the linked program failed: $out"
echo "$out" | sed 's/^/    /'

# The same values through protoc: the program's bytes must be Google's.
encode() {  # PROTO_DIR FILE TYPE TEXT
  printf '%s' "$4" | (cd "$1" && protoc -I. -I"$shared" -I/usr/include --encode="$3" "$2") | od -An -v -tx1 | tr -d ' \n'
}
want_event=$(encode "$schemas/alpha" alpha.proto linked.alpha.Event \
  'name: "start" at { seconds: 1700000000 nanos: 5 } tag { label: "shared" weight: 3 }')
want_record=$(encode "$schemas/beta" beta.proto linked.beta.Record \
  'at { seconds: 1700000000 nanos: 5 } tag { label: "shared" weight: 3 } took { seconds: 2 } values: [1, -1, 300]')
[ "$(echo "$out" | awk '$1 == "alpha.Event" { print $2 }')" = "$want_event" ] ||
  die "alpha.Event: the program wrote other bytes than protoc --encode ($want_event)"
[ "$(echo "$out" | awk '$1 == "beta.Record" { print $2 }')" = "$want_record" ] ||
  die "beta.Record: the program wrote other bytes than protoc --encode ($want_record)"
echo "link-schemas: ok (two schemas and their shared imports in one program; bytes equal protoc --encode)"
