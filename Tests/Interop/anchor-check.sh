#!/usr/bin/env bash
# The anchor watch live (Tests/Interop/anchor_check.py): dropped from the command line, the circle from the chain by
# Signal K PUT, a GPS jump ignored, armed again after SIGKILL and a restart, a drag alarmed within the hold time.
#   Tests/Interop/anchor-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin anchor-check
CHECKS_DONE=1
exec python3 Tests/Interop/anchor_check.py "${1:-.build/release/telltale}"
