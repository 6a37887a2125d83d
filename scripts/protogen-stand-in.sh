#!/bin/bash
# Stands in for `swift` when scripts/proto.sh runs inside `swift test` (SWIFT=this script,
# PROTOGEN=the protogen the test build made): `swift run [flags] protogen ARGS...` becomes
# `$PROTOGEN ARGS...`, since `swift run` there would wait forever for the build folder's lock.
# A file of the tree, never written at test time: a script written by one test and executed
# while another test's child process still held it open failed with "Text file busy".
set -euo pipefail
while [ $# -gt 0 ] && [ "$1" != protogen ]; do shift; done
[ $# -gt 0 ] || { echo "protogen-stand-in: no 'protogen' among the arguments" >&2; exit 2; }
shift
exec "${PROTOGEN:?PROTOGEN names the protogen executable}" "$@"
