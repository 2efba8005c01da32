"""The stored tracks (fleet_store_check.py, section 4): PostGIS's distance along each gateway's track (a query with no
Telltale code) against GeographicLib's along the fixes in the gateway's own record; the web side's list of boats and
a boat's track as GPX, read by gpxpy point for point as the store holds it."""
import calendar
import json
import os
import time

import gpxpy
from geographiclib.geodesic import Geodesic


def fixes(folder):
    out = []
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".nmea"):
            continue
        for line in open(os.path.join(folder, file), errors="replace"):
            body = line.strip().split("\\")[-1]
            f = body.split(",")
            if not f[0].endswith("RMC") or len(f) < 10 or f[2] != "A":
                continue
            hh, mm, ss = int(f[1][0:2]), int(f[1][2:4]), float(f[1][4:])
            day, month, year = int(f[9][0:2]), int(f[9][2:4]), 2000 + int(f[9][4:6])
            t = calendar.timegm((year, month, day, hh, mm, 0)) + ss
            lat = int(f[3][:2]) + float(f[3][2:]) / 60
            lat = -lat if f[4] == "S" else lat
            lon = int(f[5][:3]) + float(f[5][3:]) / 60
            lon = -lon if f[6] == "W" else lon
            out.append((t, lat, lon))
    return out


def against_record(check, names, sql, work):
    """Each gateway's stored track, measured by PostGIS, against its own record."""
    for name in names:
        stored_points = [(float(t), float(lat), float(lon)) for t, lat, lon in sql(
            f"SELECT extract(epoch from time), ST_Y(position::geometry), ST_X(position::geometry) FROM fleet_positions "
            f"WHERE boat = '{name}' ORDER BY time")]
        postgis = sql(f"SELECT sum(d) FROM (SELECT ST_Distance(position, lag(position) OVER (ORDER BY time)) AS d "
                      f"FROM fleet_positions WHERE boat = '{name}') AS legs")[0][0]
        # The gateway's own record: its fixes at the times of the stored points (the uplink samples a fix a second).
        recorded = {round(t, 2): (t, lat, lon) for t, lat, lon in fixes(os.path.join(work, name, "record"))}
        own = [recorded.get(round(t, 2)) for t, _, _ in stored_points]
        matched = [p for p in own if p]
        same = all(p and abs(p[1] - q[1]) < 1e-6 and abs(p[2] - q[2]) < 1e-6 for p, q in zip(own, stored_points))
        geodesic = sum(Geodesic.WGS84.Inverse(a[1], a[2], b[1], b[2])["s12"] for a, b in zip(matched, matched[1:]))
        store_m = float(postgis or 0)
        check(geodesic > 100 and same and abs(store_m - geodesic) <= 0.001 * geodesic,
              f"{name}: PostGIS distance along the stored track {store_m:.1f} m, GeographicLib along the same fixes in the "
              f"gateway's own record {geodesic:.1f} m: within 0.1 % ({len(stored_points)} points, each a recorded fix)",
              f"{len(matched)} of {len(stored_points)} matched")


def served_tracks(check, get, names, sql):
    """The web side, reading only the store: every boat listed, a track as GPX, positions in day partitions."""
    fleet = {}
    for _ in range(10):
        fleet = json.loads(get("/telltale/v1/fleet"))
        if len(fleet.get("boats", [])) >= 302:
            break
        time.sleep(1)
    check(fleet.get("fleet") is True and len(fleet.get("boats", [])) >= 302,
          f"the web side, reading only the store, lists every boat ({len(fleet.get('boats', []))})")
    gpx = gpxpy.parse(get(f"/telltale/v1/fleet/boats/{names[0]}/track.gpx").decode())
    points = [p for t in gpx.tracks for s in t.segments for p in s.points]
    count = int(sql(f"SELECT count(DISTINCT time) FROM fleet_positions WHERE boat = '{names[0]}'")[0][0])
    check(len(points) == count and count > 20,
          f"{names[0]}'s track as GPX read by gpxpy: {len(points)} points, as the store holds them ({count})")
    partitions = sql("SELECT count(*) FROM pg_inherits JOIN pg_class ON pg_class.oid = inhrelid "
                     "WHERE inhparent = 'fleet_positions'::regclass")[0][0]
    check(int(partitions) >= 2,
          f"positions in day partitions ({partitions}: the demo voyage's day and today's), dropped whole when a race is "
          "old")
