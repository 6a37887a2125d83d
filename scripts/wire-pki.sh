#!/usr/bin/env bash
# A throw-away PKI for the transport scripts (netfuzz, load): a CA and a server certificate it
# signed for 127.0.0.1 and localhost, made with the openssl command into DIR (created; reused when
# complete). Prints nothing on success.
#
#   bash scripts/wire-pki.sh DIR      -> DIR/ca.pem, DIR/server.pem, DIR/server.key
set -euo pipefail
dir=${1:?usage: wire-pki.sh DIR}
mkdir -p "$dir"
cd "$dir"
[ -s ca.pem ] && [ -s server.pem ] && [ -s server.key ] && exit 0
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 7 -subj "/CN=Wireproof script CA" 2>/dev/null
openssl req "${ec[@]}" -keyout server.key -out server.csr -subj "/CN=wireproof-peer" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > san.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 7 -extfile san.ext 2>/dev/null
