#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing: the catalog-page test opens the page in a real
# browser, and the views-host test renders a view in a test host page (driven by playwright-core at
# /usr/bin/chromium). Needs root (or sudo) and Debian's archive.
set -euo pipefail
installed() { [ -x /usr/bin/chromium ]; }
if installed; then exit 0; fi
. "$(dirname "$0")/../test-run/apt-turn.sh"
if installed; then exit 0; fi
$APT_GET update -qq
$APT_GET install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
