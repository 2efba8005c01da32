#!/usr/bin/env bash
# The instrument panel in a real browser (Tests/Panel/panel_check.py): Debian's chromium and chromium-driver
# (installed by `make deps`), Python selenium from PyPI in the interop virtual environment, against `telltale run` on
# the bench profile. Screenshots go to .build/panel-screenshots.
#   Tests/Panel/panel-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin panel-check
BIN=${1:-.build/release/telltale}
browser_ready
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/panel_check.py "$BIN" .build/panel-screenshots
