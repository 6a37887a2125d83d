#!/usr/bin/env bash
# What the fuzz targets need beyond scripts/setup.sh, by Debian package name (idempotent, quick
# once done): matplotlib for the coverage-over-time plot, zip and unzip for ClusterFuzzLite seed
# archives.
# libprotobuf-dev (Google's parser for the differential target) and libssl-dev (SHA-1 corpus
# names) come with scripts/setup.sh.
set -euo pipefail
packages=(python3-matplotlib zip unzip)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
echo "fuzz-setup: installing ${missing[*]}"
$SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
  { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
