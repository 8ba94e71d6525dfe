#!/bin/sh
# Fake agent that invents a number and never drops it, whatever it is told.
"$OTM_BIN_DIR/otm-draft" --stdout "$OTM_DISTILL_PACKET" |
  sed 's/"mechanism": "/"mechanism": "87.6543% of the traffic vanished. /'
