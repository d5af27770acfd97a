#!/usr/bin/env bash
# The Debian packages some tests run, installed when missing, one after another: nginx (the
# rolling-restart and header-routing tests), Chromium (the catalog-page and views-host tests) and
# redis-server (the tasks tests). Each installer waits its turn (tools/test-run/apt-turn.sh), so
# this may run beside `npm test` (CI starts it beside `npm ci`) and beside tests that install their own.
# Beside them, the Python with the MCP SDK that the Python upstream test runs: unpacked from
# Debian's packages into a folder of its own, so it takes no turn (tools/python-mcp/ensure-python-mcp.sh).
cd "$(dirname "$0")/../.."
(bash tools/python-mcp/ensure-python-mcp.sh > /dev/null || echo "python-mcp could not be put together here; the test that uses it will say why") &
for tool in nginx chromium redis; do
  bash "tools/$tool/ensure-$tool.sh" || echo "$tool could not be installed here; the tests that use it will say why"
done
wait
