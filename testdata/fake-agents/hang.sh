#!/bin/sh
# Fake agent that never answers (and leaves a child holding its stdout).
sleep 30 &
sleep 30
