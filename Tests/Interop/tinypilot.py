"""A pypilot on the boat's Wi-Fi as a TinyPilot shows itself: published by python-zeroconf exactly as pypilot's own
`zeroconf_service.py` publishes it (`_pypilot._tcp.local.`, instance `pypilot-<interface>`, server
`pypilot-<interface>.local.`, IPv4 only, bound to the interface's address, TXT `version`), and its TCP protocol on
port 23322 served by autopilot_bus.PypilotServer (pypilot itself is on neither PyPI nor Debian). Runs until killed.

    tinypilot.py ADDRESS INTERFACE
"""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from zeroconf import IPVersion, ServiceInfo, Zeroconf  # noqa: E402

from autopilot_pypilot import PypilotServer  # noqa: E402

address, interface = sys.argv[1:3]
server = PypilotServer(address, 23322)
server.start()
info = ServiceInfo("_pypilot._tcp.local.", f"pypilot-{interface}._pypilot._tcp.local.",
                   addresses=[socket.inet_aton(address)], port=23322, properties={"version": "0.60"},
                   server=f"pypilot-{interface}.local.")
zeroconf = Zeroconf(ip_version=IPVersion.V4Only, interfaces=[address])
zeroconf.register_service(info)
print("published", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
try:
    while True:
        time.sleep(1)
finally:
    zeroconf.unregister_all_services()
    zeroconf.close()
