#!/bin/sh
# Fake agent that invents a number in its first record and drops it once the
# gate findings name the no-fabrication gate.
if [ -n "$OTM_DISTILL_FINDINGS" ] && grep -q 'no-fabrication' "$OTM_DISTILL_FINDINGS"; then
  exec "$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET"
fi
"$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET" |
  sed 's/"mechanism": "/"mechanism": "87.6543% of the traffic vanished. /'
