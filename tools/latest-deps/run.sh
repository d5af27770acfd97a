#!/usr/bin/env bash
# Runs core's tests against the newest releases of the libraries whose private internals core reads
# (class-validator's metadata map, TypeBox's '~kind'), so an upgrade that breaks them shows here
# before users meet it. The pinned versions stay what the workspace installs and ships.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
  class-validator@latest class-transformer@latest typebox@latest > "$dir/install.log" 2>&1; then
  echo "newest releases: could not install them from the registry:"; cat "$dir/install.log"; exit 2
fi
for name in class-validator class-transformer typebox; do
  printf 'newest %s: %s (pinned: %s)\n' "$name" \
    "$(node -p "require('$dir/node_modules/$name/package.json').version")" \
    "$(node -p "require('./package.json').dependencies['$name']")"
done
LATEST_DEPS_DIR="$dir" npx jest -c tools/latest-deps/jest.config.cjs "$@"
