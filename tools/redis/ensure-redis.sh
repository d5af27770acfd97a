#!/usr/bin/env bash
# Installs Debian's redis-server when it is missing: the shared task store, the shared rate limit
# and cache, and the replica tests run against a real Redis, which each test starts on a loopback
# port of its own (never the system service). Needs root (or sudo) and Debian's package archive.
set -euo pipefail
installed() { command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; }
if installed; then exit 0; fi
. "$(dirname "$0")/../test-run/apt-turn.sh"
if installed; then exit 0; fi
$APT_GET update -qq
$APT_GET install -y -qq redis-server >/dev/null
