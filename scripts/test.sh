#!/usr/bin/env bash
# Runs every test of Fusion Lab on a fresh Debian 12 machine: installs what is
# missing, then
#   1. the native suite (Catch2, CLI checks, shader validation),
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer,
#   3. the fuzz targets, a bounded time each,
#   4. the page: WebAssembly build, then end-to-end tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

step() { printf '\n==> %s\n' "$*"; }

step "set-up"
scripts/setup.sh native web e2e

step "native build and tests"
cmake --preset native
cmake --build --preset native -j"$jobs"
ctest --preset native -j"$jobs"

step "sanitizers: the same suite under ASan + UBSan"
cmake --preset native-asan
cmake --build --preset native-asan -j"$jobs"
ctest --preset native-asan -j"$jobs"

step "fuzzing"
scripts/fuzz.sh

step "the page: WebAssembly build and end-to-end tests in headless Chromium"
cmake --preset wasm
cmake --build --preset wasm -j"$jobs"
tests/e2e/run.sh build/wasm/site build/native/fusionlab
