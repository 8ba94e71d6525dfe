#!/bin/sh
# Fake agent that drafts honestly, except for the packet named by BREAK_SEG:
# there it invents a number and never drops it, whatever it is told (one
# bad record in a batch of good ones).
if [ "$OTM_DISTILL_SEG_ID" = "$BREAK_SEG" ]; then
  "$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET" |
    sed 's/"goal": "/"goal": "87.6543 /'
  exit 0
fi
"$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET"
rc=$?
[ "$rc" -le 1 ] && exit 0
exit "$rc"
