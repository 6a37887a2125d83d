#!/usr/bin/env bash
# One-command, idempotent setup for Wireproof on Debian bookworm (run as root, or with sudo on PATH).
#
# Installs the Debian packages the project builds and tests with, then unpacks third-party source
# from Debian *source* packages into git-ignored folders under .deps/:
#   .deps/nanopb    nanopb 0.4.7 runtime (pb*.c/h) and generator (apt-get source nanopb)
#   .deps/protobuf  Google's protobuf 3.21.12 source: the conformance suite and its test schemas
# Nothing third-party is committed. A second run with everything in place takes well under a second.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
deps="$root/.deps"
# Kept for callers written against the older flag; the protobuf source is always unpacked now.
want_protobuf_src=1
for arg in "$@"; do
  case "$arg" in
    --with-protobuf-source) ;;
    *) echo "setup: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

packages=(protobuf-compiler python3-protobuf libprotobuf-dev libssl-dev valgrind dpkg-dev g++ binutils make
          openssl libavahi-compat-libdnssd-dev libavahi-client-dev avahi-daemon avahi-utils dbus iproute2 strace
          socat faketime)
# The deb-src entry lives in a file of our own; the distribution's lists are never edited.
src_list=/etc/apt/sources.list.d/wireproof-src.sources

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# The deb-src entry names the archive the machine's own apt sources use (a mirror or proxy stays
# in force), read from the first enabled `deb` entry for bookworm main, deb822 or one-line format.
# Only when the machine has none does it fall back to Debian's default host.
machine_archive() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && [ "$f" != "$src_list" ] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
      { types = ""; uris = ""; suites = ""; comps = ""; signed = ""; enabled = "yes"
        for (i = 1; i <= NF; i++) {
          split($i, kv, ":[ \t]*"); key = kv[1]; value = substr($i, length(key) + 2); sub(/^[ \t]+/, "", value)
          if (key == "Types") types = value; else if (key == "URIs") uris = value
          else if (key == "Suites") suites = value; else if (key == "Components") comps = value
          else if (key == "Signed-By") signed = value; else if (key == "Enabled") enabled = value }
        if (enabled != "no" && types ~ /(^| )deb( |$)/ && (" " suites " ") ~ / bookworm / && (" " comps " ") ~ / main /) {
          split(uris, u, " "); print u[1] "|" signed; exit } }' "$f"
  done | head -n 1
  if [ -f /etc/apt/sources.list ]; then
    awk '$1 == "deb" { uri = ""; for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { uri = $i; suite = $(i + 1); break }
      if (uri != "" && suite == "bookworm") { for (j = i + 2; j <= NF; j++) if ($j == "main") { print uri "|"; exit } } }' /etc/apt/sources.list
  fi
}
archive=$(machine_archive | head -n 1)
archive_uri=${archive%%|*}
archive_key=${archive#*|}
if [ -z "$archive_uri" ]; then
  archive_uri=http://deb.debian.org/debian
  echo "setup: no bookworm main entry in the machine's apt sources; using $archive_uri for deb-src" >&2
fi
[ -n "$archive_key" ] || archive_key=/usr/share/keyrings/debian-archive-keyring.gpg
wanted_src_list="# Added by Wireproof's scripts/setup.sh: source packages for nanopb and protobuf, from the
# archive this machine's own apt sources use.
Types: deb-src
URIs: $archive_uri
Suites: bookworm
Components: main
Signed-By: $archive_key"

need_update=0
if [ "$(cat "$src_list" 2>/dev/null)" != "$wanted_src_list" ]; then
  echo "setup: writing deb-src entry for bookworm main from $archive_uri ($src_list)"
  printf '%s\n' "$wanted_src_list" | $SUDO tee "$src_list" >/dev/null
  need_update=1
fi
if [ ${#missing[@]} -gt 0 ] || [ ! -d "$deps/nanopb/generator" ] || \
   { [ "$want_protobuf_src" = 1 ] && [ ! -d "$deps/protobuf/conformance" ]; }; then
  # apt-get source needs fresh source indices; an update is also needed before the first install.
  if [ "$need_update" = 1 ] || [ ! -d /var/lib/apt/lists ] || \
     ! ls /var/lib/apt/lists/*bookworm_main_source_Sources* >/dev/null 2>&1; then
    echo "setup: apt-get update"
    $SUDO apt-get update -qq
  fi
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# unpack_source PACKAGE VERSION_PREFIX DEST: apt-get source into a scratch folder, move the tree to DEST.
unpack_source() {
  local pkg=$1 version=$2 dest=$3
  local scratch
  scratch=$(mktemp -d "$deps/.src-$pkg.XXXXXX")
  echo "setup: apt-get source $pkg=$version* into $dest"
  (cd "$scratch" && apt-get source -qq "$pkg" >/dev/null 2>&1) || {
    echo "setup: 'apt-get source $pkg' failed; is the deb-src entry in $src_list reachable?" >&2
    rm -rf "$scratch"; exit 1; }
  local tree
  tree=$(find "$scratch" -mindepth 1 -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
  case "$(basename "$tree")" in
    "$pkg-$version"*) ;;
    *) echo "setup: expected $pkg $version, got $(basename "$tree")" >&2; rm -rf "$scratch"; exit 1 ;;
  esac
  rm -rf "$dest"
  mv "$tree" "$dest"
  rm -rf "$scratch"
}

mkdir -p "$deps"
if [ ! -f "$deps/nanopb/pb_decode.c" ] || [ ! -f "$deps/nanopb/generator/nanopb_generator.py" ]; then
  unpack_source nanopb 0.4.7 "$deps/nanopb"
fi
if [ "$want_protobuf_src" = 1 ] && [ ! -d "$deps/protobuf/conformance" ]; then
  unpack_source protobuf 3.21.12 "$deps/protobuf"
fi

# The nanopb runtime is compiled by SwiftPM as target CNanopb (SwiftPM only compiles files inside the
# target folder; both destinations are git-ignored):
#   headers -> Sources/Shipped/CNanopb/include/  (public: generated C and Swift's importer find them there)
#   sources -> Sources/Shipped/CNanopb/runtime/  (no headers next to them, so their `#include "pb.h"` falls
#                                         through to the one patched copy in include/)
# pb.h gets `#include "wireproof_pb_config.h"` as its first line, and pb.h and every .c get
# `#include "wireproof_pb_abi.h"` as their last, so every translation unit and the importer see one
# configuration and check it (see Sources/Shipped/CNanopb/include/wireproof_pb_config.h). Files are only
# rewritten when their content changes, so a second run touches nothing and triggers no rebuild.
# Project patches to nanopb (patches/nanopb/*.patch, applied in name order with `patch -p1` to a
# staged copy of the runtime files, never to .deps/): each one says in its header what it changes and
# which test pins it. A patch that does not apply cleanly stops setup.
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
for f in pb.h pb_common.h pb_decode.h pb_encode.h pb_common.c pb_decode.c pb_encode.c; do cp "$deps/nanopb/$f" "$stage/$f"; done
for p in $(find "$root/patches/nanopb" -maxdepth 1 -name '*.patch' 2>/dev/null | LC_ALL=C sort); do
  (cd "$stage" && patch -p1 --quiet --batch --forward --no-backup-if-mismatch < "$p") ||
    { echo "setup: nanopb patch $(basename "$p") does not apply" >&2; exit 1; }
done
cnanopb="$root/Sources/Shipped/CNanopb"
mkdir -p "$cnanopb/include" "$cnanopb/runtime"
# install_patched SRC DEST PREPEND: DEST = [PREPEND line] + SRC + abi-guard line, written if changed.
install_patched() {
  local src=$1 dest=$2 prepend=$3 tmp
  tmp=$(mktemp "$dest.XXXXXX")
  {
    if [ -n "$prepend" ]; then printf '%s\n' "$prepend"; fi
    cat "$src"
    printf '\n#include "wireproof_pb_abi.h" /* added by scripts/setup.sh: Wireproof ABI guard */\n'
  } > "$tmp"
  if cmp -s "$tmp" "$dest"; then rm -f "$tmp"; else chmod 644 "$tmp"; mv "$tmp" "$dest"; fi
}
install_patched "$stage/pb.h" "$cnanopb/include/pb.h" \
  '#include "wireproof_pb_config.h" /* added by scripts/setup.sh: Wireproof nanopb configuration */'
for f in pb_common.h pb_decode.h pb_encode.h; do
  if ! cmp -s "$stage/$f" "$cnanopb/include/$f"; then cp "$stage/$f" "$cnanopb/include/$f"; fi
done
for f in pb_common.c pb_decode.c pb_encode.c; do
  install_patched "$stage/$f" "$cnanopb/runtime/$f" ""
done
# Headers from an older layout next to the .c files would shadow the patched pb.h: remove them.
rm -f "$cnanopb"/runtime/*.h

# nanopb's generator needs nanopb.proto compiled for python-protobuf (generator/proto/nanopb_pb2.py).
# The generator would build it on first use, but scripts/proto-options.py imports it directly and
# several generator runs may start at once: build it here, once, with the system protoc.
nanopb_proto="$deps/nanopb/generator/proto"
if [ ! -f "$nanopb_proto/nanopb_pb2.py" ] || [ "$nanopb_proto/nanopb.proto" -nt "$nanopb_proto/nanopb_pb2.py" ]; then
  echo "setup: protoc --python_out nanopb.proto (nanopb's generator options schema)"
  protoc -I"$nanopb_proto" --python_out="$nanopb_proto" "$nanopb_proto/nanopb.proto"
fi

# Swift packages (swift-protobuf, swift-argument-parser) are declared by their upstream URL and exact
# version. Where the workplace's ../shared/vendor holds git bundles of those releases (a machine that
# cannot reach the upstream host), each bundle becomes a bare repository in the user's cache, named
# after the bundle (release included), and the machine-wide SwiftPM mirror file points the upstream
# URL at it, so the root package, Fuzz/ and every scratch package resolve the same release. The
# mirror lives outside any checkout: deleting one clone must not break the others the file serves.
# Without ../shared/vendor nothing is written and SwiftPM fetches upstream.
vendor="$root/../shared/vendor"
if [ -d "$vendor" ]; then
  mirrors="${XDG_CACHE_HOME:-$HOME/.cache}/wireproof/mirrors"
  mkdir -p "$mirrors"
  mirror_entries=()
  for bundle in "$vendor"/*.bundle; do
    [ -f "$bundle" ] || continue
    release=$(basename "$bundle" .bundle) repo=${release%-*}
    if [ ! -d "$mirrors/$release.git" ]; then
      echo "setup: mirror of $repo from $(basename "$bundle")"
      # A clone of its own, renamed into place, so two setups at once never see a half-made mirror.
      partial=$(mktemp -d "$mirrors/.$release.XXXXXX")
      git clone -q --bare "$bundle" "$partial/repo.git"
      mv -T "$partial/repo.git" "$mirrors/$release.git" 2>/dev/null || true
      rm -rf "$partial"
    fi
    mirror_entries+=("https://github.com/apple/$repo.git|$mirrors/$release.git")
  done
  /usr/bin/python3 "$root/scripts/swiftpm-mirrors.py" "$HOME/.swiftpm/configuration/mirrors.json" "${mirror_entries[@]}"
fi

echo "setup: ok (protoc $(protoc --version | awk '{print $2}'), nanopb $(sed -n 's/^#define NANOPB_VERSION "\(.*\)"/\1/p' "$deps/nanopb/pb.h"))"
