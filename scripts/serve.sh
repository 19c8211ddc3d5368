#!/usr/bin/env bash
# Serves the built page (build/wasm/site) on 127.0.0.1 and prints its address.
# Browsers refuse to load .wasm from file://, hence a local server.
#
# Usage: scripts/serve.sh [PORT] [SITE_DIR]     (defaults: 8000, build/wasm/site)
set -euo pipefail

port=${1:-8000}
site=${2:-$(dirname "$0")/../build/wasm/site}
if [[ ! -f "$site/index.html" || ! -f "$site/app.wasm" ]]; then
  echo "serve.sh: no built site in $site (build it: cmake --preset wasm && cmake --build --preset wasm)" >&2
  exit 1
fi

echo "Fusion Lab: http://127.0.0.1:$port/   (embedding example: http://127.0.0.1:$port/embed-example.html)"
# Debian's python3: its mimetypes serves .wasm as application/wasm.
exec /usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
