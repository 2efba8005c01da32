#!/usr/bin/env bash
# The instrument panel in a real browser (Tests/Panel/panel_check.py): Debian's chromium and chromium-driver
# (installed by `make deps`), Python selenium from PyPI in the interop virtual environment, against `telltale run` on
# the bench profile. Screenshots go to .build/panel-screenshots.
#   Tests/Panel/panel-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-.build/release/telltale}
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import selenium" 2>/dev/null || "$VENV/bin/pip" install --quiet selenium
for tool in chromium chromedriver; do
    if ! command -v "$tool" >/dev/null; then
        echo "panel-check: $tool is missing (make deps installs chromium and chromium-driver)"
        echo "panel-check: 0 passed, 1 failed"
        exit 1
    fi
done
exec "$VENV/bin/python" Tests/Panel/panel_check.py "$BIN" .build/panel-screenshots
