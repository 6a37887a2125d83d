#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as ClusterFuzzLite would, with a scratch $SRC (holding this tree
# as $SRC/wireproof) and a scratch $OUT, then checks that $OUT holds every fuzzer, its dictionary
# and its seed archive, and that each fuzzer starts from $OUT and runs its seeds. Part of
# `wireproof fuzz smoke`, which hands build.sh itself as $WIREPROOF_TOOL.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
ln -s "$root" "$work/src/wireproof"
SRC=$work/src OUT=$work/out bash "$root/.clusterfuzzlite/build.sh"
status=0
for target in decode differential structure; do
  for f in "$target" "$target.dict" "${target}_seed_corpus.zip"; do
    [ -s "$work/out/$f" ] || { echo "cflite-check: \$OUT lacks $f" >&2; status=1; }
  done
  mkdir -p "$work/run/$target" && (cd "$work/run/$target" && unzip -q "$work/out/${target}_seed_corpus.zip")
  if (cd "$work/out" && ./"$target" -runs=0 -dict="$target.dict" "$work/run/$target") > "$work/$target.log" 2>&1; then
    echo "cflite-check: $target from \$OUT: $(grep -m1 -o 'INITED.*' "$work/$target.log")"
  else
    echo "cflite-check: $target failed to run from \$OUT:" >&2; tail -n 20 "$work/$target.log" >&2; status=1
  fi
done
[ "$status" = 0 ] && echo "cflite-check: ok ($(ls "$work/out" | wc -l) files in \$OUT)"
exit "$status"
