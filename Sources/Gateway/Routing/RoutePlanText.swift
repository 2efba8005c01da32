import Marine
import SignalK

/// A route plan as the crew reads it, as JSON, and as GPX; a failure in words.
enum RoutePlanText {
    static func words(_ failure: RouteFailure) -> String {
        func place(_ point: GeoPoint) -> String {
            FixedDecimal.text(point.latitude, decimals: 4) + "," + FixedDecimal.text(point.longitude, decimals: 4)
        }
        switch failure {
        case .startOnLand: return "the start is on land or within the margin of a coast"
        case .destinationOnLand: return "the destination is on land or within the margin of a coast"
        case .noForecast(let point, let time):
            return "no forecast covers \(place(point)) at \(SignalKTime.text(unixTime: time)): the passage runs past "
                + "the forecast's end or out of its area"
        case .unreachable(let time):
            return
                "no way on after \(SignalKTime.text(unixTime: time)): land, the limits set or no wind close every way"
        case .tooLong: return "the destination is out of reach within the longest passage searched (14 days)"
        }
    }

    static func hours(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        let rest = minutes % 60
        return "\(minutes / 60)h" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    static func text(_ plan: RoutePlan) -> String {
        var lines = [
            "departure \(SignalKTime.text(unixTime: plan.departure)), arrival \(SignalKTime.text(unixTime: plan.arrival)): "
                + "\(hours(plan.duration)) for \(FixedDecimal.text(plan.distance / 1852, decimals: 1)) NM",
            "upwind \(hours(plan.upwind)), reaching \(hours(plan.reaching)), downwind \(hours(plan.downwind))"
                + (plan.motoring > 0 ? ", under engine \(hours(plan.motoring))" : "")
                + "; \(plan.tacks) tacks, \(plan.gybes) gybes; wind at most "
                + FixedDecimal.text(Units.knots(metresPerSecond: plan.maximumWind), decimals: 1) + " kn"
                + (plan.maximumGust > 0
                    ? ", gusts " + FixedDecimal.text(Units.knots(metresPerSecond: plan.maximumGust), decimals: 1)
                        + " kn"
                    : ""),
        ]
        for point in plan.waypoints {
            var line =
                SignalKTime.text(unixTime: point.time) + "  "
                + FixedDecimal.text(point.point.latitude, decimals: 5) + ","
                + FixedDecimal.text(point.point.longitude, decimals: 5)
            if point.speed > 0 {
                line +=
                    "  heading \(Int(point.heading.rounded()) % 360)°, TWA \(Int(point.windAngle.rounded()))°, "
                    + FixedDecimal.text(point.speed, decimals: 1) + " kn" + (point.motoring ? " under engine" : "")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plan as JSON; `full` false: its times and waypoints only (what the gateway keeps of a plan it follows).
    static func json(_ plan: RoutePlan, full: Bool = true) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("departure", SignalKTime.text(unixTime: plan.departure))
        out.value("eta", SignalKTime.text(unixTime: plan.arrival))
        out.value("duration_s", (plan.duration * 10).rounded() / 10)
        out.value("distance_nm", (plan.distance / 1852 * 1000).rounded() / 1000)
        out.beginArray("waypoints")
        for point in plan.waypoints {
            out.beginObject()
            out.value("lat", (point.point.latitude * 1e7).rounded() / 1e7)
            out.value("lon", (point.point.longitude * 1e7).rounded() / 1e7)
            out.value("time", SignalKTime.text(unixTime: point.time))
            if point.speed > 0 {
                out.value("heading", (point.heading * 10).rounded() / 10)
                out.value("twa", (point.windAngle * 10).rounded() / 10)
                out.value("tws_kn", (Units.knots(metresPerSecond: point.windSpeed) * 100).rounded() / 100)
                out.value("speed_kn", (point.speed * 100).rounded() / 100)
                out.value("sog_kn", (point.groundSpeed * 100).rounded() / 100)
                out.value("motoring", point.motoring)
            }
            out.endObject()
        }
        out.endArray()
        if full {
            summary(plan, into: &out)
            isochrones(plan, into: &out)
        }
        out.endObject()
        return out.text
    }

    static func summary(_ plan: RoutePlan, into out: inout JSONWriter) {
        out.beginObject("summary")
        out.value("upwind_s", plan.upwind.rounded())
        out.value("reaching_s", plan.reaching.rounded())
        out.value("downwind_s", plan.downwind.rounded())
        out.value("motoring_s", plan.motoring.rounded())
        out.value("tacks", plan.tacks)
        out.value("gybes", plan.gybes)
        out.value("max_tws_kn", (Units.knots(metresPerSecond: plan.maximumWind) * 10).rounded() / 10)
        out.value("max_gust_kn", (Units.knots(metresPerSecond: plan.maximumGust) * 10).rounded() / 10)
        out.endObject()
    }

    /// The isochrones, at most 120 points each (every few of a long one), [lat, lon] to 1e-5°.
    static func isochrones(_ plan: RoutePlan, into out: inout JSONWriter) {
        out.beginArray("isochrones")
        for line in plan.isochrones {
            out.beginArray()
            let stride = max(1, line.count / 120)
            for index in Swift.stride(from: 0, to: line.count, by: stride) {
                out.raw(
                    nil,
                    "[" + FixedDecimal.text(line[index].latitude, decimals: 5) + ","
                        + FixedDecimal.text(line[index].longitude, decimals: 5) + "]")
            }
            out.endArray()
        }
        out.endArray()
    }

    static func gpx(_ plan: RoutePlan) -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<gpx version=\"1.1\" creator=\"telltale route plan\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            + "<rte><name>Routed \(SignalKTime.text(unixTime: plan.departure))</name>\n"
        for (index, point) in plan.waypoints.enumerated() {
            let name = index == 0 ? "Start" : index == plan.waypoints.count - 1 ? "Destination" : "WP\(index)"
            text +=
                "<rtept lat=\"" + FixedDecimal.text(point.point.latitude, decimals: 7) + "\" lon=\""
                + FixedDecimal.text(point.point.longitude, decimals: 7) + "\"><time>"
                + SignalKTime.text(unixTime: point.time) + "</time><name>\(name)</name></rtept>\n"
        }
        return text + "</rte>\n</gpx>\n"
    }
}
