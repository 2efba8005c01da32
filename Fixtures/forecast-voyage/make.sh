#!/usr/bin/env bash
# Regenerates the forecast voyage from the demo voyage (run from the repository root after `make release`; needs
# Debian's python3-eccodes for the GRIB):
#   - forecast.grib2: the voyage's own true wind every five minutes on a 0.1° grid around the course, and a
#     barometer falling 1 hPa an hour (make_grib.py, written with ecCodes);
#   - forecast.grib2.ttwx: the grid `telltale weather import` makes of it (what the replay, on x86 and ARM, reads);
#   - voyage.nmea: the demo voyage without its wind sentences (WIMWV) for the first ten minutes and from 20 to 25
#     minutes in: no anemometer heard, then lost;
#   - expected.nmea: the replay with the forecast on board and [weather] wind_fallback (replay.toml).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release/telltale}
DIR=Fixtures/forecast-voyage
/usr/bin/python3 "$DIR/make_grib.py" Fixtures/demo-voyage/truth.csv "$DIR/forecast.grib2"
"$BIN" weather import "$DIR/forecast.grib2" --into "$DIR"
awk -F, '/^\$GPRMC/ { t = $2 + 0 } /^\$WIMWV/ && (t < 101000 || (t >= 102000 && t < 102500)) { next } { print }' \
    Fixtures/demo-voyage/voyage.nmea > "$DIR/voyage.nmea"
"$BIN" replay --fast --computed-only --tag-time --config "$DIR/replay.toml" --forecast "$DIR/forecast.grib2.ttwx" \
    "$DIR/voyage.nmea" > "$DIR/expected.nmea"
