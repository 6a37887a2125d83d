# Shared prelude of the bash scripts in scripts/. Sourced, never executed: a script sources it
# right after its `set` line, before any `cd`, as
#   . "$(dirname "$0")/lib.sh"
# It sets no shell options and changes no directory; the caller's `set -euo pipefail` (or not) applies.

# root: the repository root, absolute (the parent of this file's folder, found through BASH_SOURCE,
# so it is right whatever the working directory and also when lib.sh is sourced from a sourced file).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# SWIFT: the swift driver to run; the caller's environment wins, default `swift` on PATH.
SWIFT=${SWIFT:-swift}

# die MESSAGE...: prints "<name>: MESSAGE" to stderr and exits 1. <name> is the running script's
# file name without .sh ($0: the script that was run, also when die is called from a file it sourced).
die() { local name=${0##*/}; echo "${name%.sh}: $*" >&2; exit 1; }

# wireproof_tool: prints the path of a `wireproof` executable: $WIREPROOF_TOOL when the caller
# gives one, else the debug build of this tree, built first if needed.
wireproof_tool() {
  if [ -n "${WIREPROOF_TOOL:-}" ]; then printf '%s\n' "$WIREPROOF_TOOL"; return; fi
  "$SWIFT" build --package-path "$root" --product wireproof >&2 || die "wireproof does not build"
  printf '%s/wireproof\n' "$("$SWIFT" build --package-path "$root" --product wireproof --show-bin-path)"
}
