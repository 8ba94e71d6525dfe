#!/bin/sh
# Fake agent that prints prose instead of one JSON object.
echo "Sure! Here is the record you asked for:"
echo "{ not json"
