import CPosix
import Gateway
import Platform

/// The Pi build's command line. swift-argument-parser and swift-log cannot be compiled as Embedded Swift, so the
/// commands a sailor runs on the boat are parsed here by hand into the same option values the desktop command
/// parses into (`RunOptions`), and the work is the same Gateway code on both builds.
enum PiCommand {
    static let usage = """
        usage: telltale run [--config FILE] [--input URL]... [--output URL]... [--imu URL] [--duration SECONDS]
               telltale replay [--fast | --speed X] [--computed-only] [--tag-time] [--route GPX] [--imu CSV] [--signalk FILE] [--race-start S]
                               [--config FILE] [--kind KIND]... [--line-rate N] [--tick-rate N] LOG...
               telltale record --input URL... --directory DIR [--rotate-size-mb N] [--rotate-minutes N] [--duration S]
           telltale imu [--config FILE] [--imu URL] [--seconds S] [--transcript FILE]
           telltale calibrate level [--config FILE] [--imu URL] [--seconds S] [--state FILE]
           telltale ports
           telltale race start|pause|reset|sync|port|starboard [--port N]
           telltale alarm list | alarm ack ALARM [--port N]
           telltale inspect [--json] [--max-length N] [--allow-missing-checksum] FILE|-
           telltale check-config FILE
               telltale --version
        The desktop build has these commands and more (simulate, bench): see the README.

        """

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        POSIX.writeAll(2, "telltale: " + message + "\n")
        exit(status)
    }

    /// The options of `run`, from the words after it.
    static func runOptions(_ words: ArraySlice<String>) -> RunOptions {
        var options = RunOptions()
        var rest = words
        while let word = rest.popFirst() {
            let (name, inline) = split(word)
            guard name.hasPrefix("--") else { fail("run takes no argument \"\(word)\"\n" + usage, status: 64) }
            guard let value = inline ?? rest.popFirst() else { fail("\(name) needs a value", status: 64) }
            switch name {
            case "--config": options.config = value
            case "--input": options.inputs.append(value)
            case "--output": options.outputs.append(value)
            case "--imu": options.imu = value
            case "--log-level":
                guard let level = LogEvent.Level.named(value) else {
                    fail("--log-level \(value): one of debug, info, notice, warning, error", status: 64)
                }
                options.logLevel = level
            case "--duration":
                guard let seconds = Double(value), seconds >= 0 else { fail("--duration \(value) is not a number") }
                options.duration = seconds
            default: fail("unknown option \(name)\n" + usage, status: 64)
            }
        }
        return options
    }

    /// The options of `replay`, from the words after it.
    static func replayOptions(_ words: ArraySlice<String>) -> ReplayOptions {
        var options = ReplayOptions()
        var rest = words
        func number(_ name: String, _ value: String) -> Double {
            guard let number = Double(value) else { fail("\(name) \(value) is not a number", status: 64) }
            return number
        }
        while let word = rest.popFirst() {
            let (name, inline) = split(word)
            guard name.hasPrefix("--") else {
                options.logs.append(word)
                continue
            }
            switch name {
            case "--fast": options.speed = nil
            case "--computed-only": options.computedOnly = true
            case "--tag-time": options.tagTime = true
            default:
                guard let value = inline ?? rest.popFirst() else { fail("\(name) needs a value", status: 64) }
                switch name {
                case "--speed": options.speed = number(name, value)
                case "--route": options.route = value
                case "--imu": options.imu = value
                case "--signalk": options.signalK = value
                case "--race-start": options.raceStart = number(name, value)
                case "--config": options.config = value
                case "--kind": options.kinds.append(value)
                case "--line-rate": options.lineRate = number(name, value)
                case "--tick-rate": options.tickRate = number(name, value)
                default: fail("unknown option \(name)\n" + usage, status: 64)
                }
            }
        }
        return options
    }

    /// The options of `record`, from the words after it.
    static func recordOptions(_ words: ArraySlice<String>) -> (RecordOptions, Double?) {
        var options = RecordOptions()
        var duration: Double?
        var rest = words
        while let word = rest.popFirst() {
            let (name, inline) = split(word)
            guard let value = inline ?? rest.popFirst() else { fail("\(name) needs a value", status: 64) }
            switch name {
            case "--input": options.inputs.append(value)
            case "--directory": options.directory = value
            case "--rotate-size-mb": options.rotateSizeMegabytes = number(name, value)
            case "--rotate-minutes": options.rotateMinutes = number(name, value)
            case "--duration": duration = number(name, value)
            default: fail("unknown option \(name)\n" + usage, status: 64)
            }
        }
        return (options, duration)
    }

    /// The options of `imu` and `calibrate level`, from the words after the command.
    static func imuOptions(_ words: ArraySlice<String>) -> IMUOptions {
        var options = IMUOptions()
        var rest = words
        while let word = rest.popFirst() {
            let (name, inline) = split(word)
            guard let value = inline ?? rest.popFirst() else { fail("\(name) needs a value", status: 64) }
            switch name {
            case "--config": options.config = value
            case "--imu": options.imu = value
            case "--seconds": options.seconds = number(name, value)
            case "--transcript": options.transcript = value
            case "--state": options.state = value
            default: fail("unknown option \(name)\n" + usage, status: 64)
            }
        }
        return options
    }

    static func number(_ name: String, _ value: String) -> Double {
        guard let number = Double(value) else { fail("\(name) \(value) is not a number", status: 64) }
        return number
    }

    /// Runs the command `words` names (`words[0]` is the program) and returns the exit status.
    static func run(_ words: [String]) -> Int32 {
        switch words.dropFirst().first {
        case "run":
            do {
                let options = runOptions(words.dropFirst(2))
                try RunCommand.start(
                    RunCommand.configuration(options), duration: options.duration,
                    log: StandardErrorLog.make(minimum: options.logLevel))
            } catch {
                fail(error.description)
            }
        case "replay":
            do {
                let summary = try ReplayCommand.run(replayOptions(words.dropFirst(2))) { POSIX.writeAll(1, $0) }
                POSIX.writeAll(2, summary + "\n")
            } catch {
                fail(error.description)
            }
        case "record":
            let (options, duration) = recordOptions(words.dropFirst(2))
            do {
                try RunCommand.start(RunCommand.recording(options), duration: duration, log: StandardErrorLog.make())
            } catch {
                fail(error.description)
            }
        case "imu":
            do {
                try IMUCommands.sample(
                    imuOptions(words.dropFirst(2)), out: { POSIX.writeAll(1, $0) },
                    log: { POSIX.writeAll(2, "telltale: " + $0 + "\n") })
            } catch {
                fail(error.description)
            }
        case "calibrate":
            guard words.count >= 3, words[2] == "level" else { fail("calibrate level\n" + usage, status: 64) }
            do {
                let line = try IMUCommands.calibrateLevel(imuOptions(words.dropFirst(3))) {
                    POSIX.writeAll(2, "telltale: " + $0 + "\n")
                }
                POSIX.writeAll(1, line + "\n")
            } catch {
                fail(error.description)
            }
        case "inspect":
            var options = InspectOptions()
            var rest = words.dropFirst(2)
            var file: String?
            while let word = rest.popFirst() {
                let (name, inline) = split(word)
                switch name {
                case "--json": options.json = true
                case "--allow-missing-checksum": options.allowMissingChecksum = true
                case "--max-length":
                    guard let value = inline ?? rest.popFirst(), let length = Int(value), (82...1024).contains(length)
                    else { fail("--max-length: a number from 82 to 1024", status: 64) }
                    options.maximumLength = length
                default:
                    guard file == nil, !name.hasPrefix("--") || name == "-" else {
                        fail("inspect takes one FILE (or -)\n" + usage, status: 64)
                    }
                    file = word
                }
            }
            options.file = file ?? "-"
            do { POSIX.writeAll(1, try InspectCommand.run(options)) } catch { fail(error.description) }
        case "race":
            guard words.count >= 3 else { fail("race takes start, pause, reset or sync\n" + usage, status: 64) }
            var port = 3000
            if words.count == 5, words[3] == "--port", let value = Int(words[4]) { port = value }
            do { POSIX.writeAll(1, try RaceCommand.send(words[2], port: port) + "\n") } catch {
                fail(error.description)
            }
        case "alarm":
            guard words.count >= 3, words[2] == "list" || (words[2] == "ack" && words.count >= 4) else {
                fail("alarm takes list, or ack and an alarm\n" + usage, status: 64)
            }
            var port = 3000
            if let flag = words.firstIndex(of: "--port"), flag + 1 < words.count, let value = Int(words[flag + 1]) {
                port = value
            }
            do {
                POSIX.writeAll(
                    1,
                    words[2] == "list"
                        ? try AlarmCommand.list(port: port) : try AlarmCommand.acknowledge(words[3], port: port) + "\n")
            } catch {
                fail(error.description)
            }
        case "ports":
            guard let lines = SerialPorts.list() else { fail("libserialport could not list the ports") }
            POSIX.writeAll(1, lines.isEmpty ? "no serial ports found\n" : lines.joined(separator: "\n") + "\n")
        case "check-config":
            guard words.count == 3 else { fail("check-config takes one file\n" + usage, status: 64) }
            do {
                POSIX.writeAll(1, try RunCommand.check(words[2]) + "\n")
            } catch {
                POSIX.writeAll(2, error.description + "\n")
                return 1
            }
        case "--version", "version":
            POSIX.writeAll(1, "telltale \(TelltaleVersion.string)\n")
        case "help", "--help", "-h", nil:
            POSIX.writeAll(1, usage)
        case let other?:
            fail("unknown command \(other)\n" + usage, status: 64)
        }
        return 0
    }

    /// `--name=value` split at the `=`.
    static func split(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
