#!/usr/bin/env bash
# The main job: installs what is missing, builds the command-line tool and
# prints the lecture's four demos.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh native
cmake --preset native
cmake --build --preset native -j"$(nproc)" --target fusionlab
build/native/fusionlab "$@"
