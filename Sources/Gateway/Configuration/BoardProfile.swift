import Marine
import Platform
import Sensors

/// A board profile from `Boards/`: device names for URLs (`serial://@gpio-uart?baud=4800`) and IMU defaults. Data,
/// not code: nothing in Telltale asks which board it runs on.
public struct BoardProfile: Sendable {
    public var name: String
    public var devices: [String: String]
    public var imuAxes: AxisMap?
    /// The board's IMU as a URL (`i2c:///dev/i2c-1?address=0x68&chip=icm20948`), from its `[imu]` table.
    public var imuURL: String?

    /// Where profiles are looked for: `$TELLTALE_BOARDS`, `Boards/` beside the configuration or one folder up
    /// (a checkout), then the installed copies.
    public static func searchPaths(configurationFolder: String) -> [String] {
        var paths: [String] = []
        if let custom = POSIX.environment("TELLTALE_BOARDS") { paths.append(custom) }
        paths += [
            configurationFolder, configurationFolder + "/Boards", configurationFolder + "/../Boards",
            "/usr/local/share/telltale/Boards", "/usr/share/telltale/Boards",
        ]
        return paths
    }

    public static func load(_ name: String, from folders: [String]) throws(ConfigurationFile.Error) -> BoardProfile {
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw ConfigurationFile.Error(line: nil, key: "board", message: "not a board name: \(name)")
        }
        for folder in folders {
            let path = folder + "/" + name + ".toml"
            guard let bytes = try? POSIX.readFile(path) else { continue }
            let table: TOMLTable
            do { table = try TOMLReader.parse(String(decoding: bytes, as: UTF8.self)) } catch {
                throw ConfigurationFile.Error(line: error.line, key: path, message: error.message)
            }
            var profile = BoardProfile(name: name, devices: [:], imuAxes: nil)
            profile.name = table["board"]?.table?["name"]?.string ?? name
            if let devices = table["devices"]?.table {
                for key in devices.keys { profile.devices[key] = devices[key]?.string }
            }
            if let imu = table["imu"]?.table {
                if let axes = imu["axes"]?.string { profile.imuAxes = AxisMap(axes) }
                if let url = imu["url"]?.string {
                    profile.imuURL = url
                } else if let bus = imu["bus"]?.string, let address = imu["address"]?.int {
                    let chip = imu["chip"]?.string ?? "auto"
                    profile.imuURL = "i2c://\(bus)?address=\(hex(UInt8(truncatingIfNeeded: address)))&chip=\(chip)"
                }
            }
            return profile
        }
        throw ConfigurationFile.Error(
            line: nil, key: "board",
            message: "no profile \(name).toml in " + folders.joined(separator: ", "))
    }

    /// A URL with `@device` replaced by the board's path for it (`serial://@gpio-uart` -> `serial:///dev/serial0`).
    public func resolve(_ url: String) -> String? {
        guard let at = url.firstIndex(of: "@") else { return url }
        let after = url[url.index(after: at)...]
        let name = String(after.prefix { $0 != "?" })
        guard let device = devices[name] else { return nil }
        return String(url[..<at]) + device + String(after.dropFirst(name.count))
    }
}
