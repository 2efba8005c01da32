#!/usr/bin/env python3
"""What a login costs the shore (#53): Argon2id as `telltale fleet account add` and a login make it (libsodium's
crypto_pwhash_str_alg, 3 passes over 64 MiB), timed over N accounts added to a SQLite store (each run: the store
opened, the hash made, the row written), then N logins against the running shore, and the largest resident memory of
the account runs.

    Benchmarks/login.py [N] [BINARY]
"""
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
binary = sys.argv[2] if len(sys.argv) > 2 else ".build/release/telltale"
work = tempfile.mkdtemp(prefix="telltale-login-")
store = os.path.join(work, "fleet.sqlite")
subprocess.run([binary, "fleet", "account", "list", "--store", store], check=True, capture_output=True)
start = time.monotonic()
for i in range(n):
    subprocess.run([binary, "fleet", "account", "add", f"owner{i}", "--role", "owner", "--boat", f"boat{i}", "--store",
                    store], input=f"a password of some length {i}\n", text=True, check=True, capture_output=True)
added = (time.monotonic() - start) / n
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
shore = subprocess.Popen([binary, "fleet", "--role", "web", "--listen", f"127.0.0.1:{port}", "--store", store],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(1.5)  # the door closed once the store's accounts are read
    times = []
    for i in range(n):
        body = json.dumps({"name": f"owner{i}", "password": f"a password of some length {i}"}).encode()
        request = (f"POST /telltale/v1/login HTTP/1.1\r\nHost: s\r\nConnection: close\r\nContent-Length: {len(body)}"
                   "\r\n\r\n").encode() + body
        began = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(request)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        times.append(time.monotonic() - began)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
finally:
    shore.terminate()
    shore.wait()
times.sort()
print(f"login: `fleet account add` {added * 1000:.0f} ms an account ({n} runs, the store opened, the hash made, the row "
      f"written; peak RSS {peak} kB); POST /telltale/v1/login answered in {times[len(times) // 2] * 1000:.0f} ms "
      f"(median of {n}, the slowest {times[-1] * 1000:.0f} ms)")
