#!/usr/bin/env bash
# Voice (Tests/Interop/voice_check.py): the race countdown spoken on time through `[voice] command`, each
# announcement rendered by espeak-ng and heard as non-silent by sox, a missing audio device survived. espeak-ng, sox
# and alsa-utils come from `make test`'s packages.
#   Tests/Interop/voice-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in espeak-ng sox aplay; do
    if ! command -v "$tool" >/dev/null; then
        echo "voice-check: $tool is missing (make test installs espeak-ng, sox and alsa-utils)"
        echo "voice-check: 0 passed, 1 failed"
        exit 1
    fi
done
exec python3 Tests/Interop/voice_check.py "${1:-.build/release/telltale}"
