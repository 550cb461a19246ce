#!/bin/sh
# The full test suite, as CI runs it: system packages, dependencies, build, lint, typecheck, unit and property
# tests, then end-to-end tests with the real parts (Chromium, Xvfb, Redis, Tesseract).
set -eu
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
export NO_COLOR=1
sh scripts/setup.sh
sh scripts/system-deps.sh test
node --import tsx scripts/check-engines.ts
pnpm exec biome check .
pnpm run test:architecture
pnpm exec turbo run build typecheck test --output-logs=errors-only
pnpm exec turbo run test:e2e --concurrency=1 --output-logs=errors-only
echo "All tests passed."
