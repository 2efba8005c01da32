#!/usr/bin/env bash
# The shore with accounts (Tests/Shore/shore_accounts_check.py): `telltale fleet` following two real gateways
# through mosquitto, its panel for those logged in only, each seeing its own boats; a guesser slowed; the store
# keeping Argon2id strings (Debian's libsodium23) and digests; the boat watch's e-mail through aiosmtpd and its pushes
# read by http_ece (PyPI); the boats' commands topic watched by paho-mqtt (PyPI) while an owner looks from home. Needs mosquitto (`make test-deps`); about four minutes.
#   Tests/Shore/shore-accounts-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin shore-accounts-check
browser_ready
# The mail server and the independent Web Push reader (shore_post.py), from PyPI.
"$VENV/bin/python" -c "import aiosmtpd, http_ece, cryptography, paho.mqtt.client" 2>/dev/null \
    || "$VENV/bin/pip" install --quiet aiosmtpd http_ece cryptography paho-mqtt
command -v mosquitto >/dev/null || { fail "mosquitto is not installed (make test-deps)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Shore/shore_accounts_check.py "${1:-.build/release/telltale}"
