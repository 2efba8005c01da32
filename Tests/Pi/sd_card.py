"""The SD card the emulated Pi boots (emulated_pi.py re-exports it): a sparse file holding the image, grown to the
card's size, its boot partition read and written as a sailor's laptop would."""
import os
import subprocess
import tempfile

MIB = 1024 * 1024
BOOT_OFFSET = 4 * MIB
CARD_BYTES = 4 * 1024 * MIB


class Card:
    """The SD card: a sparse file holding the image, grown to the card's size."""

    def __init__(self, path):
        self.path = path

    @classmethod
    def from_image(cls, image, work, size=CARD_BYTES):
        path = os.path.join(work, "card.img")
        subprocess.run(["cp", "--sparse=always", image, path], check=True)
        os.truncate(path, size)
        return cls(path)

    def reflash(self, image):
        """A new image written over the card (dd): its partitions over the old ones, the rest of the card as it was."""
        subprocess.run(["dd", f"if={image}", f"of={self.path}", "conv=notrunc,sparse", "bs=4M", "status=none"],
                       check=True)

    def put(self, name, data):
        """A file onto the boot partition (FAT, through mtools), as a laptop writes it."""
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        try:
            folder = os.path.dirname(name)
            if folder:
                subprocess.run(["mmd", "-i", f"{self.path}@@{BOOT_OFFSET}", "::" + folder],
                               stderr=subprocess.DEVNULL)
            subprocess.run(["mcopy", "-o", "-i", f"{self.path}@@{BOOT_OFFSET}", f.name, "::" + name], check=True)
        finally:
            os.unlink(f.name)

    def get(self, name):
        """A file from the boot partition, or None."""
        result = subprocess.run(["mtype", "-i", f"{self.path}@@{BOOT_OFFSET}", "::" + name], capture_output=True)
        return result.stdout if result.returncode == 0 else None

    def list(self, folder=""):
        result = subprocess.run(["mdir", "-b", "-i", f"{self.path}@@{BOOT_OFFSET}", "::" + folder],
                                capture_output=True, text=True)
        return [os.path.basename(line.rstrip("/")) for line in result.stdout.split()] if result.returncode == 0 else []

    def copy(self, name):
        """A copy of the card as it is now (a sparse file beside it), for a boot that must not change this one."""
        path = os.path.join(os.path.dirname(self.path), name)
        subprocess.run(["cp", "--sparse=always", self.path, path], check=True)
        return Card(path)

    def split_boot(self, name):
        """The boot partition taken off the card into a drive of its own (`name`, an MBR with the same disk signature
        and the FAT as its first partition at the same place), and its entry deleted from the card's table: booted,
        the card has no boot partition until that drive is plugged in. Returns the drive, as a Card."""
        path = os.path.join(os.path.dirname(self.path), name)
        start, size = self.partitions()[0]
        subprocess.run(["dd", f"if={self.path}", f"of={path}", "bs=1M", f"count={(start + size) // MIB}",
                        "conv=sparse", "status=none"], check=True)
        subprocess.run(["sfdisk", "--quiet", "--delete", path, "2"], check=False, capture_output=True)
        subprocess.run(["sfdisk", "--quiet", "--delete", path, "3"], check=False, capture_output=True)
        subprocess.run(["sfdisk", "--quiet", "--delete", self.path, "1"], check=True, capture_output=True)
        return Card(path)

    def put_data(self, name, data):
        """A file onto the data partition (ext4, the card's third: taken out, written through debugfs, put back), as
        the Pi would have left it, world-readable; `name` from the partition's root (etc/telltale/telltale.toml)."""
        start, size = self.partitions()[2]
        part = self.path + ".data"
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        os.chmod(f.name, 0o644)
        try:
            subprocess.run(["dd", f"if={self.path}", f"of={part}", "bs=4M", f"skip={start}", f"count={size}",
                            "iflag=skip_bytes,count_bytes", "conv=sparse", "status=none"], check=True)
            subprocess.run(["debugfs", "-w", "-R", f"rm /{name}", part], capture_output=True)
            written = subprocess.run(["debugfs", "-w", "-R", f"write {f.name} /{name}", part], capture_output=True,
                                     text=True)
            if "Allocated inode" not in written.stdout + written.stderr:
                raise RuntimeError(f"debugfs could not write /{name}: {written.stderr.strip()[-300:]}")
            subprocess.run(["dd", f"if={part}", f"of={self.path}", "bs=4M", f"seek={start}", "oflag=seek_bytes",
                            "conv=notrunc,sparse", "status=none"], check=True)
        finally:
            os.unlink(f.name)
            if os.path.exists(part):
                os.unlink(part)

    def break_boot_sector(self):
        """The FAT's first sector zeroed: the firmware (here, QEMU given the kernel) still boots, Linux cannot mount
        the partition (as after a power cut while something was written to it)."""
        start, _ = self.partitions()[0]
        with open(self.path, "r+b") as f:
            f.seek(start)
            f.write(bytes(512))

    def partitions(self):
        """(start, size) in bytes of each partition in the card's table."""
        out = subprocess.run(["sfdisk", "-J", self.path], capture_output=True, text=True).stdout
        import json
        table = json.loads(out)["partitiontable"]
        return [(p["start"] * 512, p["size"] * 512) for p in table["partitions"]]
