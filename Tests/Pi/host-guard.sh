#!/usr/bin/env bash
# host-check: runs a step of the build (the SD-card image: `make image-card` runs it through this) and checks that it
# left the machine it ran on as it found it: the host's apt package lists (each file, its size and time) and its
# mounts the same after as before. Prints `host-check: N passed, M failed`; exits with the step's status, or 1 when
# the host changed.
#   Tests/Pi/host-guard.sh COMMAND...
set -uo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin host-check

lists() { find /var/lib/apt/lists -maxdepth 1 -type f -printf '%f %s %T@\n' 2>/dev/null | sort; }
# Network namespaces other checks make beside the build (/run/netns/...) are theirs, not the build's.
mounts() { awk '$2 !~ /^\/run\/netns\// { print $2, $3 }' /proc/self/mounts | sort; }
lists_before=$(lists)
mounts_before=$(mounts)
"$@"
status=$?
lists_after=$(lists)
mounts_after=$(mounts)
check "the build step ran ($*)" test "$status" = 0
if [ "$lists_before" = "$lists_after" ]; then
    pass "the host's apt package lists are as they were ($(echo "$lists_before" | grep -c . ) files)"
else
    fail "the build changed the host's apt package lists:"
    diff <(echo "$lists_before") <(echo "$lists_after") | head -n 20 | sed 's/^/       /'
fi
if [ "$mounts_before" = "$mounts_after" ]; then
    pass "nothing left mounted on the host ($(echo "$mounts_before" | grep -c .) mounts, as before)"
else
    fail "the build left the host's mounts changed:"
    diff <(echo "$mounts_before") <(echo "$mounts_after") | head -n 20 | sed 's/^/       /'
fi
checks_end || exit 1
exit "$status"
