#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing: the catalog-page test opens the page in a real
# browser (driven by playwright-core at /usr/bin/chromium). Needs root (or sudo) and Debian's archive.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
