#!/usr/bin/env bash
# Runs the end-to-end tests against the built site: serves it on 127.0.0.1,
# runs `node --test` in headless Chromium, stops the server.
#
# Usage: tests/e2e/run.sh [SITE_DIR] [FUSIONLAB_CLI]
#   defaults: build/wasm/site, build/native/fusionlab
# Needs: apt-get install chromium; Node.js with npm (playwright-core comes from npm).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
site=$(realpath "${1:-$root/build/wasm/site}")
export FUSIONLAB_CLI=$(realpath "${2:-$root/build/native/fusionlab}")

[[ -x /usr/bin/chromium ]] || { echo "run.sh: /usr/bin/chromium missing: apt-get install chromium" >&2; exit 1; }
[[ -x "$FUSIONLAB_CLI" ]] || { echo "run.sh: no CLI at $FUSIONLAB_CLI (build the native preset)" >&2; exit 1; }
[[ -d "$here/node_modules/playwright-core" ]] || (cd "$here" && npm ci --no-audit --no-fund)

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/scripts/serve.sh" "$port" "$site" > "$here/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/index.html" > /dev/null && break
  sleep 0.1
done

export FUSIONLAB_URL="http://127.0.0.1:$port/"
cd "$here" && node --test --test-concurrency=1 e2e.test.mjs explain.test.mjs
