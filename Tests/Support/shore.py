"""The shore's real parts for the fleet's check and benchmark: Debian's PostgreSQL 15 (with PostGIS) started in a
folder of its own as nobody, and mosquitto brokers with persistence. Both run as users of their own, so their folders
are under /tmp, which every user may cross (the caller's folder may sit where only root may); `remove()` takes them
away."""
import os
import shutil
import subprocess
import tempfile

PG_BIN = "/usr/lib/postgresql/15/bin"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


class Postgres:
    """initdb, pg_ctl start and createdb of `database` (user `telltale`, trust), on `port` and a socket in its folder."""

    def __init__(self, port, database="fleet", settings=""):
        self.port = port
        self.database = database
        self.folder = tempfile.mkdtemp(prefix="telltale-pg-", dir="/tmp")
        os.chmod(self.folder, 0o755)
        shutil.chown(self.folder, "nobody", "nogroup")
        self.data = os.path.join(self.folder, "data")
        self.made = subprocess.run(NOBODY + [f"{PG_BIN}/initdb", "-D", self.data, "-U", "telltale", "--auth=trust",
                                             "-E", "UTF8", "--no-locale"], capture_output=True, text=True)
        self.settings = settings
        if self.made.returncode == 0:
            self.start()
        self.created = subprocess.run(NOBODY + [f"{PG_BIN}/createdb", "-h", self.folder, "-p", str(port), "-U",
                                                "telltale", database], capture_output=True, text=True)
        self.url = f"postgres://telltale@127.0.0.1:{port}/{database}"

    def start(self):
        return subprocess.run(NOBODY + ["env", f"HOME={self.folder}", f"{PG_BIN}/pg_ctl", "-D", self.data, "-l",
                                        os.path.join(self.folder, "log"), "-w", "-o",
                                        f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                                        f"{self.settings}", "start"], capture_output=True).returncode == 0

    def stop(self, mode="immediate"):
        """pg_ctl stop: `immediate` is as a crash (no checkpoint; the log replayed at the next start)."""
        return subprocess.run(NOBODY + [f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", mode, "-w", "stop"],
                              capture_output=True).returncode == 0

    @property
    def ok(self):
        return self.made.returncode == 0 and self.created.returncode == 0

    @property
    def errors(self):
        return self.made.stderr[-300:] + self.created.stderr[-300:]

    def sql(self, query, database=None):
        """psql, not Telltale: rows as lists of text; an error raises."""
        out = subprocess.run(["psql", "-h", self.folder, "-p", str(self.port), "-U", "telltale", "-d",
                              database or self.database, "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", query],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
        return [line.split("\t") for line in out.stdout.splitlines() if line]

    def remove(self):
        if os.path.isdir(self.data):
            subprocess.run(NOBODY + [f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "immediate", "stop"],
                           capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def mosquitto(port, work, log=None):
    """A mosquitto on 127.0.0.1:`port` with persistence (the folder the mosquitto user writes, the same on a restart:
    call again with the same port) and room for a worker's restart (100,000 queued messages). Returns the process and
    the persistence folder (for the caller to remove)."""
    keep = os.path.join("/tmp", f"telltale-mq-{os.getpid()}-{port}")
    os.makedirs(keep, mode=0o755, exist_ok=True)
    try:
        shutil.chown(keep, "mosquitto")
    except (LookupError, OSError):
        pass
    conf = os.path.join(work, f"mosquitto-{port}.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location {keep}/\n"
                "max_queued_messages 100000\nmax_inflight_messages 100\n")
    process = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL,
                               stderr=open(log, "a") if log else subprocess.DEVNULL)
    return process, keep
