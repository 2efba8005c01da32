#!/usr/bin/env bash
# Discovery: the gateway found by DNS-SD alone. Two network namespaces (the Pi and a phone), Debian's avahi-daemon
# publishing what `telltale advertise` writes, python-zeroconf and the PyPI signalk-client on the phone's side with
# no address given (Tests/Interop/discovery_check.py). Needs root (network namespaces), iproute2 and avahi-daemon
# (`make test-deps` installs it); about 20 s.
#   Tests/Interop/discovery-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin discovery-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import zeroconf, signalk_client, requests, websocket" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet zeroconf signalk-client requests websocket-client
command -v avahi-daemon >/dev/null || { fail "avahi-daemon is not installed (make test-deps)"; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
CHECKS_DONE=1
exec $SUDO "$VENV/bin/python" Tests/Interop/discovery_check.py "${1:-.build/release/telltale}"
