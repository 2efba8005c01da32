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
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import selenium" 2>/dev/null || "$VENV/bin/pip" install --quiet selenium
for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "$tool is missing (make test installs chromium, chromium-driver)"; exit 1; }
done
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/panel_check.py "$BIN" .build/panel-screenshots
