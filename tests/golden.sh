#!/bin/sh
# golden.sh check|update FUSIONLAB [NAME]: runs each case of golden/cases.txt
# (or only NAME) and compares its output (stdout, then the exit status) with
# golden/NAME.out, or rewrites that file. The outputs are the CLI's contract:
# a redesign behind it must leave them byte for byte as they are.
set -u
mode=$1 bin=$2 only=${3:-}
cd "$(dirname "$0")/.." || exit 1  # the cases name files from the repository's root
case $bin in /*) ;; *) bin=$OLDPWD/$bin ;; esac
dir=tests/golden
status=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
grep -v '^#' "$dir/cases.txt" | grep -v '^[[:space:]]*$' | while read -r name args; do
  [ -n "$only" ] && [ "$name" != "$only" ] && continue
  # shellcheck disable=SC2086  # the arguments are words on purpose
  "$bin" $args > "$tmp" 2>&1
  echo "exit $?" >> "$tmp"
  if [ "$mode" = update ]; then
    cat "$tmp" > "$dir/$name.out"
  elif ! cmp -s "$tmp" "$dir/$name.out"; then
    echo "golden $name: the output of 'fusionlab $args' changed:"
    diff -u "$dir/$name.out" "$tmp" | head -40
    exit 1
  fi
done || status=1
exit $status
