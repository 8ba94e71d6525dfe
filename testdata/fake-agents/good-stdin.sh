#!/bin/sh
# Fake agent that uses only its standard input: it cuts the packet and the
# code file out of the framed input and drafts from those copies, proving
# the input carries everything a distiller needs.
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v dir="$dir" '
  /^=== PACKET / { out = dir "/" $3; next }
  /^=== CODE /   { out = dir "/" $3; next }
  /^=== /        { out = ""; next }
  out != ""      { print > out }
' >/dev/null
packet=$(ls "$dir"/*.json)
# The code section gained a final newline in framing only when it lacked one.
"$OTM_BIN_DIR/otm-draft" --stdout "$packet" || true
