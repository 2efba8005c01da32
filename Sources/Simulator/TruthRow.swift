import Marine
import NMEA

/// What really happened at one moment: the reference the golden tests compare computed outputs with.
public struct TruthRow: Sendable {
    public var time: Double
    public var position: GeoPoint
    public var heading: Double
    public var speedThroughWater: Double
    public var speedOverGround: Double
    public var courseOverGround: Double
    public var leeway: Double
    public var heel: Double
    public var pitch: Double
    /// Horizontal apparent wind (what a perfect, level, still masthead unit would read).
    public var apparentWind: RelativeWind
    /// True wind over water relative to the bow, and its direction.
    public var trueWind: RelativeWind
    public var trueWindDirection: Double
    /// Wind over ground.
    public var groundWindDirection: Double
    public var groundWindSpeed: Double
    public var leg: Int
    public var from: String
    public var to: String
    /// Signed cross-track error on the plane, metres, positive right of the leg.
    public var crossTrack: Double
    public var alongTrack: Double
    public var distanceToWaypoint: Double
    public var bearingToWaypoint: Double
    /// Where the anchor lies, once it is down (it moves when it drags).
    public var anchor: GeoPoint?

    public static let csvHeader =
        "time_s,lat,lon,heading,stw_kn,sog_kn,cog,leeway,heel,pitch,awa,aws_kn,twa,tws_kn,twd,gwd,gws_kn,leg,from,to,"
        + "xte_m,atd_m,dtw_m,btw,anchor_lat,anchor_lon"

    public var csvLine: String {
        let knots = { (speed: Double) in Format.fixed(Units.knots(metresPerSecond: speed), decimals: 3) }
        let d = { (value: Double) in Format.fixed(value, decimals: 3) }
        return [
            Format.fixed(time, decimals: 2), Format.fixed(position.latitude, decimals: 7),
            Format.fixed(position.longitude, decimals: 7), d(heading), knots(speedThroughWater),
            knots(speedOverGround), d(courseOverGround), d(leeway), d(heel), d(pitch), d(apparentWind.angle),
            knots(apparentWind.speed), d(trueWind.angle), knots(trueWind.speed), d(trueWindDirection),
            d(groundWindDirection), knots(groundWindSpeed), String(leg), from, to, d(crossTrack), d(alongTrack),
            d(distanceToWaypoint), d(bearingToWaypoint),
            anchor.map { Format.fixed($0.latitude, decimals: 7) } ?? "",
            anchor.map { Format.fixed($0.longitude, decimals: 7) } ?? "",
        ].joined(separator: ",")
    }
}
