#!/usr/bin/env bash
# The main job: installs what is missing, builds the command-line tool and the
# course page, and serves the page on 127.0.0.1 (the address is printed).
#
# Usage: scripts/start.sh [PORT]     (default 8000)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
scripts/setup.sh native web
cmake --preset native
cmake --build --preset native -j"$jobs" --target fusionlab
cmake --preset wasm
cmake --build --preset wasm -j"$jobs"
exec scripts/serve.sh "${1:-8000}" build/wasm/site
