#!/usr/bin/env bash
# Installs Debian's redis-server when it is missing: the shared task store, the shared rate limit
# and cache, and the replica tests run against a real Redis, which each test starts on a loopback
# port of its own (never the system service). Needs root (or sudo) and Debian's package archive.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
