#!/usr/bin/env bash
# `make check-foreign`: prove `make proto` on schemas this project has never seen. For each schema it
# writes a scratch SwiftPM package under .scratch/foreign/ (scripts/scratch-package.sh) that depends
# on this package by local path, generates the nanopb C and the facades into it, and builds it,
# including a link of an executable that imports both (duplicate or missing symbols fail here):
#   wkt                  Google's well-known types from /usr/include/google/protobuf
#   test_messages_proto3 Google's conformance message (protobuf source unpacked by `make setup`)
# and asserts that Google's test_messages_proto2.proto is refused with an error naming the file and
# the group field, by scripts/proto.sh and (unless --c-only) by `protogen facades`.
#
#   bash scripts/check-foreign-schemas.sh [--c-only]
#
# Environment: SWIFT_BUILD_FLAGS for `swift run protogen` in this package; FOREIGN_BUILD_ROOT, where
# the scratch packages build (default: each package's own .build, inside .scratch/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
c_only=()
for arg in "$@"; do
  case "$arg" in --c-only) c_only=(--c-only) ;; *) echo "check-foreign: unknown argument '$arg'" >&2; exit 2 ;; esac
done
pbsrc="$root/.deps/protobuf/src"
[ -f "$pbsrc/google/protobuf/test_messages_proto3.proto" ] ||
  { echo "check-foreign: $pbsrc missing; run 'make setup'" >&2; exit 1; }

scratch="$root/.scratch/foreign"
mkdir -p "$scratch"
failures=()

# A main.swift that only imports the generated modules: linking it pulls in every object.
link_src="$scratch/.link-main"
write_link_main() {  # NAME
  rm -rf "$link_src"; mkdir -p "$link_src"
  { [ ${#c_only[@]} -gt 0 ] || echo "import $1"; echo "import ${1}C"; echo "import CNanopb"
    echo "print(\"$1: generated modules import and link\")"; } > "$link_src/main.swift"
}

# check_schema DIRNAME NAME [--include ROOT]... PROTO...: generate, build, link, run.
check_schema() {
  local dirname=$1 name=$2; shift 2
  local dir="$scratch/$dirname" build
  build="${FOREIGN_BUILD_ROOT:-$dir}/$( [ -n "${FOREIGN_BUILD_ROOT:-}" ] && echo "$dirname" || echo .build)"
  echo "== $dirname"
  write_link_main "$name"
  if ! bash scripts/scratch-package.sh --dir "$dir" --name "$name" "${c_only[@]}" \
       --executable "${name}Link=$link_src" "$@"; then
    failures+=("$dirname: generation failed"); return
  fi
  local status=0
  "$SWIFT" build --package-path "$dir" --scratch-path "$build" > "$dir/build.log" 2>&1 || status=$?
  # Progress lines are noise; warnings and errors are shown.
  grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting|Wrapping|Linking|Planning)' "$dir/build.log" || true
  if [ "$status" != 0 ]; then
    failures+=("$dirname: the scratch package does not build (log: ${dir#"$root"/}/build.log)"); return
  fi
  "$build/debug/${name}Link" || failures+=("$dirname: the link check executable failed")
}

wkt=()
for f in any api duration empty field_mask source_context struct timestamp type wrappers; do
  wkt+=("google/protobuf/$f.proto")
done
check_schema wkt WellKnownTypes "${wkt[@]}"
check_schema test_messages_proto3 TestMessagesProto3 --include "$pbsrc" google/protobuf/test_messages_proto3.proto

# proto2 test messages hold groups: both generators must refuse them, naming the file and the field.
echo "== test_messages_proto2 (must be refused)"
p2="$scratch/test_messages_proto2"
rm -rf "$p2"; mkdir -p "$p2/Protos/google/protobuf"
cp "$pbsrc/google/protobuf/test_messages_proto2.proto" "$p2/Protos/google/protobuf/"
expect_refusal() {  # WHAT LOG STATUS
  local what=$1 log=$2 status=$3
  if [ "$status" = 0 ]; then failures+=("$what accepted test_messages_proto2.proto (it has groups)"); return; fi
  if grep -q 'test_messages_proto2\.proto' "$log" && grep -qiE '\bdata\b' "$log" && grep -qi 'group' "$log"; then
    echo "$what refused it as expected:"; grep -i 'group' "$log" | sed 's/^/    /'
  else
    failures+=("$what failed on test_messages_proto2.proto without naming the file and the group field 'data'")
    sed 's/^/    /' "$log" >&2
  fi
}
status=0
PROTO_NO_HINT=1 bash scripts/proto.sh --c-only --proto-dir "$p2/Protos" --c-out "$p2/Sources/P2C" \
  > "$p2/proto.log" 2>&1 || status=$?
expect_refusal "scripts/proto.sh" "$p2/proto.log" "$status"
if [ ${#c_only[@]} -eq 0 ]; then
  (cd "$p2/Protos" && protoc -I. -I/usr/include --include_imports \
    --descriptor_set_out="$p2/proto2.pb" google/protobuf/test_messages_proto2.proto)
  status=0
  # shellcheck disable=SC2086
  "$SWIFT" run ${SWIFT_BUILD_FLAGS:-} protogen facades --descriptor-set "$p2/proto2.pb" --c-module P2C \
    --swift-out "$p2/Sources/P2" --all-types > "$p2/protogen.log" 2>&1 || status=$?
  expect_refusal "protogen facades" "$p2/protogen.log" "$status"
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "check-foreign: FAILED" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "check-foreign: ok (well-known types and test_messages_proto3 build$([ ${#c_only[@]} -eq 0 ] || echo ', C only'); test_messages_proto2 refused)"
