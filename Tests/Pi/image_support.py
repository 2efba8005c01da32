"""What the image check's stages share (image_check.py): the instruments the serial adapter plays, the gateway's
HTTP on the emulated Pi, the History API's minutes, the computed true wind in the TCP output, and the boat's link to
the shore that the check can cut."""
import json
import re
import socket
import threading
import time

from support import free_port, sentence
from webclient import HTTP


def instruments(index):
    """What the instruments say ten times a second: apparent wind, speed through water, heading."""
    return [sentence("WIMWV,045.0,R,12.0,N,A"), sentence("VWVHW,,T,,M,6.0,N,11.1,K"),
            sentence("HEHDT,090.0,T")][index % 3]


def instruments_with_fix(index):
    """The instruments, and a GPS fix a second at the anchor on this machine's clock: the history is kept on the fixes'
    time (a boat with neither GPS nor a synchronized clock keeps none)."""
    if index % 10 == 9:
        now = time.gmtime()
        return sentence(f"GPRMC,{time.strftime('%H%M%S', now)}.00,A,5046.2741,N,00118.3259,W,0.0,0.0,"
                        f"{time.strftime('%d%m%y', now)},,,A")
    return instruments(index)


def history_minutes(pi, frm, to):
    """The minutes of boat speed the History API has between two UNIX times: {minute: m/s}."""
    stamp = lambda t: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))  # noqa: E731
    status, body = http(pi, f"/signalk/v2/api/history/values?paths=navigation.speedThroughWater&from={stamp(frm)}"
                            f"&to={stamp(to)}&resolution=60", timeout=10)
    try:
        rows = json.loads(body).get("data", []) if status == 200 else []
    except ValueError:
        rows = []
    return {row[0]: row[1] for row in rows if row[1] is not None}


def http(pi, path, method="GET", body=None, timeout=20, token=None):
    return HTTP(pi.web, timeout=timeout).text(path, method=method, body=body, token=token)


def computed_true_wind(lines):
    return [line for _, line in lines if re.match(r"^\$IIMWV,[^,]*,T,", line)]


class Link:
    """The boat's link to the shore: a TCP relay from the Pi to the laptop's broker that can be cut (its connections
    closed, new ones refused) and mended, while the broker and the fleet's subscription stay up, as when a boat's 4G
    drops. (Stopping the broker instead would drop the fleet's subscription too: what the boat sent back before the
    fleet had subscribed again would never reach it, and the check would be of the shore, not of the boat.)"""

    def __init__(self, target):
        self.target, self.port = target, free_port()
        self.server, self.sockets, self.lock = None, [], threading.Lock()

    def up(self):
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", self.port))
        self.server.listen(8)
        threading.Thread(target=self.accept, args=(self.server,), daemon=True).start()
        return self

    def accept(self, server):
        while True:
            try:
                boat, _ = server.accept()
                shore = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                if server.fileno() < 0 or server is not self.server:
                    return
                continue
            shore.settimeout(None)
            with self.lock:
                self.sockets += [boat, shore]
            for a, b in ((boat, shore), (shore, boat)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    @staticmethod
    def pump(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for end in (a, b):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        # shutdown(2) first: it wakes the thread blocked in accept(2); close(2) alone leaves the port listening.
        try:
            self.server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.server.close()
        with self.lock:
            for end in self.sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
            self.sockets = []
