#!/usr/bin/env bash
# Installs Debian's nginx (nginx-light) when it is missing: the rolling-restart and header-routing
# tests put the replicas behind a real load balancer. Needs root (or sudo) and Debian's archive.
set -euo pipefail
installed() { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; }
if installed; then exit 0; fi
. "$(dirname "$0")/../test-run/apt-turn.sh"
if installed; then exit 0; fi
$APT_GET update -qq
$APT_GET install -y -qq nginx-light >/dev/null
