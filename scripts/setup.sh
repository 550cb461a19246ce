#!/bin/sh
# First-time setup on a fresh machine: the pinned pnpm, the workspace's dependencies, a build of every package,
# and the system packages the demo needs. Safe to run again.
set -eu
cd "$(dirname "$0")/.."
want=$(node -p "require('./package.json').packageManager.split('@')[1]")
have=$(pnpm --version 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  echo "Installing pnpm $want (found: ${have:-none})"
  npm install --global --no-fund --no-audit "pnpm@$want" >/dev/null 2>&1 || {
    echo "Could not install pnpm $want with npm; install it yourself: npm install -g pnpm@$want" >&2
    exit 2
  }
fi
sh scripts/system-deps.sh demo
export TURBO_TELEMETRY_DISABLED=1
pnpm install --frozen-lockfile
