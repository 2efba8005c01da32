#!/usr/bin/env bash
# Voice (Tests/Interop/voice_check.py): the race countdown spoken on time through `[voice] command`, each
# announcement rendered by espeak-ng and heard as non-silent by sox, a missing audio device survived. espeak-ng, sox
# and alsa-utils come from `make test`'s packages.
#   Tests/Interop/voice-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin voice-check
for tool in espeak-ng sox aplay; do
    command -v "$tool" >/dev/null || { echo "$tool is missing (make test installs espeak-ng, sox, alsa-utils)"; exit 1; }
done
CHECKS_DONE=1
exec python3 Tests/Interop/voice_check.py "${1:-.build/release/telltale}"
