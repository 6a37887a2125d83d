#!/usr/bin/env bash
# `make proto`: turn a tree of .proto files into a SwiftPM C target (nanopb, every field FT_POINTER)
# and a folder of Swift facades over it.
#
#   bash scripts/proto.sh [--c-only] --proto-dir DIR --c-out DIR [--c-module NAME] --swift-out DIR
#                         [--prune "DIR..."] [--options FILE] [--descriptor-out FILE] [--catalog-out DIR]
#
#   --proto-dir       schema root: every *.proto below it is compiled, named relative to it
#   --c-out           C target folder, entirely owned by this script (include/, src/ are replaced)
#   --c-module        module name of the C target (default: the folder name of --c-out)
#   --swift-out       facade folder, written by `protogen facades`
#   --prune           space-separated source folders: facades only for the types they spell
#                     (default: every type, `--all-types`)
#   --options FILE    nanopb options file applied to every file (default: the single *.options at
#                     the top of --proto-dir, if there is exactly one; else per-file <name>.options).
#                     Its layout-changing options are skipped (each printed with the reason) unless
#                     --honour-options; see docs/shipped-layer.md "nanopb options"
#   --honour-options  apply the options the facades can match (int_size, anonymous_oneof,
#                     type:FT_IGNORE) and refuse generation on any other (also NANOPB_OPTIONS_MODE=honour)
#   --external-module FACADES:CMODULE
#                     files outside --proto-dir (imports found through --proto-path or
#                     /usr/include) are not generated here: their facades and C come from these
#                     modules (generate them once, e.g. the well-known types, and link several
#                     schemas into one program)
#   --descriptor-out  also keep the protoc descriptor set (whole schema, imports included) here
#   --plan-out FILE   also keep the generation plan (`protogen plan` JSON: files, types with their
#                     C and Swift names and accessors, options) there, for scripts that need to
#                     know what was generated without reading generated text (scripts/bench.sh)
#   --proto-path DIR  extra import root (repeatable) for imports outside --proto-dir; /usr/include
#                     (Google's well-known types) is always searched
#   --catalog-out DIR also write the schema's catalog module there (`wireproof catalog`: every
#                     message type by full name and every oracle exemplar built through the facades,
#                     for FacadeProof; a target depending on the facade module, the --swift-out
#                     folder's name, and FacadeProof); needs every type (no --prune). Without it
#                     the step is skipped.
#   --c-only          stop after the C target (no facades; the plan still comes from protogen)
#
# Every decision (which files get C, which types get facades, C and Swift names, options) comes
# from one plan: `protogen plan`, asked before any C is generated; facades and catalog are
# generated from the same plan inputs.
#
# Environment: SWIFT (default swift), SWIFT_BUILD_FLAGS (e.g. "--scratch-path /tmp/b") for the
# `swift run protogen` step, PROTOGEN_FLAGS (extra arguments for `protogen facades`), PROTO_NO_HINT=1
# (do not print the Package.swift hint for a target outside this package).
#
# Output is byte-for-byte deterministic: no timestamps, no absolute paths (checked below), files in
# sorted order, and unchanged files are not rewritten (so a regeneration triggers no rebuild).
# Relative paths are taken relative to the directory the script is invoked from.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nanopb="$root/.deps/nanopb"
python=/usr/bin/python3   # Debian's interpreter: it has python3-protobuf; the first on PATH may not
SWIFT=${SWIFT:-swift}

die() { echo "proto: $*" >&2; exit 1; }
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }

