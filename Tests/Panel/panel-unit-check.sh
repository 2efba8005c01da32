#!/usr/bin/env bash
# The panel's modules, unit tested in the browser the other checks use (Panel/tests): a gateway serving the working
# tree's Panel/ on loopback, chromium opening /tests/, each test's verdict read back.
#   Tests/Panel/panel-unit-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin panel-unit-check
BIN=${1:-.build/release/telltale}
browser_ready
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/panel_unit_check.py "$BIN"
