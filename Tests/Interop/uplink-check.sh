#!/usr/bin/env bash
# The fleet uplink (Tests/Interop/uplink_check.py): a shore in a network namespace of its own with Debian's mosquitto
# and a PyPI paho-mqtt subscriber, the link cut three times and the gateway killed once, every batch checked to arrive
# whole and once; the retained topics read by paho-mqtt alone; commands from shore, signed and hostile; five gateways
# on `telltale fleet` in Debian's chromium. Needs root (network namespaces), iproute2 and mosquitto (`make test-deps`
# installs them); about two and a half minutes.
#   Tests/Interop/uplink-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin uplink-check
browser_ready
"$VENV/bin/python" -c "import paho.mqtt.client" 2>/dev/null || "$VENV/bin/pip" install --quiet paho-mqtt
command -v mosquitto >/dev/null || { fail "mosquitto is not installed (make test-deps)"; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
CHECKS_DONE=1
exec $SUDO "$VENV/bin/python" Tests/Interop/uplink_check.py "${1:-.build/release/telltale}"
