"""The Course API as the crew's apps use it (signalk_apps_check.py, section 3): src/api/course/index.ts and
docs/develop/rest-api/course_api.md, every answer checked against the API's schemas."""
import json
import time

import websocket


def course_api(COURSE, check, request, valid, web):
    """3. The Course API, checked against its schemas."""
    # 3. The Course API (src/api/course/index.ts; docs/develop/rest-api/course_api.md), checked against its schemas.
    status, _, body = request("GET", "/signalk/v2/features")
    check("GET /signalk/v2/features lists the course API", status == 200 and "course" in json.loads(body)["apis"], body)
    status, _, body = request("GET", COURSE)
    course = json.loads(body) if status == 200 else {}
    ok, why = valid("CourseInfo", course)
    check("GET course: the demo route, valid CourseInfo", status == 200 and ok and course.get("activeRoute"), why or body)
    route_href = (course.get("activeRoute") or {}).get("href")
    time.sleep(1)
    status, _, body = request("GET", COURSE + "/calcValues")
    calc = json.loads(body) if status == 200 else {}
    ok, why = valid("CourseCalculations", calc)
    check("GET course/calcValues: valid CourseCalculations with distance, bearing and XTE",
          ok and {"distance", "bearingTrue", "crossTrackError"} <= calc.keys(), why or body)
    ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=self", timeout=5)
    ws.recv()
    paths = set()
    for _ in range(40):
        paths |= {v["path"] for u in json.loads(ws.recv()).get("updates", []) for v in u.get("values", [])}
    ws.close()
    wanted = {"navigation.course.nextPoint", "navigation.course.calcValues.bearingTrue",
              "navigation.course.calcValues.crossTrackError", "navigation.course.calcValues.distance",
              "navigation.course.calcValues.timeToGo"}
    check("the stream carries the paths KIP's widgets read (navigation.course.calcValues.*)", wanted <= paths,
          sorted(wanted - paths))
    status, _, body = request("PUT", COURSE + "/destination", {"position": {"latitude": 50.70, "longitude": -1.10}})
    check("PUT destination: a position", status == 200, body)
    time.sleep(1.2)
    status, _, body = request("GET", COURSE)
    course = json.loads(body)
    ok, why = valid("CourseInfo", course)
    point = (course.get("nextPoint") or {})
    check("GET course: the destination as a Location, no route, previous point the vessel's position",
          ok and point.get("type") == "Location" and point["position"] == {"latitude": 50.7, "longitude": -1.1}
          and course.get("activeRoute") is None and (course.get("previousPoint") or {}).get("type") == "VesselPosition",
          why or body)
    status, _, body = request("PUT", COURSE + "/destination", {"position": {"latitude": 95, "longitude": 0}})
    check("PUT destination beyond the pole: 400", status == 400, body)
    status, _, body = request("DELETE", COURSE)
    time.sleep(1.2)
    status2, _, body2 = request("GET", COURSE)
    check("DELETE course: cleared", status == 200 and json.loads(body2).get("nextPoint") is None, body + body2)
    status, _, body = request("PUT", COURSE + "/activeRoute", {"href": route_href})
    time.sleep(1.2)
    _, _, after = request("GET", COURSE)
    check("PUT activeRoute with the route's href follows the route again from its start",
          status == 200 and (json.loads(after).get("activeRoute") or {}).get("href") == route_href
          and json.loads(after)["activeRoute"]["pointIndex"] == 1, body + after)
    status, _, body = request("PUT", COURSE + "/activeRoute", {"href": "/resources/routes/elsewhere"})
    check("PUT activeRoute with an href that is not a resource's: 400", status == 400, body)
    status, _, body = request("PUT", COURSE + "/activeRoute",
                              {"href": "/resources/routes/00000000-0000-4000-8000-000000000000"})
    check("PUT activeRoute with the href of no route kept: 404", status == 404, body)


    def course_after(method, action, body=None):
        status, _, answer = request(method, COURSE + action, body)
        time.sleep(1.2)
        _, _, after = request("GET", COURSE)
        info = json.loads(after)
        ok, why = valid("CourseInfo", info)
        return status, answer, info, ok, why


    status, answer, info, ok, why = course_after("PUT", "/activeRoute/pointIndex", {"value": 2})
    total = (info.get("activeRoute") or {}).get("pointTotal", 0)
    check("PUT activeRoute/pointIndex 2: the next point is the route's third, valid CourseInfo (course/index.ts)",
          status == 200 and ok and info["activeRoute"]["pointIndex"] == 2
          and (info.get("previousPoint") or {}).get("type") == "RoutePoint", why or answer + json.dumps(info)[:300])
    status, answer, info, ok, why = course_after("PUT", "/activeRoute/nextPoint", {"value": -1})
    check("PUT activeRoute/nextPoint -1: back to point 1", status == 200 and ok and info["activeRoute"]["pointIndex"] == 1,
          why or answer)
    status, answer, info, ok, why = course_after("PUT", "/restart")
    check("PUT restart: the leg from where the boat is (previousPoint a VesselPosition), XTE from there (course/index.ts)",
          status == 200 and ok and (info.get("previousPoint") or {}).get("type") == "VesselPosition", why or answer)
    _, _, calc = request("GET", COURSE + "/calcValues")
    check("and the cross-track error after a restart is near zero",
          abs(json.loads(calc).get("crossTrackError", 99)) < 30, calc[:300])
    status, answer, info, ok, why = course_after("PUT", "/activeRoute/reverse")
    check("PUT activeRoute/reverse: backwards to the point last passed, reverse true, the index from the far end",
          status == 200 and ok and info["activeRoute"]["reverse"] is True
          and info["activeRoute"]["pointIndex"] == total - 1, why or answer + json.dumps(info)[:300])
    request("PUT", COURSE + "/activeRoute/reverse")
    status, answer, info, ok, why = course_after("PUT", "/arrivalCircle", {"value": 150})
    check("PUT arrivalCircle 150: the course says 150 m (course/index.ts)", status == 200 and ok
          and info.get("arrivalCircle") == 150, why or answer)
    status, _, answer = request("PUT", COURSE + "/arrivalCircle", {"value": -3})
    check("PUT arrivalCircle -3: 400 (course/index.ts: isValidArrivalCircle)", status == 400, answer)
    request("PUT", COURSE + "/activeRoute", {"href": route_href})
