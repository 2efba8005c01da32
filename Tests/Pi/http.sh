# http METHOD PATH [BODY]: one request to the gateway on 127.0.0.1:$PORT; prints the status (0 when nothing answered),
# then the body. Sourced by the Pi's smoke checks (Tests/Pi/signalk-smoke.sh, Tests/Pi/sizes-smoke.sh).
http() {
    python3 - "$@" <<'PY'
import os, sys, urllib.error, urllib.request
method, path = sys.argv[1], sys.argv[2]
data = sys.argv[3].encode() if len(sys.argv) > 3 else None
request = urllib.request.Request(f"http://127.0.0.1:{os.environ['PORT']}{path}", data=data, method=method)
try:
    with urllib.request.urlopen(request, timeout=10) as response:
        print(response.status); print(response.read().decode())
except urllib.error.HTTPError as error:
    print(error.code); print(error.read().decode())
except OSError:
    print(0)
PY
}
