#!/bin/bash
# collectd-winperf: sign Windows programs, DLLs and MSI packages with
# Authenticode, in place, with osslsigncode (Debian 12's 2.5: SHA-256, the
# certificate chain in one PEM file, no timestamp unless asked for).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   scripts/codesign.sh --cert FILE --key FILE [--ca FILE] [--name TEXT]
#                       [--url URL] [--timestamp URL] FILE...
#     --cert       the code-signing certificate, PEM (followed by the
#                  intermediate certificates, if any)
#     --key        its private key, PEM (unencrypted, or osslsigncode asks)
#     --ca         the root certificate(s) the signature is checked against
#                  after signing (default: the system's bundle,
#                  /etc/ssl/certs/ca-certificates.crt; a private CA needs it)
#     --name       the description Windows shows (default collectd-winperf)
#     --url        the "more information" URL in the signature
#     --timestamp  an RFC 3161 time-stamping server (-ts): a signature then
#                  stays valid after the certificate expires; none by
#                  default (a release machine may be offline)
#
# Each FILE is signed into FILE.signed, checked with `osslsigncode verify
# -CAfile`, then moved over FILE; a file that
# fails leaves FILE as it was and the script exits 1.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
NEED_FAIL=need_fail_die
top_srcdir=$top
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top/tests/lib/need.sh"
need osslsigncode

die() {
  echo "codesign.sh: $*" >&2
  exit 1
}
cert="" key="" ca=/etc/ssl/certs/ca-certificates.crt name=collectd-winperf url="" ts=""
while [ $# -gt 0 ]; do
  case $1 in
  --cert) cert=$2 && shift 2 ;;
  --key) key=$2 && shift 2 ;;
  --ca) ca=$2 && shift 2 ;;
  --name) name=$2 && shift 2 ;;
  --url) url=$2 && shift 2 ;;
  --timestamp) ts=$2 && shift 2 ;;
  --) shift && break ;;
  -*) die "unknown option $1" ;;
  *) break ;;
  esac
done
[ -r "$cert" ] && [ -r "$key" ] || die "--cert FILE and --key FILE (readable PEM files) are needed"
[ $# -gt 0 ] || die "no file to sign"

extra=()
[ -z "$url" ] || extra+=(-i "$url")
[ -z "$ts" ] || extra+=(-ts "$ts")
for f in "$@"; do
  [ -f "$f" ] || die "$f: no such file"
  rm -f "$f.signed"
  osslsigncode sign -certs "$cert" -key "$key" -h sha256 -n "$name" "${extra[@]}" \
    -in "$f" -out "$f.signed" >"$f.sign.log" 2>&1 ||
    die "$f: osslsigncode sign failed: $(tail -3 "$f.sign.log" | tr '\n' ' ')"
  osslsigncode verify -CAfile "$ca" -in "$f.signed" >"$f.sign.log" 2>&1 ||
    die "$f: the new signature does not verify: $(grep -i 'fail\|mismatch' "$f.sign.log" | head -3 | tr '\n' ' ')"
  mv "$f.signed" "$f"
  rm -f "$f.sign.log"
done
