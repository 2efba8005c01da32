"""A gateway's TCP output read as it comes (support.py re-exports it)."""
import socket
import threading
import time


class OutputReader:
    """The sentences a TCP output sends, read by a thread as they come, each with the monotonic time it arrived.
    It connects when the port answers and, with `reconnect`, again after the gateway went away (a restart).

        output = OutputReader(port)
        ... output.lines() -> [(time, "$IIMWV,...*hh"), ...]
    """

    def __init__(self, port, reconnect=False):
        self.port = port
        self.reconnect = reconnect
        self._lines = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while not self._stop.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            except OSError:
                time.sleep(0.2)
                continue
            sock.settimeout(0.5)
            buffer = b""
            while not self._stop.is_set():
                try:
                    data = sock.recv(65536)
                except socket.timeout:
                    continue
                except OSError:
                    break
                if not data:
                    break
                buffer += data
                *complete, buffer = buffer.split(b"\r\n")
                now = time.monotonic()
                with self._lock:
                    self._lines.extend((now, line.decode("ascii", "replace")) for line in complete)
            sock.close()
            if not self.reconnect:
                return
            time.sleep(0.3)

    def lines(self):
        with self._lock:
            return list(self._lines)

    def texts(self):
        return [text for _, text in self.lines()]

    def __len__(self):
        with self._lock:
            return len(self._lines)

    def stop(self):
        self._stop.set()
