#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target of Fuzz/ into $OUT with the schema's
# descriptor set (wireproof.pb, read beside the binary), its dictionary (<name>.dict) and its
# seed corpus (<name>_seed_corpus.zip). scripts/cflite-check.sh runs this with scratch $SRC/$OUT
# in `make fuzz-smoke`, so it cannot rot. Inside OSS-Fuzz's base-builder-swift image, SWIFTFLAGS
# (set by its precompile_swift) chooses the sanitizer flags; elsewhere $SANITIZER (default address).
# The physical path: a symlinked $SRC (scripts/cflite-check.sh) would otherwise make SwiftPM
# rebuild what the same tree already built under its real path.
# `set` as well as the #! line: scripts/cflite-check.sh runs this file with `bash build.sh`.
set -eu
cd "$(cd "$SRC/wireproof" && pwd -P)"
bash scripts/setup.sh >/dev/null
. scripts/lib.sh
# `wireproof fuzz` ($WIREPROOF_TOOL, else this tree's debug build). The differential's SwiftProtobuf
# party: protoc-gen-swift's code for the schema (git-ignored).
tool=$(wireproof_tool)
"$tool" fuzz generate
if [ -n "${SWIFTFLAGS:-}" ]; then
  flags=($SWIFTFLAGS)
else
  # The flags of every local fuzz build (scripts/fuzz-env.sh), with $SANITIZER for address.
  source scripts/fuzz-env.sh
  flags=("${FUZZ_BUILD_FLAGS[@]/address/${SANITIZER:-address}}")
  flags=("${flags[@]:2}")  # without its leading -c release
fi
(cd Fuzz && swift build -c release "${flags[@]}" --product decode && swift build -c release "${flags[@]}" --product differential && swift build -c release "${flags[@]}" --product structure)
bin=$(cd Fuzz && swift build -c release "${flags[@]}" --show-bin-path)
"$tool" fuzz descriptor-set "$OUT/wireproof.pb"
seeds=$(mktemp -d); trap 'rm -rf "$seeds"' EXIT
(cd Corpus && zip -q -r -j "$seeds/seeds.zip" seeds regressions)
for target in decode differential structure; do
  cp "$bin/$target" "$OUT/$target"
  cp Corpus/wireproof.dict "$OUT/$target.dict"
  cp "$seeds/seeds.zip" "$OUT/${target}_seed_corpus.zip"
done