extra_paths=()
c_only=0 proto_dir="" c_out="" c_module="" swift_out="" prune="" options="" descriptor_out="" catalog_out="" plan_out=""
honour=0 external=""
[ "${NANOPB_OPTIONS_MODE:-skip}" = honour ] && honour=1
case "${NANOPB_OPTIONS_MODE:-skip}" in skip|honour) ;; *) die "NANOPB_OPTIONS_MODE must be skip or honour" ;; esac
while [ $# -gt 0 ]; do
  case "$1" in
    --c-only) c_only=1; shift ;;
    --proto-dir) proto_dir=$(abspath "$2"); shift 2 ;;
    --c-out) c_out=$(abspath "$2"); shift 2 ;;
    --c-module) c_module=$2; shift 2 ;;
    --swift-out) swift_out=$(abspath "$2"); shift 2 ;;
    --prune) prune=$2; shift 2 ;;
    --options) options=$(abspath "$2"); shift 2 ;;
    --descriptor-out) descriptor_out=$(abspath "$2"); shift 2 ;;
    --plan-out) plan_out=$(abspath "$2"); shift 2 ;;
    --catalog-out) catalog_out=$(abspath "$2"); shift 2 ;;
    --proto-path) extra_paths+=(-I"$(abspath "$2")"); shift 2 ;;
    --honour-options) honour=1; shift ;;
    --external-module) external=$2; shift 2 ;;
    *) die "unknown argument '$1' (see the header of scripts/proto.sh)" ;;
  esac
