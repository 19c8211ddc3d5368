#!/usr/bin/env bash
# Runs every test of Fusion Lab on a fresh Debian 12 machine: installs what is
# missing, then the native suite (Catch2 + CLI + shader validation), the same
# suite under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

step() { printf '\n==> %s\n' "$*"; }

step "set-up"
scripts/setup.sh native

step "native build and tests"
cmake --preset native
cmake --build --preset native -j"$jobs"
ctest --preset native -j"$jobs"

step "sanitizers: the same suite under ASan + UBSan"
cmake --preset native-asan
cmake --build --preset native-asan -j"$jobs"
ctest --preset native-asan -j"$jobs"
