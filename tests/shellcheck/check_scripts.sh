#!/bin/sh
# Every shell script of scripts/ through shellcheck (issue 27): the scripts
# hand paths and names to make, Slurm and git, and a quoting slip there is
# how a name became a command. Exit 77 (ctest: skipped) without shellcheck
# (scripts/bootstrap --test installs it; CI does).
#   check_scripts.sh SOURCE_DIR
set -eu
src=$1
if ! command -v shellcheck >/dev/null 2>&1; then
  echo "shellcheck is not installed (scripts/bootstrap --test installs it): skipped"
  exit 77
fi
n=0
for f in "$src"/scripts/*; do
  [ -f "$f" ] || continue
  # A shell script by its first line (scripts/ holds nothing else today).
  case $(head -n 1 "$f") in '#!'*sh*) ;; *) continue ;; esac
  n=$((n + 1))
  shellcheck --external-sources "$f"
done
[ "$n" -gt 0 ] || { echo "no shell script under $src/scripts" >&2; exit 1; }
echo "shellcheck: $n scripts clean"
