import N2K
import Platform

/// What a bus transport reads: a frame, a message whole (a recording in canboat's fast format), or something the
/// log should say (an error frame, the interface down or back).
enum BusReading {
    case frame(CANFrame)
    case message(N2KMessage)
    /// The interface or the connection is (again) open: a node claims its address anew.
    case opened
    case problem(level: LogEvent.Level, id: String, text: String)
}

/// Where the NMEA 2000 bus's frames come from and go: a SocketCAN interface, a recorded bus played in real time, a
/// Yacht Devices gateway over the network. The ``N2KService`` polls, services and closes it through this alone; each
/// transport owns its reopening, with backoff, and never blocks.
protocol BusTransport: AnyObject {
    var description: String { get }
    func start(at now: Double)
    /// Opens or reopens when due; adds its descriptor.
    func prepare(now: Double, into set: inout PollSet)
    /// When it must be serviced whatever poll says (a recording's next frame, a reopening).
    func nextDue(now: Double) -> Double?
    /// Reads what has come (a bounded amount a turn) and writes what waits.
    func service(now: Double, polled set: PollSet, _ body: (BusReading) -> Void)
    /// A frame for the bus: false when it cannot be sent (read only, the interface down, the queue full).
    func send(_ frame: CANFrame, now: Double) -> Bool
    /// A recording played to its end.
    var finished: Bool { get }
    func close()
}

/// The transports by URL.
enum BusTransports {
    static func make(_ configuration: N2KConfiguration, log: Log) -> any BusTransport {
        switch configuration.bus {
        case .socketCAN(let interface): SocketCANBus(interface: interface)
        case .file(let path): RecordedBus(path: path, loop: configuration.loop)
        case .yachtDevicesTCP(let host, let port): YachtDevicesBus(host: host, port: port, stream: true)
        case .yachtDevicesUDP(let host, let port): YachtDevicesBus(host: host, port: port, stream: false)
        }
    }
}
