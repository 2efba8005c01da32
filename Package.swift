// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Telltale",
    products: [
        .executable(name: "telltale", targets: ["telltale"]),
        .library(name: "NMEA", targets: ["NMEA"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Pure Swift codec: no Foundation, no C, allocation-free framing.
        .target(name: "NMEA", linkerSettings: [.linkedLibrary("m")]),
        .systemLibrary(
            name: "CSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]
        ),
        .systemLibrary(
            name: "CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),
        .executableTarget(
            name: "telltale",
            dependencies: [
                "NMEA",
                "CSerialPort",
                "CGPS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA"]),
    ]
)
