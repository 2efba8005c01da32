// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Telltale",
    products: [
        .executable(name: "telltale", targets: ["telltale"]),
        .executable(name: "telltale-bench", targets: ["TelltaleBench"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "Marine", targets: ["Marine"]),
        .library(name: "N2K", targets: ["N2K"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift codec: no Foundation, no C, allocation-free framing.
        .target(name: "NMEA", linkerSettings: [.linkedLibrary("m")]),
        // NMEA 2000, the codec: CAN identifiers, fast packets and ISO transport reassembled, typed PGNs read and
        // written by canboat's field layouts, the node's address claim and requests as a sans-I/O state machine. No
        // I/O, no clock, no allocation for a single frame: it builds for the Pi.
        .target(name: "N2K", exclude: []),
        // Pure maths: units and conventions, wind triangle, damping, geodesy. Time is always an argument.
        .target(name: "Marine", linkerSettings: [.linkedLibrary("m")]),
        // The fixed-rate core: observations with age and source, derivations, output schedule. No I/O, no clock.
        .target(name: "Engine", dependencies: ["NMEA", "Marine"]),
        // The routing policy as a sans-I/O state machine: events in, actions (a sentence for output i) out. Owns the
        // engine; run and replay both drive it.
        .target(name: "Router", dependencies: ["NMEA", "Marine", "Engine"]),
        // Signal K: the boat's data in SI units as a model and deltas, subscriptions, and the HTTP/WebSocket protocol
        // that serves them, all sans-I/O (the shell owns the sockets). No Foundation, no C: it builds for the Pi.
        .target(name: "SignalK", dependencies: ["NMEA", "Marine", "Engine", "Router"]),
        // The fleet uplink's pure half: what goes ashore (groups, sampler, numbered batches and their records on disk),
        // the connection's life as a sans-I/O session (`UplinkSession`: events in, actions out, time an argument),
        // signed commands from shore (SHA-256, HMAC), and the shore's fleet model. No I/O: the shell owns the MQTT
        // client and the queue's files.
        .target(name: "Fleet", dependencies: ["NMEA", "Marine", "Engine", "SignalK"]),
        // Between the buses, sans-I/O: NMEA 2000 messages into 0183 sentences for the router, the engine's report and
        // the inputs' 0183 sentences into PGNs, AIS both ways, and `N2KBus`, the node on one bus (frames, reports and
        // the clock in; frames, sentences and log lines out). No I/O, no clock: it builds for the Pi.
        .target(name: "Bridge", dependencies: ["N2K", "NMEA", "Marine", "Engine"]),
        // A deterministic voyage simulator: instrument logs, IMU traces and the truth to test against.
        .target(name: "Simulator", dependencies: ["NMEA", "Marine"]),
        // The C library through one header, for the desktop and the Pi build alike (Embedded Swift has no Glibc).
        .systemLibrary(name: "CPosix"),
        // The one funnel for system calls: typed failures with their errno, EINTR retried in one place, clocks.
        .target(name: "Platform", dependencies: ["CPosix"]),
        // IMU drivers (register maps, scaling) over an I²C transport, and the Linux IIO reader. No Foundation.
        .target(name: "Sensors", dependencies: ["Platform"]),
        // The I/O shell: files, serial, gpsd, sockets, configuration, services. No Foundation (memory on a Pi).
        .target(
            name: "Gateway",
            dependencies: [
                "NMEA", "N2K", "Bridge", "Marine", "Engine", "Router", "SignalK", "Fleet", "Sensors", "Platform",
                "CPosix",
                "CGPS",
                "CSerialPort", "CSQLite", "CMosquitto",
            ]
        ),
        // The shore (`telltale fleet`): the store (PostgreSQL through libpq, or SQLite), ingest workers, web sides, the
        // race office. Above the boat's modules: the boat daemon and the Pi's build never compile it.
        .target(
            name: "Shore",
            dependencies: ["Gateway", "Fleet", "SignalK", "Marine", "Platform", "CPosix", "CSQLite"]
        ),
        .systemLibrary(
            name: "CSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]
        ),
        // libgps is opened at run time (dlopen) when a gpsd input is configured; only its header is needed here.
        .systemLibrary(
            name: "CGPS",
            providers: [.apt(["libgps-dev"])]
        ),
        // SQLite for the charts folder's MBTiles, opened with dlopen when a chart is first asked for; its header only.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libmosquitto for the uplink to a shore broker, opened with dlopen when [uplink] is configured; its header only.
        .systemLibrary(
            name: "CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .executableTarget(
            name: "telltale",
            dependencies: [
                "NMEA",
                "Marine",
                "Engine",
                "Gateway",
                "Shore",
                "SignalK",
                "Sensors",
                "Platform",
                "Simulator",
                "CSerialPort",
                "CGPS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The benchmarks, outside the gateway's binary (`telltale-bench`; scripts under Benchmarks/ call it).
        .executableTarget(
            name: "TelltaleBench",
            dependencies: [
                "NMEA", "N2K", "Marine", "Engine", "Gateway", "SignalK", "Sensors", "Platform", "CPosix", "Simulator",
                "Fleet", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The Pi build's command line (run, check-config) over the same Gateway code; also built here, so the tests
        // run the same entry point the ARM binaries have.
        .executableTarget(name: "TelltalePi", dependencies: ["Gateway", "Platform", "CPosix"]),
        // Helpers shared by the test targets (fixture paths, file reading, checksums written independently).
        .target(name: "TestSupport", path: "Tests/Support/Swift"),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "TestSupport"]),
        .testTarget(name: "N2KTests", dependencies: ["N2K", "TestSupport"]),
        .testTarget(
            name: "BridgeTests", dependencies: ["Bridge", "N2K", "NMEA", "Engine", "Marine", "Router", "TestSupport"]),
        // The GeographicLib vectors are read from disk by path, not bundled.
        .testTarget(name: "MarineTests", dependencies: ["Marine", "TestSupport"], exclude: ["Vectors"]),
        .testTarget(
            name: "EngineTests", dependencies: ["Engine", "Marine", "NMEA", "TestSupport"], exclude: ["Vectors"]),
        .testTarget(name: "RouterTests", dependencies: ["Router", "Engine", "NMEA", "TestSupport"]),
        .testTarget(
            name: "SignalKTests", dependencies: ["SignalK", "Fleet", "Engine", "Marine", "NMEA", "TestSupport"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "SignalK", "Engine", "Marine", "NMEA", "TestSupport"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Platform", "TestSupport"]),
        // The command line read two ways (desktop and Pi) from its one description.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["telltale", "Gateway", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(
            name: "ShoreTests",
            dependencies: ["Shore", "Gateway", "Fleet", "SignalK", "Marine", "Platform", "CPosix", "TestSupport"]),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "Engine", "Router", "NMEA", "Marine", "Platform", "CPosix", "Simulator", "TestSupport",
            ]),
    ]
)
