#!/usr/bin/env bash
# `make check-protocol` (a CI leg): regenerate the bundled schema's C target, facades and catalog
# module into .scratch/check-protocol/ exactly as `make proto` would, and fail, listing
# the files, if anything differs from the committed output -- a changed file, or a file present in
# only one of the trees.
# Also checks that the nanopb rename list is complete (scripts/nanopb-symbols.sh --check).
#
#   bash scripts/check-protocol.sh [--c-only]
#
# Environment: PROTO_DIR, C_OUT, C_MODULE, SWIFT_OUT, CATALOG_OUT as for `make proto` (defaults: the
# bundled schema and the package's own targets; CATALOG_OUT defaults to Sources/Generated/BundledProtoCatalog
# only for the bundled schema, and set empty it is not compared); SWIFT_BUILD_FLAGS for `swift run`.
# The comparison is against the working tree, which in CI is the committed state; generated files
# that git does not track yet are reported too, since a clean checkout would not have them.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
cd "$root"
c_only=0
for arg in "$@"; do
  case "$arg" in --c-only) c_only=1 ;; *) echo "check-protocol: unknown argument '$arg'" >&2; exit 2 ;; esac
done

PROTO_DIR=${PROTO_DIR:-Protos}
C_OUT=${C_OUT:-Sources/Generated/BundledProtoC}
C_MODULE=${C_MODULE:-$(basename "$C_OUT")}
SWIFT_OUT=${SWIFT_OUT:-Sources/Generated/BundledProto}
if [ "$PROTO_DIR" = Protos ] && [ "$SWIFT_OUT" = Sources/Generated/BundledProto ] && [ -z "${PRUNE:-}" ]; then
  CATALOG_OUT=${CATALOG_OUT-Sources/Generated/BundledProtoCatalog}
else
  CATALOG_OUT=${CATALOG_OUT:-}
fi
[ "$c_only" = 0 ] || CATALOG_OUT=""

scratch="$root/.scratch/check-protocol"
rm -rf "$scratch"
mkdir -p "$scratch"
fresh_c="$scratch/$(basename "$C_OUT")"
fresh_swift="$scratch/$(basename "$SWIFT_OUT")"
fresh_catalog="$scratch/catalog-$(basename "${CATALOG_OUT:-none}")"

args=(--proto-dir "$PROTO_DIR" --c-out "$fresh_c" --c-module "$C_MODULE" --swift-out "$fresh_swift")
# shellcheck disable=SC2206  # PRUNE is a list of folders, as for make proto
[ -z "${PRUNE:-}" ] || args+=(--prune-sources $PRUNE)
[ -z "${NANOPB_OPTIONS:-}" ] || args+=(--options "$NANOPB_OPTIONS")
[ "$c_only" = 0 ] || args+=(--c-only)
# shellcheck disable=SC2086  # SWIFT_BUILD_FLAGS is a word list on purpose
if [ -n "$CATALOG_OUT" ]; then
  swift run ${SWIFT_BUILD_FLAGS:-} wireproof generate "${args[@]}" --catalog-out "$fresh_catalog" --proto-dir-hint "$PROTO_DIR"
else
  swift run ${SWIFT_BUILD_FLAGS:-} protogen generate "${args[@]}"
fi

# compare_tree COMMITTED FRESH: print one line per difference, relative to the repository.
compare_tree() {
  local committed=$1 fresh=$2 f
  list() { [ -d "$1" ] && (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) || true; }
  list "$committed" > "$scratch/committed.list"
  list "$fresh" > "$scratch/fresh.list"
  comm -23 "$scratch/committed.list" "$scratch/fresh.list" | while read -r f; do
    echo "  stale (no longer generated): $committed/$f"; done
  comm -13 "$scratch/committed.list" "$scratch/fresh.list" | while read -r f; do
    echo "  missing (generated, not committed): $committed/$f"; done
  comm -12 "$scratch/committed.list" "$scratch/fresh.list" | while read -r f; do
    cmp -s "$committed/$f" "$fresh/$f" || echo "  differs: $committed/$f"; done
}

report=$(compare_tree "$C_OUT" "$fresh_c")
[ "$c_only" = 1 ] || report+=$'\n'$(compare_tree "$SWIFT_OUT" "$fresh_swift")
[ -z "$CATALOG_OUT" ] || report+=$'\n'$(compare_tree "$CATALOG_OUT" "$fresh_catalog")
report=$(printf '%s\n' "$report" | sed '/^$/d')

untracked=""
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  dirs=("$C_OUT"); [ "$c_only" = 1 ] || dirs+=("$SWIFT_OUT"); [ -z "$CATALOG_OUT" ] || dirs+=("$CATALOG_OUT")
  untracked=$( (git ls-files --others --exclude-standard -- "${dirs[@]}" 2>/dev/null || true) | sed 's/^/  untracked: /')
fi

symbols_ok=1
bash scripts/nanopb-symbols.sh --check || symbols_ok=0

if [ -n "$report" ]; then
  echo "check-protocol: generated output is out of date; run 'make proto' and commit the result:" >&2
  printf '%s\n' "$report" >&2
  echo "  (fresh output kept in ${scratch#"$root"/}; e.g. diff -ru $C_OUT ${fresh_c#"$root"/})" >&2
  exit 1
fi
if [ -n "$untracked" ]; then
  echo "check-protocol: generated files are not committed yet (git add them):" >&2
  printf '%s\n' "$untracked" >&2
  [ "${CHECK_PROTOCOL_ALLOW_UNTRACKED:-0}" = 1 ] || exit 1
fi
[ "$symbols_ok" = 1 ] || exit 1
echo "check-protocol: generated output matches ($C_OUT$([ "$c_only" = 1 ] || echo ", $SWIFT_OUT")$([ -z "$CATALOG_OUT" ] || echo ", $CATALOG_OUT"))"
