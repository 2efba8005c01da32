import Marine

/// What the specification says about a path: its unit, a display name, a description, and (for values passed
/// through from an input) how long a reading stays current.
public struct SignalKPathInfo: Sendable {
    public var units: String?
    public var displayName: String
    public var description: String
    /// Seconds without a new reading after which the value is withdrawn (a `null` delta).
    public var timeout: Double
    /// For an object value, each member's unit and description (`navigation.attitude`'s roll, pitch and yaw), as the
    /// specification's meta `properties` carry them.
    public var properties: [(name: String, units: String, description: String)] = []

    /// The `meta` object.
    public func writeMeta(_ key: String?, to json: inout JSONWriter) {
        json.beginObject(key)
        if let units { json.value("units", units) }
        json.value("displayName", displayName)
        json.value("description", description)
        if !properties.isEmpty {
            json.beginObject("properties")
            for property in properties {
                json.beginObject(property.name)
                json.value("type", "number")
                json.value("units", property.units)
                json.value("description", property.description)
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }
}

/// The paths Telltale publishes, with their meta.
public enum SignalKPaths {
    public static func info(_ path: String) -> SignalKPathInfo {
        if let known = table[path] ?? tideTable[path] { return known }
        if path.hasPrefix("notifications.") {
            return SignalKPathInfo(
                units: nil, displayName: "Alarm", description: "An alarm raised by Telltale", timeout: .infinity)
        }
        return SignalKPathInfo(units: nil, displayName: path, description: path, timeout: 10)
    }

    static let table: [String: SignalKPathInfo] = {
        var t: [String: SignalKPathInfo] = [:]
        func add(_ path: String, _ units: String?, _ name: String, _ description: String, _ timeout: Double) {
            t[path] = SignalKPathInfo(units: units, displayName: name, description: description, timeout: timeout)
        }
        add("navigation.position", nil, "Position", "The position of the vessel in 2 or 3 dimensions (WGS 84)", 10)
        add("navigation.courseOverGroundTrue", "rad", "COG", "Course over ground (true)", 10)
        add("navigation.courseOverGroundMagnetic", "rad", "COG (M)", "Course over ground (magnetic)", 10)
        add("navigation.speedOverGround", "m/s", "SOG", "Vessel speed over ground", 10)
        add("navigation.headingTrue", "rad", "Heading", "The current true north heading of the vessel", 5)
        add("navigation.headingMagnetic", "rad", "Heading (M)", "Current magnetic heading of the vessel", 5)
        add(
            "navigation.magneticVariation", "rad", "Variation", "The magnetic variation (declination), east positive",
            3600)
        add("navigation.magneticDeviation", "rad", "Deviation", "Magnetic deviation of the compass, east positive", 60)
        add("navigation.speedThroughWater", "m/s", "STW", "Vessel speed through the water", 10)
        add("navigation.rateOfTurn", "rad/s", "Rate of turn", "Rate of turn (+ve is change to starboard)", 5)
        add(
            "navigation.attitude", nil, "Attitude",
            "Vessel attitude: roll (+ve starboard down), pitch (+ve bow up), yaw", 3)
        t["navigation.attitude"]?.properties = [
            ("roll", "rad", "Heel: +ve starboard down"), ("pitch", "rad", "Pitch: +ve bow up"),
            ("yaw", "rad", "Yaw: +ve to starboard"),
        ]
        add("navigation.datetime", nil, "Time", "Time and date from the GNSS positioning system", 10)
        add("navigation.course.nextPoint", nil, "Next point", "The point the boat is navigating to", 10)
        add("navigation.course.previousPoint", nil, "Previous point", "The start of the leg being sailed", 10)
        add("navigation.course.activeRoute", nil, "Active route", "The route being followed", 10)
        add("navigation.course.arrivalCircle", "m", "Arrival circle", "Within this distance the point is reached", 10)
        add("navigation.course.calcValues.calcMethod", nil, "Method", "GreatCircle: geodesics on WGS84", 10)
        add("navigation.course.calcValues.crossTrackError", "m", "XTE", "Cross-track error: +ve right of the track", 10)
        add("navigation.course.calcValues.bearingTrackTrue", "rad", "Track bearing", "Bearing of the leg (true)", 10)
        add(
            "navigation.course.calcValues.bearingTrackMagnetic", "rad", "Track bearing (M)",
            "Bearing of the leg (magnetic)", 10)
        add("navigation.course.calcValues.bearingTrue", "rad", "BTW", "Bearing to the next point (true)", 10)
        add(
            "navigation.course.calcValues.bearingMagnetic", "rad", "BTW (M)", "Bearing to the next point (magnetic)", 10
        )
        add("navigation.course.calcValues.distance", "m", "DTW", "Distance to the next point", 10)
        add("navigation.course.calcValues.velocityMadeGood", "m/s", "VMG to WP", "Speed towards the next point", 10)
        add("navigation.course.calcValues.timeToGo", "s", "TTG", "Time to the next point at the present VMG", 10)
        add("navigation.course.calcValues.estimatedTimeOfArrival", nil, "ETA", "Arrival at the next point", 10)
        add("navigation.gnss.satellites", nil, "Satellites", "Number of satellites used in the fix", 10)
        add("navigation.gnss.horizontalDilution", nil, "HDOP", "Horizontal dilution of precision", 10)
        add("navigation.gnss.antennaAltitude", "m", "Antenna altitude", "Altitude of the antenna", 10)
        add("environment.depth.belowTransducer", "m", "Depth", "Depth below the transducer", 10)
        add("environment.depth.belowSurface", "m", "Depth (surface)", "Depth from the surface", 10)
        add("environment.depth.belowKeel", "m", "Depth (keel)", "Depth below the keel", 10)
        add("environment.water.temperature", "K", "Water temperature", "Current water temperature", 60)
        add("environment.wind.angleApparent", "rad", "AWA", "Apparent wind angle, negative to port", 5)
        add("environment.wind.speedApparent", "m/s", "AWS", "Apparent wind speed", 5)
        add(
            "environment.wind.angleTrueWater", "rad", "TWA",
            "True wind angle based on speed through water, negative to port", 5)
        add(
            "environment.wind.speedTrue", "m/s", "TWS",
            "Wind speed over water (as calculated from speedApparent and vessel's speed through water)", 5)
        add("environment.wind.directionTrue", "rad", "TWD", "The wind direction relative to true north", 5)
        add("environment.wind.directionMagnetic", "rad", "TWD (M)", "The wind direction relative to magnetic north", 5)
        add("environment.wind.gust", "m/s", "Gust", "The highest 3-second mean true wind speed in 10 minutes", 10)
        // A barometer may send once a minute (MDA, XDR).
        add("environment.outside.pressure", "Pa", "Pressure", "Current outside air ambient pressure", 150)
        add(
            "environment.outside.pressureTendency", nil, "Tendency",
            "Three-hour tendency: steady, decreasing, increasing", 10)
        add("environment.outside.pressureChange", "Pa", "3-hour change", "The barometer's change over three hours", 10)
        add("environment.outside.temperature", "K", "Air temperature", "Current outside air temperature", 150)
        add("environment.outside.relativeHumidity", "ratio", "Humidity", "Current outside air relative humidity", 150)
        add("environment.outside.dewPointTemperature", "K", "Dew point", "Current outside dew point temperature", 150)
        add("telltale.weather.tendency", nil, "Barometer", "The tendency in the shipping forecast's words", 10)
        add(
            "telltale.wind.forecast", nil, "Forecast wind", "True: the wind is the forecast's, no anemometer is heard",
            10)
        add(
            "environment.wind.angleTrueGround", "rad", "GWA",
            "True wind angle based on speed over ground, negative to port", 5)
        add(
            "environment.wind.speedOverGround", "m/s", "GWS",
            "Wind speed over ground (as calculated from speedApparent and vessel's speed over ground)", 5)
        add("performance.velocityMadeGood", "m/s", "VMG", "Velocity made good to windward, negative downwind", 5)
        add(
            "navigation.courseGreatCircle.nextPoint.position", nil, "Next waypoint", "The position of the next point",
            10)
        add(
            "navigation.courseGreatCircle.nextPoint.bearingTrue", "rad", "BTW",
            "The bearing of the next point from the vessel (true)", 10)
        add(
            "navigation.courseGreatCircle.nextPoint.distance", "m", "DTW", "The distance in meters to the next point",
            10)
        add(
            "navigation.courseGreatCircle.nextPoint.velocityMadeGood", "m/s", "VMG to WP",
            "The velocity component of the vessel towards the next point", 10)
        add(
            "navigation.courseGreatCircle.nextPoint.timeToGo", "s", "TTG",
            "Time in seconds to reach the next point at the current closing velocity", 10)
        add(
            "navigation.courseGreatCircle.nextPoint.estimatedTimeOfArrival", nil, "ETA",
            "The estimated time of arrival at the next point", 10)
        add(
            "navigation.courseGreatCircle.previousPoint.position", nil, "Previous waypoint",
            "The position of the last point", 10)
        add(
            "navigation.courseGreatCircle.crossTrackError", "m", "XTE",
            "The distance from the vessel to the track, positive right of it (steer left)", 10)
        add(
            "navigation.courseGreatCircle.bearingTrackTrue", "rad", "Track bearing",
            "The bearing of the leg from the previous point to the next (true)", 10)
        add(
            "navigation.courseRhumbline.nextPoint.bearingTrue", "rad", "BTW (rhumb)",
            "The rhumb-line bearing of the next point (true)", 10)
        add(
            "navigation.courseRhumbline.nextPoint.distance", "m", "DTW (rhumb)",
            "The rhumb-line distance to the next point", 10)
        add("performance.polarSpeed", "m/s", "Polar speed", "The polar's speed at the true wind angle and speed now", 5)
        add("performance.polarSpeedRatio", "ratio", "Polar %", "Speed through the water over the polar speed", 5)
        add("performance.beatAngle", "rad", "Beat angle", "The true wind angle of best velocity made good upwind", 5)
        add("performance.beatAngleTargetSpeed", "m/s", "Beat target", "The target speed at the beat angle", 5)
        add("performance.beatAngleVelocityMadeGood", "m/s", "Beat VMG", "The velocity made good at the beat angle", 5)
        add("performance.gybeAngle", "rad", "Gybe angle", "The true wind angle of best velocity made good downwind", 5)
        add("performance.gybeAngleTargetSpeed", "m/s", "Run target", "The target speed at the gybe angle", 5)
        add(
            "performance.gybeAngleVelocityMadeGood", "m/s", "Run VMG",
            "The velocity made good downwind at the gybe angle", 5)
        add("performance.targetAngle", "rad", "Target TWA", "The beat or gybe angle for the point of sail now", 5)
        add("performance.targetSpeed", "m/s", "Target speed", "The target speed for the point of sail now", 5)
        add("navigation.racing.timeToStart", "s", "Start", "Time left before the start; negative after it", 10)
        add("navigation.racing.startLinePort", nil, "Port end", "Position of the port end of the start line", 10)
        add("navigation.racing.startLineStb", nil, "Stbd end", "Position of the starboard end of the start line", 10)
        add(
            "navigation.racing.distanceStartline", "m", "To line",
            "The distance from the bow to the start line, negative over it", 10)
        add(
            "navigation.racing.timeToLine", "s", "Time to line",
            "Time to the start line at the current speed and course over ground", 10)
        add(
            "navigation.racing.timeToLineAtPolar", "s", "Time to line (polar)",
            "Time to the start line sailing to it at the polar's best speed towards it", 10)
        add(
            "navigation.racing.timeToBurn", "s", "Time to burn",
            "Time to the start less time to the line; negative: late", 10)
        add(
            "navigation.racing.startLineBias", "rad", "Line bias",
            "The start line's angle from square to the wind, positive when the starboard end is favoured", 10)
        add(
            "navigation.racing.layline.distance", "m", "To layline",
            "Along the course to the other tack's (or gybe's) layline to the next point", 10)
        add("navigation.racing.layline.time", "s", "Layline time", "Time to that layline at the speed now", 10)
        add(
            "navigation.racing.oppositeLayline.distance", "m", "Own layline",
            "Across to the own tack's layline to the next point, parallel to the course", 10)
        add(
            "navigation.racing.oppositeLayline.time", "s", "Own layline time",
            "Time to that layline after tacking (or gybing) now, at the target speed", 10)
        add("navigation.racing.startLineLength", "m", "Line length", "The length of the start line", 10)
        add("navigation.anchor.position", nil, "Anchor", "Where the anchor lies, while the anchor watch is set", 5)
        add(
            "navigation.anchor.maxRadius", "m", "Anchor circle",
            "How far from the anchor the boat may be before the drag alarm", 5)
        add("navigation.anchor.currentRadius", "m", "From anchor", "How far the boat is from the anchor now", 5)
        add("navigation.anchor.bearingTrue", "rad", "To anchor", "The bearing from the boat to the anchor (true)", 5)
        add("navigation.anchor.rodeLength", "m", "Chain out", "The chain (or rode) let out", 5)
        return t
    }()
}
