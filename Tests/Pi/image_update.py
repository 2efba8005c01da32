"""A new image written over the card (image_check.py, stage 5), with a newer telltale package in updates/ on its boot
partition: the data partition (configuration, recordings) is kept, the package is installed at boot, and the Pi
restarts into it."""
import difflib
import os
import re
import subprocess

from emulated_pi import EmulatedPi


def new_image(ROOT, card, check, image, imu_trace, key, package, pi, public, work):
    """A new image over the card and a newer package: data kept, package installed, the Pi restarted into it."""
    # 5. A new image over the card and a newer package on its boot partition: data kept, package installed.
    def newer(deb, suffix):
        """The package again with `suffix` added to its version, as a release after it would be."""
        tree = os.path.join(work, "repack")
        subprocess.run(["rm", "-rf", tree], check=True)
        subprocess.run(["dpkg-deb", "-R", deb, tree], check=True)
        control = os.path.join(tree, "DEBIAN", "control")
        text = re.sub(r"^Version: (.*)$", lambda m: f"Version: {m.group(1)}{suffix}", open(control).read(), flags=re.M)
        open(control, "w").write(text)
        out = os.path.join(work, os.path.basename(deb).replace("_arm64", f"{suffix}_arm64"))
        subprocess.run(["dpkg-deb", "--root-owner-group", "-b", tree, out], check=True, stdout=subprocess.DEVNULL)
        return out


    package = newer(package, "+update1")
    marker = pi.out("echo kept-$RANDOM > /var/lib/telltale/marker; sync; cat /var/lib/telltale/marker")
    configuration_before = pi.out("cat /etc/telltale/telltale.toml")
    pi.shutdown()
    card.reflash(image)
    card.put("authorized_keys", public)
    # The files the configuration names on the boot partition, put back by the sailor with the key (else the gateway
    # would run without its route and its IMU).
    card.put("imu.csv", imu_trace)
    card.put("route.gpx", open(os.path.join(ROOT, "Fixtures", "demo-voyage", "route.gpx")).read())
    card.put("updates/" + os.path.basename(package), open(package, "rb").read())
    pi = EmulatedPi(card, work, key=key).boot()
    installed = pi.wait_exit(600)
    check(installed, "the package in updates/ is installed at boot, then the Pi restarts into it",
          pi.console()[-2000:])
    pi.power_cut()
    pi = EmulatedPi(card, work, key=key).boot()
    check(pi.wait_ready(), "the Pi boots after the update", pi.console()[-2000:])
    version = pi.out("dpkg-query -W -f '${Version}' telltale")
    expected = subprocess.run(["dpkg-deb", "-f", package, "Version"], capture_output=True, text=True).stdout.strip()
    check(version == expected and pi.out("systemctl is-active telltale") == "active",
          f"the new package is installed in the read-only root and its gateway runs ({version})")
    marker_after = pi.out("cat /var/lib/telltale/marker")
    configuration_after = pi.out("cat /etc/telltale/telltale.toml")
    changed = [line for line in difflib.unified_diff(configuration_before.splitlines(), configuration_after.splitlines(),
                                                     "before", "after", lineterm="", n=0)]
    kept = marker_after == marker and not changed
    # What differed, asked of the Pi only when something did.
    why = "" if kept else (f"marker {marker!r} then {marker_after!r}; configuration: " + "\n".join(changed[:20]) + "\n"
                           + pi.out("journalctl -b -u telltale-data --no-pager | tail -n 20; "
                                    "ls -la /var/lib/telltale /etc/telltale; findmnt /var/lib/telltale /etc/telltale"))
    check(kept, "the data partition was kept through the new image: state and configuration as they were", why)
    check("installed" in card.list("updates") or any(n.endswith(".deb") for n in card.list("updates/installed")),
          "the package was moved to updates/installed on the boot partition", str(card.list("updates")))
    return pi
