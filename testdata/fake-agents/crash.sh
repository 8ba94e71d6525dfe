#!/bin/sh
# Fake agent that fails: non-zero exit with a message on stderr.
echo "model endpoint unreachable" >&2
exit 3
