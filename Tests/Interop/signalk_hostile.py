"""The Signal K server's hostile clients (signalk_check.py): malformed HTTP, headers and bodies over the limits, a
WebSocket frame that says it is 100 MB, 10,000 subscriptions in a second, 200 clients that vanish, a stream client
that never reads (dropped once its queue is full)."""
import json
import socket
import time

import websocket

from webclient import HTTP


def frame_of(message):
    payload = json.dumps(message).encode()
    mask = b"\x11\x22\x33\x44"
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw(web, data, read=True, timeout=3):
    return HTTP(web).raw(data, read=read, timeout=timeout)


def server_side_state(web, client_port):
    """The TCP state of the gateway's end of a connection (the kernel's table: 01 is established), or None."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if (int(fields[1].rsplit(":", 1)[1], 16) == web
                        and int(fields[2].rsplit(":", 1)[1], 16) == client_port):
                    return fields[3]
    return None


def hostile_clients(web, check, alive):
    """Every bad client in turn, the gateway alive after each."""
    check("malformed HTTP: 400", raw(web, b"HELLO THERE\r\n\r\n").startswith(b"HTTP/1.1 400"))
    check("a request line without a version: 400", raw(web, b"GET /\r\n\r\n").startswith(b"HTTP/1.1 400"))
    check("64 KB of headers: 431", raw(web, b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n").startswith(b"HTTP/1.1 431"))
    check("a body over the limit: 413",
          raw(web, b"PUT /signalk/v1/api/vessels/self/x HTTP/1.1\r\nContent-Length: 10000000\r\n\r\n").startswith(b"HTTP/1.1 413"))

    # A WebSocket frame that says it is 100 MB: refused from its header (close 1009), nothing buffered.
    handshake = (b"GET /signalk/v1/stream?subscribe=none HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    answer = raw(web, handshake + bytes([0x81, 0xFF]) + (100_000_000).to_bytes(8, "big") + b"\x01\x02\x03\x04" + b"x" * 100000)
    check("the handshake's accept key is RFC 6455's example", b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" in answer)
    check("a 100 MB frame: close 1009", b"\x88\x02\x03\xf1" in answer)

    # 10,000 subscribe messages in a second on one connection.
    ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none", timeout=5)
    ws.recv()
    start = time.monotonic()
    sent = 0
    try:
        for i in range(10000):
            ws.send(json.dumps({"context": "vessels.self", "subscribe": [{"path": f"navigation.x{i % 100}", "period": 1000}]}))
            sent += 1
    except (OSError, websocket.WebSocketException):
        pass
    ws.close()
    check(f"{sent} subscribe messages in {time.monotonic() - start:.2f} s: the gateway stays up", alive())

    # 200 clients that connect and vanish (some mid-handshake).
    for i in range(200):
        try:
            s = socket.create_connection(("127.0.0.1", web), timeout=2)
            if i % 2:
                s.sendall(handshake[: 40 + i % 60])
            s.close()
        except OSError:
            pass
    check("200 clients that vanish: the gateway stays up", alive())

    # A stream client that never reads: dropped once its queue is full, memory bounded.
    lazy = socket.create_connection(("127.0.0.1", web))
    lazy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    lazy.sendall(handshake.replace(b"subscribe=none", b"subscribe=self"))
    # Every value every tick: its queue passes client_buffer within seconds. It never reads a byte.
    lazy.sendall(frame_of({"subscribe": [{"path": "*", "period": 10, "policy": "fixed"}]}))
    lazy_port = lazy.getsockname()[1]


    # The gateway closing its end is seen in its state there (the client's own end would see the close only after
    # reading everything queued before it).
    seen_open = server_side_state(web, lazy_port) == "01"
    dropped = False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not dropped:
        time.sleep(0.5)
        dropped = server_side_state(web, lazy_port) != "01"
    check("a stream client that does not read is dropped once its queue is full", seen_open and dropped,
          f"open at first: {seen_open}")
    lazy.close()
