#!/usr/bin/env bash
# Regenerates Fixtures/n2k from the project's own gateway, after `make release` and `make interop-deps` (PyPI's
# nmea2000 in .build-interop/venv):
#   telltale-demo.candump         what Telltale puts on an NMEA 2000 bus in 30 s of the demo voyage at 4x (its claim,
#                                 true wind, heading, attitude, guidance, the converted position, depth, speed, AIS),
#                                 recorded through a Yacht Devices RAW connection (Tests/N2K/make_fixture.py)
#   telltale-demo.expected.jsonl  the recording read by PyPI's nmea2000, the independent decoder
#   telltale-demo.expected.nmea   the recording replayed by `telltale replay`: the 0183 it gives, byte for byte on
#                                 x86, arm64 and armhf (Tests/GatewayTests/N2KReplayTests, Tests/Pi/qemu-check.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/telltale
.build-interop/venv/bin/python Tests/N2K/make_fixture.py "$BIN" 30
"$BIN" replay --fast --tag-time Fixtures/n2k/telltale-demo.candump > Fixtures/n2k/telltale-demo.expected.nmea
