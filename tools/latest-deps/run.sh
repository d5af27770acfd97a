#!/usr/bin/env bash
# Runs core's tests against the newest releases of the libraries whose private internals core reads
# (class-validator's metadata map, TypeBox's '~kind', the MCP server SDK's protected _wrapHandler,
# which two of core's classes override), so an upgrade that breaks them shows here
# before users meet it. The pinned versions stay what the workspace installs and ships.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
  class-validator@latest class-transformer@latest typebox@latest @modelcontextprotocol/server@latest > "$dir/install.log" 2>&1; then
  echo "newest releases: could not install them from the registry:"; cat "$dir/install.log"; exit 2
fi
newer=0
for name in class-validator class-transformer typebox @modelcontextprotocol/server; do
  newest="$(node -p "require('$dir/node_modules/$name/package.json').version")"
  pinned="$(node -p "require('./package.json').dependencies['$name']")"
  printf 'newest %s: %s (pinned: %s)\n' "$name" "$newest" "$pinned"
  [ "$newest" != "$pinned" ] && newer=1
done
# Core's own test target runs the suite on the pinned versions: when nothing newer is out, there is nothing
# else to learn (LATEST_DEPS_FORCE=1 runs it anyway).
if [ "$newer" -eq 0 ] && [ "${LATEST_DEPS_FORCE:-0}" != "1" ]; then
  echo "Tests: not run, the newest releases are the pinned ones"
  exit 0
fi
LATEST_DEPS_DIR="$dir" npx jest -c tools/latest-deps/jest.config.cjs "$@"
