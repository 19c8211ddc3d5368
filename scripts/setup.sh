#!/usr/bin/env bash
# Installs what Fusion Lab needs on a fresh Debian 12 machine, from Debian's
# packages and the npm registry only. Safe to run again: it installs only
# what is missing.
#
# Usage: scripts/setup.sh [native|web|e2e|fuzz]...    (default: native web e2e)
set -euo pipefail
cd "$(dirname "$0")/.."

want=("${@:-native web e2e}")
want=(${want[*]})
native=(build-essential cmake catch2 nlohmann-json3-dev libcli11-dev glslang-tools libbenchmark-dev)
web=(emscripten fonttools python3 fonts-noto-cjk xz-utils dpkg-dev)
e2e=(chromium curl)
# libFuzzer ships with clang's runtime libraries, which Debian 12's clang only recommends.
fuzz=(clang libclang-rt-14-dev)

packages=()
for part in "${want[@]}"; do
  case $part in
    native) packages+=("${native[@]}") ;;
    web) packages+=("${native[@]}" "${web[@]}") ;;
    e2e) packages+=("${e2e[@]}") ;;
    fuzz) packages+=("${fuzz[@]}") ;;
    *) echo "setup.sh: unknown part '$part' (native, web, e2e or fuzz)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [[ " ${want[*]} " == *" e2e "* ]]; then
  if ! command -v npm >/dev/null; then
    apt-get install -y -q --no-install-recommends nodejs npm
  fi
  if [[ ! -d tests/e2e/node_modules/playwright-core ]]; then
    (cd tests/e2e && npm ci --no-audit --no-fund)
  fi
fi
