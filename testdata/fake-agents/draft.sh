#!/bin/sh
# Fake agent with otm-draft's behaviour: drafts the packet named in
# OTM_DISTILL_PACKET. Refusals are printed as a refusal line (exit 0).
"$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET"
rc=$?
[ "$rc" -le 1 ] && exit 0
exit "$rc"
