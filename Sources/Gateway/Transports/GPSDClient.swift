import CGPS
import CPosix
import Engine
import Marine
import NMEA
import Platform

/// A gpsd input through libgps: watches gpsd with JSON and turns each fix (time, position, SOG, COG, mode) into
/// an observation. Owns its `gps_data_t` (some 24 KB, allocated once). When gpsd goes away the connection is closed
/// and opened again with backoff (at most 1 s), so data resumes by itself when gpsd is restarted.
final class GPSDClient: InputTransport {
    struct Report {
        var point: GeoPoint
        /// m/s and degrees true, when gpsd has them.
        var speed: Double?
        var track: Double?
        /// UNIX seconds of the fix.
        var time: Double?
        /// 2 (2D) or 3 (3D).
        var mode: Int
        /// gpsd's fix status: 1 GPS, 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, 6 GNSS and dead reckoning,
        /// 8 simulated (`STATUS_*` in gps.h); 0 when gpsd did not say.
        var status: Int = 0
        /// Satellites used in the solution, horizontal dilution, altitude above mean sea level and the geoid's
        /// height above the ellipsoid (metres), when gpsd has them: GGA carries them.
        var satellites: Int? = nil
        var horizontalDilution: Double? = nil
        var altitude: Double? = nil
        var geoidSeparation: Double? = nil
    }

    let name: String
    let host: String
    let port: Int
    private let data: UnsafeMutablePointer<gps_data_t>
    private var open = false
    private var backoff = Backoff()
    private let log: Log
    private(set) var fixes = 0
    private(set) var reconnects = 0
    private var slot = PollSlot()

    init(name: String, host: String, port: Int, log: Log) {
        self.name = name
        self.host = host
        self.port = port
        self.log = log
        data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
    }

    deinit {
        if open, let gps = try? GPSLibrary.shared.get() { _ = gps.close(data) }
        data.deallocate()
    }

    /// Connects when it is time to.
    func maintain(now: Double) {
        guard !open, backoff.isDue(now) else { return }
        let gps: GPSLibrary
        switch GPSLibrary.shared {
        case .success(let library): gps = library
        case .failure(let problem):
            backoff.failed(at: now)
            log.error(
                "input.library",
                "input \(name): gpsd's client library: \(problem): install libgps28 (apt install libgps28)",
                [("input", name)])
            return
        }
        if gps.open(host, String(port), data) == 0 {
            _ = gps.stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil)
            open = true
            backoff.succeeded()
            log.notice(
                "input.connected", "input \(name): connected to gpsd at \(host):\(port)",
                [("input", name), ("url", "gpsd://\(host):\(port)")])
        } else {
            backoff.failed(at: now)
        }
    }

    func nextDue(now: Double) -> Double? { open ? nil : backoff.retryAt }

    func prepare(now: Double, into set: inout PollSet) {
        maintain(now: now)
        guard open else { return slot.clear() }
        slot.register(Int32(data.pointee.gps_fd), into: &set)
    }

    var counts: String { ", \(reconnects) reconnects" }

    func close() {
        if open, let gps = try? GPSLibrary.shared.get() { _ = gps.close(data) }
        open = false
    }

    /// Reads what gpsd has sent and hands on each new fix of mode 2D or 3D.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        guard open, let gps = try? GPSLibrary.shared.get() else { return }
        while gps.waiting(data, 0) {
            guard gps.read(data, nil, 0) >= 0 else {
                _ = gps.close(data)
                open = false
                reconnects += 1
                backoff.failed(at: now)
                log.warning("input.lost", "input \(name): gpsd went away; reconnecting", [("input", name)])
                return
            }
            let set = data.pointee.set
            guard set & UInt64(LATLON_SET) != 0 else { continue }
            let fix = data.pointee.fix
            guard fix.mode >= 2, fix.latitude.isFinite, fix.longitude.isFinite else { continue }
            let time = Double(fix.time.tv_sec) + Double(fix.time.tv_nsec) / 1e9
            fixes += 1
            let used = Int(data.pointee.satellites_used)
            let hdop = data.pointee.dop.hdop
            body(
                .fix(
                    Report(
                        point: GeoPoint(latitude: fix.latitude, longitude: fix.longitude),
                        speed: fix.speed.isFinite ? fix.speed : nil, track: fix.track.isFinite ? fix.track : nil,
                        time: time > 0 ? time : nil, mode: Int(fix.mode), status: Int(fix.status),
                        satellites: used > 0 ? used : nil,
                        horizontalDilution: hdop.isFinite && hdop > 0 ? hdop : nil,
                        altitude: fix.mode >= 3 && fix.altMSL.isFinite ? fix.altMSL : nil,
                        geoidSeparation: fix.geoid_sep.isFinite ? fix.geoid_sep : nil)))
        }
    }
}

extension GPSDClient.Report {
    /// The engine's fix: UTC time and date from the fix's UNIX time, satellites, HDOP and altitude for GGA.
    var engineFix: Fix {
        Fix(
            point: point, utc: time.map { UTCTime(secondsOfDay: $0) }, date: time.map { UTCDate(unixTime: $0) },
            mode: mode >= 2 ? faaMode : .notValid, satellites: satellites, horizontalDilution: horizontalDilution,
            altitude: altitude, geoidSeparation: geoidSeparation)
    }

    /// The FAA mode of gpsd's fix status: a DGPS fix stays differential (`D`, GGA quality 2), an RTK one `R` or `F`.
    var faaMode: FAAMode {
        switch status {
        case 2: .differential
        case 3: FAAMode(rawValue: UInt8(ascii: "R"))
        case 4: FAAMode(rawValue: UInt8(ascii: "F"))
        case 5: .estimated
        case 8: .simulator
        default: .autonomous
        }
    }

    /// Speed (m/s) and track over ground, when gpsd has a speed.
    var motion: GroundMotion? { speed.map { GroundMotion(speed: $0, course: track) } }
}

/// The functions of gpsd's client library (Debian's `libgps28`) a gpsd input calls, looked up once, the first time
/// one connects.
struct GPSLibrary {
    typealias Data = UnsafeMutablePointer<gps_data_t>

    let open: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Data?) -> Int32
    let stream: @convention(c) (Data?, UInt32, UnsafeMutableRawPointer?) -> Int32
    let close: @convention(c) (Data?) -> Int32
    let waiting: @convention(c) (UnsafePointer<gps_data_t>?, Int32) -> Bool
    let read: @convention(c) (Data?, UnsafeMutablePointer<CChar>?, Int32) -> Int32

    /// libgps (the sonames bookworm, trixie and their neighbours ship), or why not.
    static let shared: Result<GPSLibrary, DynamicLibrary.Failure> = {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libgps.so.28", "libgps.so.30", "libgps.so.29", "libgps.so"])
            return .success(
                GPSLibrary(
                    open: try library.function(
                        "gps_open",
                        as: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Data?) -> Int32).self),
                    stream: try library.function(
                        "gps_stream", as: (@convention(c) (Data?, UInt32, UnsafeMutableRawPointer?) -> Int32).self),
                    close: try library.function("gps_close", as: (@convention(c) (Data?) -> Int32).self),
                    waiting: try library.function(
                        "gps_waiting", as: (@convention(c) (UnsafePointer<gps_data_t>?, Int32) -> Bool).self),
                    read: try library.function(
                        "gps_read", as: (@convention(c) (Data?, UnsafeMutablePointer<CChar>?, Int32) -> Int32).self)))
        } catch {
            return .failure(error)
        }
    }()
}