done
[ -n "$proto_dir" ] && [ -n "$c_out" ] || die "--proto-dir and --c-out are required"
[ "$c_only" = 1 ] || [ -n "$swift_out" ] || die "--swift-out is required (or --c-only)"
[ -d "$proto_dir" ] || die "schema folder $proto_dir does not exist"
[ -n "$c_module" ] || c_module=$(basename "$c_out")
[ -z "$catalog_out" ] || [ -z "$prune" ] || die "--catalog-out needs facades for every type; it cannot be combined with --prune"
[[ "$c_module" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "C module name '$c_module' is not an identifier"
[ -f "$nanopb/generator/nanopb_generator.py" ] || die "nanopb generator missing; run 'make setup'"
"$python" -c 'import google.protobuf' 2>/dev/null || die "$python lacks python3-protobuf; run 'make setup'"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# --- 1. protoc: one descriptor set for the whole schema ---------------------------------------------
mapfile -t protos < <(cd "$proto_dir" && find . -name '*.proto' -type f | sed 's|^\./||' | LC_ALL=C sort)
[ ${#protos[@]} -gt 0 ] || die "no .proto files under $proto_dir"
includes=(-I"$proto_dir" "${extra_paths[@]}" -I/usr/include -I"$nanopb/generator/proto")
set_file="$tmp/schema.pb"
(cd "$proto_dir" && protoc "${includes[@]}" --include_imports --descriptor_set_out="$set_file" "${protos[@]}") ||
  die "protoc failed on $proto_dir"
if [ -n "$descriptor_out" ]; then
  mkdir -p "$(dirname "$descriptor_out")"; cmp -s "$set_file" "$descriptor_out" || cp "$set_file" "$descriptor_out"
fi

# --- 2. The plan: which files get C, every name, what happens to the schema's nanopb options ----
if [ -z "$options" ]; then
  mapfile -t top_options < <(find "$proto_dir" -maxdepth 1 -name '*.options' -type f | LC_ALL=C sort)
  [ ${#top_options[@]} -eq 1 ] && options=${top_options[0]}
fi
option_args=()
if [ -n "$options" ]; then
  [ -f "$options" ] || die "options file $options does not exist"
  option_args=(--options "$options")
fi
for p in "${extra_paths[@]}"; do option_args+=(--search "${p#-I}"); done
"$python" "$root/scripts/proto-options.py" "$nanopb/generator" "$set_file" "$proto_dir" "${option_args[@]}" \
  > "$tmp/options.json" || die "cannot read the schema's nanopb options (see above)"
plan_args=(--descriptor-set "$set_file" --roots "${protos[@]}" --nanopb-options "$tmp/options.json")
[ "$honour" = 0 ] || plan_args+=(--honour-options)
if [ -n "$external" ]; then
  [[ "$external" =~ ^[A-Za-z_][A-Za-z0-9_]*:[A-Za-z_][A-Za-z0-9_]*$ ]] || die "--external-module wants FACADES:CMODULE"
  plan_args+=(--external-facade-module "${external%%:*}" --external-c-module "${external#*:}")
fi
if [ -n "$prune" ]; then
  read -r -a prune_dirs <<< "$prune"
  selection=(--prune-sources)
  for d in "${prune_dirs[@]}"; do selection+=("$(abspath "$d")"); done
else
  selection=()
fi
# shellcheck disable=SC2086  # SWIFT_BUILD_FLAGS is a word list on purpose
(cd "$root" && "$SWIFT" run ${SWIFT_BUILD_FLAGS:-} protogen plan "${plan_args[@]}" "${selection[@]}") > "$tmp/plan.json" ||
  die "protogen plan refused the schema (see above)"
if [ -n "$plan_out" ]; then mkdir -p "$(dirname "$plan_out")"; cp "$tmp/plan.json" "$plan_out"; fi

# --- 3. nanopb: C for the files the plan names, every field FT_POINTER -------------------------------
mkdir -p "$tmp/sets" "$tmp/gen"
"$python" "$root/scripts/proto-split.py" "$set_file" "$tmp/plan.json" "$tmp/sets" "$tmp/schema.options" > "$tmp/c_files" ||
  die "cannot split the schema for nanopb (see above)"
mapfile -t c_files < "$tmp/c_files"
if [ ${#c_files[@]} -gt 0 ]; then
  (cd "$tmp" && "$python" "$nanopb/generator/nanopb_generator.py" -q -f schema.options -D gen sets/*.pb) ||
    die "nanopb's generator failed (see above)"
fi

# Determinism: nothing machine- or run-specific may reach the generated files.
if grep -rlE "$tmp|$root|$proto_dir|/usr/include|/home/|/tmp/| at (Mon|Tue|Wed|Thu|Fri|Sat|Sun) " "$tmp/gen" >/dev/null; then
  die "generated C contains an absolute path or a timestamp: $(grep -rlE "$tmp|$root|$proto_dir|/tmp/" "$tmp/gen" | sed "s|$tmp/gen/||")"
fi

# Lay the target out: include/ (public headers + module map) and src/ (.pb.c).
stage="$tmp/target"
mkdir -p "$stage/include" "$stage/src"
umbrella="$stage/include/$c_module.h"
{
  echo "/* Generated by \`make proto\` (scripts/proto.sh); do not edit. Umbrella header of $c_module: the"
  echo " * nanopb C structs and descriptors of the schema, every field FT_POINTER, for CNanopb. */"
  echo "#ifndef ${c_module}_UMBRELLA_H"
  echo "#define ${c_module}_UMBRELLA_H"
  echo
  echo "#include \"wireproof_pb_abi.h\" /* CNanopb's configured pb.h and its ABI guard, before any .pb.h */"
} > "$umbrella"
for name in "${c_files[@]}"; do
  base=${name%.proto}
  for ext in h c; do
    gen="$tmp/gen/$base.pb.$ext"
    [ -f "$gen" ] || die "nanopb wrote no $base.pb.$ext for $name"
    if [ "$ext" = h ]; then dest="$stage/include/$base.pb.h"; else dest="$stage/src/$base.pb.c"; fi
    mkdir -p "$(dirname "$dest")"
    {
      echo "/* Generated by \`make proto\` (scripts/proto.sh) from $name; do not edit. */"
      # First include of every .pb.c: CNanopb's ABI guard. Its quoted `#include "pb.h"` resolves next
      # to it, so this TU gets the configured pb.h even if another pb.h is on the search path.
      if [ "$ext" = c ]; then echo '#include "wireproof_pb_abi.h" /* Wireproof ABI guard (CNanopb) */'; fi
      cat "$gen"
    } > "$dest"
  done
  echo "#include \"$base.pb.h\"" >> "$umbrella"
done
printf '\n#endif /* %s_UMBRELLA_H */\n' "$c_module" >> "$umbrella"
cat > "$stage/include/module.modulemap" <<MAP
// Generated by \`make proto\` (scripts/proto.sh); do not edit.
module $c_module {
    umbrella header "$c_module.h"
    export *
}
MAP

# A target outside this package's manifest needs a Package.swift entry: say how.
print_hint() {
  [ "${PROTO_NO_HINT:-0}" != 1 ] || return 0
  ! grep -qs "\"$c_module\"" "$root/Package.swift" || return 0
  local id facade
  id=$(basename "$root" | tr '[:upper:]' '[:lower:]')
  facade=$(basename "${swift_out:-Facades}")
  echo "proto: to use the result, declare the generated folders as targets of your package (tools 6.2+):"
  echo "    dependencies: [.package(path: \"$root\")],"
  echo "    .target(name: \"$c_module\", dependencies: [.product(name: \"CNanopb\", package: \"$id\")],"
  echo "            path: \"<$c_out, relative to your package>\"),"
  if [ "$c_only" = 0 ]; then
    echo "    .target(name: \"$facade\", dependencies: [\"$c_module\", .product(name: \"NanopbRuntime\", package: \"$id\")],"
    echo "            path: \"<$swift_out, relative to your package>\"),"
  fi
  echo "  (the C target's name must be $c_module; bash scripts/scratch-package.sh writes such a package)"
}

# sync_tree STAGED DEST: make DEST hold exactly STAGED, rewriting only files whose bytes differ.
sync_tree() {
  local from=$1 to=$2 f
  mkdir -p "$to"
  (cd "$from" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/want"
  while read -r f; do
    if ! cmp -s "$from/$f" "$to/$f"; then mkdir -p "$(dirname "$to/$f")"; cp "$from/$f" "$to/$f"; fi
  done < "$tmp/want"
  (cd "$to" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) | comm -23 - "$tmp/want" |
    while read -r f; do rm -f "$to/$f"; done
  find "$to" -mindepth 1 -type d -empty -delete
}

# C_OUT is owned by this script; refuse to clear a folder that holds something else.
if [ -d "$c_out" ] && [ -n "$(ls -A "$c_out")" ] && ! grep -qs 'Generated by `make proto`' "$c_out/include/$c_module.h"; then
  die "$c_out exists and was not generated by make proto (no include/$c_module.h); choose an empty folder"
fi
sync_tree "$stage" "$c_out"
echo "proto: C target $c_module in ${c_out#"$root"/} (${#c_files[@]} files: ${c_files[*]})"
if [ "$c_only" = 1 ]; then print_hint; exit 0; fi

# --- 4. Swift facades, from the same plan inputs ---------------------------------------------------
[ ${#selection[@]} -gt 0 ] || selection=(--all-types)
mkdir -p "$swift_out"
# shellcheck disable=SC2086  # SWIFT_BUILD_FLAGS and PROTOGEN_FLAGS are word lists on purpose
(cd "$root" && "$SWIFT" run ${SWIFT_BUILD_FLAGS:-} protogen facades "${plan_args[@]}" \
  --c-module "$c_module" --swift-out "$swift_out" "${selection[@]}" ${PROTOGEN_FLAGS:-}) ||
  die "protogen facades failed"
echo "proto: facades in ${swift_out#"$root"/}"

# --- 5. Catalog module for the proof (only with --catalog-out) -------------------------------------
if [ -n "$catalog_out" ]; then
  # The tests find the schema through this hint; recorded only when it is inside the package, so
  # no absolute path reaches the output.
  hint=()
  case "$proto_dir" in "$root"/*) hint=(--proto-dir-hint "${proto_dir#"$root"/}") ;; esac
  mkdir -p "$catalog_out"
  # shellcheck disable=SC2086  # SWIFT_BUILD_FLAGS is a word list on purpose
  (cd "$root" && "$SWIFT" run ${SWIFT_BUILD_FLAGS:-} wireproof catalog "${plan_args[@]}" \
    --facade-module "$(basename "$swift_out")" --swift-out "$catalog_out" "${hint[@]}") ||
    die "wireproof catalog failed"
  echo "proto: catalog in ${catalog_out#"$root"/}"
fi

print_hint
