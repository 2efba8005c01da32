import Marine
import SignalK

/// The departure window: the same passage departing every few hours, each with its time, its time upwind and the
/// strongest wind met, or why it cannot be sailed.
enum RouteWindow {
    struct Row {
        var departure: Double
        var plan: RoutePlan?
        var failure: RouteFailure?
    }

    static func table<Weather: SailingWeather>(
        router: inout IsochroneRouter<Weather>, from: GeoPoint, to: GeoPoint, first: Double, hours: Double,
        every: Double
    ) -> [Row] {
        var rows: [Row] = []
        var departure = first
        while departure <= first + hours * 3600 + 1 {
            do {
                var plan = try router.plan(from: from, to: to, departure: departure)
                plan.isochrones = []
                rows.append(Row(departure: departure, plan: plan))
            } catch {
                rows.append(Row(departure: departure, failure: error))
            }
            departure += every * 3600
        }
        return rows
    }

    static func text(_ rows: [Row]) -> String {
        var lines = ["departure                  arrival                    time    upwind  max wind"]
        for row in rows {
            guard let plan = row.plan else {
                lines.append(SignalKTime.text(unixTime: row.departure) + "  " + RoutePlanText.words(row.failure!))
                continue
            }
            lines.append(
                SignalKTime.text(unixTime: row.departure) + "  " + SignalKTime.text(unixTime: plan.arrival) + "  "
                    + RoutePlanText.hours(plan.duration) + "  " + RoutePlanText.hours(plan.upwind) + "  "
                    + FixedDecimal.text(Units.knots(metresPerSecond: plan.maximumWind), decimals: 1) + " kn")
        }
        if let best = rows.filter({ $0.plan != nil }).min(by: { $0.plan!.duration < $1.plan!.duration }) {
            lines.append(
                "fastest: leave at \(SignalKTime.text(unixTime: best.departure)), "
                    + RoutePlanText.hours(best.plan!.duration) + " on the way")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ rows: [Row]) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginArray("departures")
        for row in rows {
            out.beginObject()
            out.value("departure", SignalKTime.text(unixTime: row.departure))
            if let plan = row.plan {
                out.value("eta", SignalKTime.text(unixTime: plan.arrival))
                out.value("duration_s", plan.duration.rounded())
                out.value("distance_nm", (plan.distance / 1852 * 100).rounded() / 100)
                out.value("upwind_s", plan.upwind.rounded())
                out.value("max_tws_kn", (Units.knots(metresPerSecond: plan.maximumWind) * 10).rounded() / 10)
                out.value("tacks", plan.tacks)
                out.value("gybes", plan.gybes)
            } else if let failure = row.failure {
                out.value("error", RoutePlanText.words(failure))
            }
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }
}
