#!/usr/bin/env bash
# Fetches Dear ImGui's sources from Debian's source package (Debian's libimgui-dev
# is an x86-64 library: useless for WebAssembly) and unpacks them into DEPS_DIR.
#
# A private apt state is used, so the machine's apt configuration and lists are
# untouched: the source list is the machine's own with `deb` turned into
# `deb-src`. Prints the path of the unpacked checkout (the folder with imgui.h).
#
# Usage: scripts/fetch_imgui.sh [DEPS_DIR]      (default: build/_deps)
set -euo pipefail

deps=$(mkdir -p "${1:-build/_deps}" && cd "${1:-build/_deps}" && pwd)

existing=$(ls -d "$deps"/imgui-*/ 2>/dev/null | head -n1 || true)
if [[ -n "$existing" && -f "$existing/imgui.h" ]]; then
  echo "${existing%/}"
  exit 0
fi

apt_dir=$deps/apt
mkdir -p "$apt_dir/lists/partial"
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$apt_dir/src.sources"
elif [[ -f /etc/apt/sources.list ]]; then
  sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$apt_dir/src.list"
else
  echo "fetch_imgui.sh: no apt source list found" >&2
  exit 1
fi

opts=(-oDir::Etc::SourceList=/dev/null -oDir::Etc::SourceParts="$apt_dir" -oDir::State::Lists="$apt_dir/lists")
apt-get "${opts[@]}" update >&2
(cd "$apt_dir" && apt-get "${opts[@]}" source --download-only imgui >&2)
tar xf "$apt_dir"/imgui_*.orig.tar.* -C "$deps"

checkout=$(ls -d "$deps"/imgui-*/ | head -n1)
test -f "$checkout/imgui.h"
echo "${checkout%/}"
