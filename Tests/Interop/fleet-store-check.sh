#!/usr/bin/env bash
# `telltale fleet` at race scale (Tests/Interop/fleet_store_check.py): Debian's PostgreSQL and PostGIS started in the
# check's folder as an unprivileged user, two mosquitto brokers, two ingest workers (one killed with SIGKILL), a
# broker restarted, two real gateways and a load generator of 300 boats, a web side; every batch once, PostGIS
# distance against the gateway's own record; then SQLite with no --store. Needs root (to start PostgreSQL as
# nobody), postgresql-15-postgis-3 and mosquitto (`make test-deps`); about two minutes.
#   Tests/Interop/fleet-store-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin fleet-store-check
browser_ready
for module in paho.mqtt.client:paho-mqtt geographiclib:geographiclib gpxpy:gpxpy; do
    "$VENV/bin/python" -c "import ${module%%:*}" 2>/dev/null || "$VENV/bin/pip" install --quiet "${module##*:}"
done
[ -x /usr/lib/postgresql/15/bin/initdb ] || { fail "PostgreSQL 15 is not installed (make test-deps)"; exit 1; }
command -v mosquitto >/dev/null || { fail "mosquitto is not installed (make test-deps)"; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
CHECKS_DONE=1
exec $SUDO "$VENV/bin/python" Tests/Interop/fleet_store_check.py "${1:-.build/release/telltale}"
