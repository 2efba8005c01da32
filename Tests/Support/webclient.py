"""One HTTP client for the checks and benchmarks: a gateway's (or the shore's) HTTP side on loopback. (`webclient`,
not `http`: that name is the standard library's, which urllib itself imports.)

    http = HTTP(web_port)
    status, body = http.get("/signalk")                      # bytes; (code, body) on an HTTP error, (0, why) on none
    status, value = http.json("/signalk/v1/api/...")           # parsed JSON, or the text when it is not JSON
    status, value = http.put("navigation/anchor/...", 12)     # PUT {"value": 12} under vessels/self/
    status, head, payload = http.request("POST", path, body)  # one raw connection, from any 127/8 address
    answer = http.raw(b"GET / HTTP/1.1\\r\\n\\r\\n")            # bytes written as they are, what came back

Nothing here raises for an answer the server gives: a check judges the status. A refused connection is status 0.
"""
import json
import socket
import urllib.error
import urllib.request


class HTTP:
    def __init__(self, port, host="127.0.0.1", timeout=10):
        self.port = port
        self.host = host
        self.timeout = timeout

    @property
    def base(self):
        return f"http://{self.host}:{self.port}"

    def get(self, path, method="GET", body=None, headers=None, token=None, timeout=None):
        """The status and the body's bytes (urllib: a keep-alive connection, redirects followed)."""
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = "Bearer " + token
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        elif isinstance(body, str):
            body = body.encode()
        call = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(call, timeout=timeout or self.timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError as error:
            return 0, str(error).encode()

    def text(self, path, **options):
        status, body = self.get(path, **options)
        return status, body.decode(errors="replace")

    def json(self, path, **options):
        """The status and the parsed body, or its text when it is not JSON."""
        status, body = self.get(path, **options)
        try:
            return status, json.loads(body)
        except ValueError:
            return status, body.decode(errors="replace")

    def put(self, path, value=None, body=None, **options):
        """PUT `{"value": value}` to `vessels/self/<path>` (a path starting with `/` is taken as it is, with `body`)."""
        if not path.startswith("/"):
            path = "/signalk/v1/api/vessels/self/" + path
            body = {"value": value}
        return self.json(path, method="PUT", body=body if body is not None else {}, **options)

    def post(self, path, body=None, **options):
        return self.json(path, method="POST", body=body if body is not None else b"", **options)

    def request(self, method, path, body=None, raw=None, headers=None, source="127.0.0.1", timeout=5):
        """One request on a connection of its own (`Connection: close`), from `source` (any 127/8 address is this
        machine): the status, the head as text and the payload's bytes. `raw` is sent as the body as it is."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        head = f"{method} {path} HTTP/1.1\r\nHost: boat\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        try:
            s = socket.create_connection((self.host, self.port), timeout=timeout, source_address=(source, 0))
        except OSError:
            return 0, "", b""
        try:
            s.sendall(head.encode() + b"\r\n" + data)
        except OSError:
            pass
        reply = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
        except OSError:
            pass
        s.close()
        head, _, payload = reply.partition(b"\r\n\r\n")
        status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
        return status, head.decode(errors="replace"), payload

    def raw(self, data, read=True, timeout=3):
        """`data` written as it is on a new connection; what came back until the server closed or `timeout`."""
        sock = socket.create_connection((self.host, self.port))
        sock.settimeout(timeout)
        try:
            sock.sendall(data)
        except OSError:
            pass
        answer = b""
        if read:
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            except (socket.timeout, OSError):
                pass
        sock.close()
        return answer
