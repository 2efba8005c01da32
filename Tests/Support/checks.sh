# What the checks written in shell share. Source it, then name the check:
#
#   . "$(dirname "$0")/../Support/checks.sh"
#   checks_begin i2c-check
#   check "what is checked" command args...     # counts ok/FAIL, never stops the script
#   fail "what went wrong"                        # counts a failure
#   checks_end                                    # prints `i2c-check: N passed, M failed`, exits 1 on a failure
#
# The count is printed however the script ends (an early `exit`, a failed command under `set -e`): a check that
# stopped half way still says how many passed and failed, and counts the stop as a failure.

CHECKS_NAME=check
CHECKS_PASSED=0
CHECKS_FAILED=0
CHECKS_DONE=0

checks_begin() {
    CHECKS_NAME=$1
    trap checks_trap EXIT
}

checks_trap() {
    local status=$?
    [ "$CHECKS_DONE" = 1 ] && return
    # Ended before checks_end: the stop itself is a failure.
    CHECKS_FAILED=$((CHECKS_FAILED + 1))
    echo "$CHECKS_NAME: stopped early (status $status)"
    echo "$CHECKS_NAME: $CHECKS_PASSED passed, $CHECKS_FAILED failed"
    exit 1
}

# check WHAT COMMAND...: runs the command; ok when it exits 0.
check() {
    local what=$1
    shift
    if "$@"; then
        CHECKS_PASSED=$((CHECKS_PASSED + 1))
        echo "  ok   $what"
    else
        CHECKS_FAILED=$((CHECKS_FAILED + 1))
        echo "  FAIL $what"
    fi
}

pass() { CHECKS_PASSED=$((CHECKS_PASSED + 1)); echo "  ok   $1"; }
fail() { CHECKS_FAILED=$((CHECKS_FAILED + 1)); echo "  FAIL $1"; }

checks_end() {
    CHECKS_DONE=1
    trap - EXIT
    echo "$CHECKS_NAME: $CHECKS_PASSED passed, $CHECKS_FAILED failed"
    [ "$CHECKS_FAILED" = 0 ]
}

# A TCP (or with udp, UDP) port free on loopback now.
free_port() {
    python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1:] == ["udp"] else socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "$@"
}

# Waits until something listens on a TCP port of loopback (10 s at most); 1 when nothing does.
wait_for_port() {
    for _ in $(seq 1 100); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $1)))" && return 0
        sleep 0.1
    done
    return 1
}

# The browser checks' tools: the interop virtual environment with Python selenium from PyPI, Debian's chromium and
# chromium-driver (`make test` installs them). Sets VENV; a missing tool stops the check (counted as a failure).
browser_ready() {
    VENV=.build-interop/venv
    if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
    "$VENV/bin/python" -c "import selenium" 2>/dev/null || "$VENV/bin/pip" install --quiet selenium
    for tool in chromium chromedriver; do
        command -v "$tool" >/dev/null || { echo "$tool is missing (make test installs chromium, chromium-driver)"; exit 1; }
    done
}
