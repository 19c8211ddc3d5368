#!/bin/sh
# expect.sh CODE PATTERN COMMAND...: runs COMMAND, passes when it exits with
# CODE and its output (stdout and stderr) contains PATTERN (a fixed string).
code=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$code" ]; then
  echo "expected exit $code, got $got from: $*"; echo "$out" | head -20; exit 1
fi
case "$out" in
  *"$pattern"*) exit 0 ;;
  *) echo "output lacks '$pattern':"; echo "$out" | head -20; exit 1 ;;
esac
