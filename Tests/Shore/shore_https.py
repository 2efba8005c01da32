"""HTTPS on the shore (shore_accounts_check.py, part 6): a CA made with openssl for the check and a certificate for
127.0.0.1 it signed; `telltale fleet --tls-cert --tls-key` on the same store; a login over TLS checked against that
CA (its cookie Secure), the Fleet layout and the stream's WebSocket upgrade over it; plain HTTP on that port answered
by nothing; a key that is not the certificate's refused at start; plain HTTP beyond loopback refused at start."""
import json
import os
import socket
import ssl
import subprocess

from support import free_port, stop, wait_for


def make_ca(work):
    """A CA and a server certificate for 127.0.0.1 and localhost it signed (openssl req/x509), and another key."""
    def run(*words):
        subprocess.run(["openssl", *words], cwd=work, check=True, capture_output=True)
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
        "-out", "ca.crt", "-days", "2", "-subj", "/CN=Telltale check CA")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "shore.key", "-out",
        "shore.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(work, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "shore.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "shore.crt", "-days", "2", "-extfile", "san.ext")
    run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key")
    return {name: os.path.join(work, name) for name in ("ca.crt", "shore.crt", "shore.key", "other.key")}


def exchange(port, request, context):
    """One request over TLS: the status, the head and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            tls.sendall(request)
            answer = b""
            try:
                while chunk := tls.recv(65536):
                    answer += chunk
                    if b"101 Switching" in answer and answer.endswith(b"\r\n\r\n"):
                        break
            except (ssl.SSLError, socket.timeout):
                pass
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, head.decode(errors="replace"), body


def https(check, binary, store, broker, work, name, password):
    files = make_ca(work)
    port = free_port()
    log = open(os.path.join(work, "https.log"), "w")
    shore = subprocess.Popen([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{broker}", "--listen",
                              f"0.0.0.0:{port}", "--store", store, "--tls-cert", files["shore.crt"], "--tls-key",
                              files["shore.key"]], stdout=log, stderr=subprocess.STDOUT)
    context = ssl.create_default_context(cafile=files["ca.crt"])
    try:
        def serving():
            try:
                return exchange(port, b"GET /login.html HTTP/1.1\r\nHost: s\r\nConnection: close\r\n\r\n",
                                context)[0] == 200
            except OSError:
                return False
        up = wait_for(serving, 15, step=0.3)
        body = json.dumps({"name": name, "password": password}).encode()
        status, head, _ = exchange(port, b"POST /telltale/v1/login HTTP/1.1\r\nHost: s\r\nConnection: close\r\n"
                                   + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, context)
        cookie = next((line.split(":", 1)[1].strip() for line in head.split("\r\n")
                       if line.lower().startswith("set-cookie:")), "")
        session = cookie.split(";")[0]
        fleet = exchange(port, f"GET /telltale/v1/fleet HTTP/1.1\r\nHost: s\r\nCookie: {session}\r\n"
                         "Connection: close\r\n\r\n".encode(), context)
        stream = exchange(port, f"GET /signalk/v1/stream HTTP/1.1\r\nHost: s\r\nCookie: {session}\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n".encode(), context)
        check(up and status == 200 and "Secure" in cookie and fleet[0] == 200 and b'"fleet":true' in fleet[2]
              and stream[0] == 101,
              f"HTTPS on 0.0.0.0 with a certificate the check's CA signed: the login over TLS (its cookie Secure), the "
              f"Fleet layout ({fleet[0]}), the stream's WebSocket upgrade ({stream[0]})",
              open(os.path.join(work, "https.log")).read()[-400:])
        plain = b""
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(f"GET /telltale/v1/fleet HTTP/1.1\r\nHost: s\r\nCookie: {session}\r\n\r\n".encode())
            try:
                while chunk := s.recv(65536):
                    plain += chunk
            except OSError:
                pass
        alive = shore.poll() is None
        again = exchange(port, b"GET /login.html HTTP/1.1\r\nHost: s\r\nConnection: close\r\n\r\n", context)[0]
        check(b"HTTP/1.1" not in plain and b"fleet" not in plain and alive and again == 200,
              f"plain HTTP on the HTTPS port with the stolen cookie: no answer but TLS's ({len(plain)} bytes, no HTTP); "
              "the shore serves on", plain[:120])
    finally:
        stop(shore)
    wrong = subprocess.run([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{broker}", "--listen",
                            f"127.0.0.1:{free_port()}", "--store", store, "--tls-cert", files["shore.crt"],
                            "--tls-key", files["other.key"], "--duration", "5"], capture_output=True, text=True,
                           timeout=30)
    clear = subprocess.run([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{broker}", "--listen",
                            f"0.0.0.0:{free_port()}", "--store", store, "--duration", "5"], capture_output=True,
                           text=True, timeout=30)
    check(wrong.returncode != 0 and "not the certificate's key" in wrong.stderr
          and clear.returncode == 64 and "in the clear" in clear.stderr,
          "refused at start: a key that is not the certificate's; plain HTTP on 0.0.0.0 without --insecure-http",
          wrong.stderr[-200:] + clear.stderr[-200:])
