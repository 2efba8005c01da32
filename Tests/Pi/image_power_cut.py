"""Power cut (image_check.py, stage 4) while the gateway records, while a configuration is being saved from the
settings page, and while the fleet uplink queues on the data partition with its link to the shore cut: the next boot
is clean, the configuration is the old or the new one whole, the recording readable to its last seconds, the
approved laptop still approved; then the link back, and the batches queued before the cut reach the shore, late,
with no number missing."""
import hashlib
import json
import math
import time
import urllib.request

from emulated_pi import EmulatedPi
from image_support import history_minutes, http
from support import stop, wait_for


def power_cut(ADAPTER_SERIAL, BOOT_LIMIT, broker, card, check, feed, fleet, key, link, pi, shore_boat, token, work):
    """The power cut mid-write, the next boot, then the link to the shore mended."""
    # 4. Power cut while recording, while a configuration is saved from the settings page, while the uplink queues on the
    # data partition and the history is kept (a minute of it on the card first): the link to the shore is cut first.
    history_from = time.time()
    history_to = None

    def written():
        """The history's minutes already written (before the minute under way, which a cut may lose)."""
        nonlocal history_to
        history_to = math.floor(time.time() / 60) * 60 - 2
        return history_minutes(pi, history_from - 60, history_to)

    wait_for(written, 150, step=5)
    kept_before = written()
    before_cut = shore_boat().get("lastBatch", 0)
    link.cut()
    time.sleep(12)
    old = pi.out("cat /etc/telltale/telltale.toml") + "\n"
    new = old.replace("over_heel = 25", "over_heel = 27")
    request = urllib.request.Request(f"http://127.0.0.1:{pi.web}/telltale/v1/settings/configuration",
                                     data=new.encode(), method="PUT", headers={"Authorization": f"Bearer {token}"})
    try:
        urllib.request.urlopen(request, timeout=0.3)
    except OSError:
        pass
    cut = time.time()
    pi.power_cut()
    feed.stop()
    pi = EmulatedPi(card, work, key=key).boot(usb_serials=[("adapter", ADAPTER_SERIAL)])
    check(pi.wait_ready(), "after the power cut the Pi boots again by itself", pi.console()[-2000:])
    check(pi.out("systemctl is-system-running --wait", timeout=120) == "running",
          "the boot after the power cut is clean (no unit failed, no check waiting for a keyboard)",
          pi.out("systemctl --failed --no-legend"))
    saved = pi.out("cat /etc/telltale/telltale.toml") + "\n"
    check(saved in (old, new), "the configuration is the old one or the new one, whole",
          f"{hashlib.sha1(saved.encode()).hexdigest()} vs old/new")
    check(pi.ssh("telltale check-config /etc/telltale/telltale.toml")[0] == 0, "and it passes check-config")
    served = wait_for(lambda: http(pi, "/signalk", timeout=5)[0] == 200, BOOT_LIMIT)
    status, body = http(pi, "/telltale/v1/access/self", token=token)
    check(served and status == 200 and '"by":"device"' in body and '"admin":true' in body,
          "the laptop approved before the power cut is still approved (its token kept on the data partition)", body[:300])
    radius = wait_for(lambda: '"value":55' in http(pi, "/signalk/v1/api/vessels/self/navigation/anchor/maxRadius")[1], 30)
    where = http(pi, "/signalk/v1/api/vessels/self/navigation/anchor/position")[1]
    check(radius and '"latitude":50.7712345' in where and '"longitude":-1.3054321' in where,
          "the anchor watch is armed again after the power cut: the same anchor, the same circle (anchor.toml)", where[:300])
    after = history_minutes(pi, history_from - 60, history_to)
    check(kept_before and all(after.get(minute) == value for minute, value in kept_before.items())
          and all(0 < v < 10 for v in after.values()),
          f"the history kept before the power cut is all there after it ({len(kept_before)} minute(s) before the cut were "
          f"on the card; {len(after)} read back, the same boat speed in each)",
          f"{kept_before} / {after} " + pi.out("journalctl -u telltale -b --no-pager | grep history | tail -n 5"))
    status, _ = http(pi, "/signalk/v2/api/history/paths?duration=PT1H")
    check(status == 200, "and the store opened and answers (a torn minute zeroed, never read)")
    # The newest recording with sentences in it (this boot's has the IMU's samples beside an empty log so far).
    recordings = pi.out("for f in $(ls -t /var/log/telltale/*.nmea); do [ -s $f ] && echo $f && break; done")
    replayed = pi.out(f"telltale inspect --json {recordings}")
    try:
        report = json.loads(replayed)
    except ValueError:
        report = {}
    # The last tag anywhere in the file: after a cut the file may end in zeros (ext4 had its new size on the card before
    # the data), which the reader counts as one reject and survives.
    last_time = pi.out(f"grep -a -o 'c:[0-9]*' {recordings} | tail -n 1 | cut -c3-")
    lost = cut - int(last_time) / 1000 if last_time.isdigit() else 9999
    check(report.get("sentences", 0) > 100 and lost < 15,
          f"the recording reads back ({report.get('sentences', 0)} sentences), its last {lost:.1f} s before the cut",
          replayed[:300])

    check.stage("the link back")
    # The link back: the batches queued before the cut come ashore, late, numbered on with none missing.
    link.up()
    caught_up = wait_for(lambda: shore_boat().get("lastBatch", 0) >= before_cut + 5 and shore_boat().get("late", 0) > 0,
                         120, step=2)
    boat = shore_boat()
    check(caught_up and boat.get("missingBatches") == 0,
          f"the uplink's queue survived the power cut: batches {before_cut + 1}..{boat.get('lastBatch')} queued with the "
          f"link cut came ashore after the reboot, {boat.get('late')} samples late, {boat.get('missingBatches')} "
          "numbers missing", json.dumps(boat)[:300] + pi.out("journalctl -u telltale -b --no-pager | grep uplink | tail -n 5"))
    link.cut()
    stop(broker)
    stop(fleet)
    return pi
