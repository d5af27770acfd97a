#!/usr/bin/env bash
# Installs Debian's nginx (nginx-light) when it is missing: the rolling-restart test puts the
# replicas behind a real load balancer. Needs root (or sudo) and Debian's package archive.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx-light >/dev/null
