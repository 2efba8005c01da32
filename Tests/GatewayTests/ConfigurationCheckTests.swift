import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ConfigurationCheckTests {
    func errors(_ text: String) -> [String] {
        do {
            _ = try ConfigurationFile.parse(text)
            return []
        } catch {
            return error.description.split(separator: "\n").map(String.init)
        }
    }

    @Test("two outputs on one TCP port are refused, also localhost against 0.0.0.0 and :: against anything")
    func tcpPortClash() {
        let clash = errors("[[output]]\nurl = \"tcp://localhost:10110\"\n[[output]]\nurl = \"tcp://0.0.0.0:10110\"\n")
        #expect(
            clash == ["line 4: [[output]] #2 url: tcp port 10110 is already taken by [[output]] #1 (localhost:10110)"])
        #expect(errors("[[output]]\nurl = \"tcp://[::]:7\"\n[[output]]\nurl = \"tcp://127.0.0.1:7\"\n").count == 1)
        #expect(errors("[[output]]\nurl = \"tcp://127.0.0.1:7\"\n[[output]]\nurl = \"tcp://127.0.0.2:7\"\n").isEmpty)
        #expect(errors("[[output]]\nurl = \"tcp://127.0.0.1:7\"\n[[output]]\nurl = \"udp://127.0.0.1:7\"\n").isEmpty)
    }

    @Test("[race] and [voice]: the sequence, what is spoken and how; mistakes named; the alarms' own words")
    func raceAndVoice() throws {
        let defaults = try ConfigurationFile.parse("talker = \"II\"\n")
        #expect(defaults.race.sequenceMinutes == [5, 4, 1, 0] && defaults.voice == nil)
        let set = try ConfigurationFile.parse(
            "[race]\nsequence = [3, 2, 1, 0]\nannounce = [60, 10, 0]\n[voice]\ncommand = \"say\"\n"
                + "arguments = [\"-v\", \"en-gb\"]\ndevice = \"plughw:1\"\n"
                + "[alarms]\nover_heel = 22\nover_heel_spoken = \"Ease the main\"\n")
        #expect(set.race.sequenceMinutes == [3, 2, 1, 0] && set.race.announceSeconds == [60, 10, 0])
        let voice = try #require(set.voice)
        #expect(voice.command == "say" && voice.arguments == ["-v", "en-gb"] && voice.device == "plughw:1")
        #expect(
            Voice.commandLine(voice, "ten") == [
                "/bin/sh", "-c", "say -v en-gb --stdout \"$1\" | aplay -q -D \"$2\"", "telltale-voice", "ten",
                "plughw:1",
            ])
        #expect(set.engine.alarms.spoken[.overHeel] == "Ease the main")
        #expect(try ConfigurationFile.parse("[voice]\nenabled = false\n").voice == nil)
        let plain = try #require(try ConfigurationFile.parse("[voice]\n").voice)
        #expect(Voice.commandLine(plain, "start") == ["espeak-ng", "start"])
        // Only espeak playing to the default card needs one; another command says its own failures.
        #expect(Voice.playsToDefaultCard("espeak-ng") && Voice.playsToDefaultCard("/usr/bin/espeak"))
        #expect(!Voice.playsToDefaultCard("/home/pi/speak-to-bluetooth.sh") && !Voice.playsToDefaultCard("say"))
        let found = errors("[race]\nsequence = [5, -1]\nannounce = \"ten\"\n[voice]\ncommand = \"\"\nloud = true\n")
        // One error a section (the first found in each), each naming its key.
        #expect(found.count == 2 && found[0].contains("race.sequence") && found[1].contains("voice.loud"), "\(found)")
    }

    @Test("[alarms]: sensors lost, XTE, arrival, shallow, wind shift and the sailor's words; mistakes named")
    func alarms() throws {
        let defaults = try ConfigurationFile.parse("talker = \"II\"\n").engine.alarms
        #expect(defaults.sensorLost == Set(QuantityGroup.allCases) && defaults.arrival)
        #expect(defaults.crossTrackLimit == nil && defaults.shallow == nil && defaults.windShift == nil)
        let set = try ConfigurationFile.parse(
            """
            [alarms]
            sensor_lost = ["wind", "depth"]
            xte = 0.1
            arrival = false
            shallow = 3.5
            wind_shift = 12
            wind_shift_minutes = 10
            [alarms.text]
            shallow = "Shoal water"
            [alarms.spoken]
            wind_lost = "the wind instrument is dead"
            over_heel = "ease the main"

            """
        ).engine.alarms
        #expect(set.sensorLost == [.wind, .depth] && !set.arrival && set.shallow == 3.5)
        #expect(abs((set.crossTrackLimit ?? 0) - 185.2) < 1e-9)
        #expect(set.windShift == 12 && set.windShiftWindow == 600)
        #expect(set.text == [.shallow: "Shoal water"])
        #expect(set.spoken == [.windLost: "the wind instrument is dead", .overHeel: "ease the main"])
        #expect(try ConfigurationFile.parse("[alarms]\nsensor_lost = false\n").engine.alarms.sensorLost.isEmpty)
        // One error a section: each of these alone is named with its key.
        for (text, key) in [
            ("sensor_lost = [\"wind\", \"sonar\"]", "alarms.sensor_lost"), ("xte = 12", "alarms.xte"),
            ("shallow = -1", "alarms.shallow"), ("wind_shift = 0", "alarms.wind_shift"),
            ("[alarms.text]\nkraken = \"Kraken\"", "alarms.text.kraken"), ("text = 3", "alarms.text"),
        ] {
            let found = errors("[alarms]\n" + text + "\n")
            #expect(found.count == 1 && found[0].contains(key), "\(text): \(found)")
        }
    }

    @Test("[web]: defaults, IPv6, off, and every mistake named; its port clashes with a TCP output's")
    func web() throws {
        let defaults = try #require(try ConfigurationFile.parse("[web]\n").web)
        #expect(defaults.host == "0.0.0.0" && defaults.port == 3000 && defaults.putNetworks == ["loopback"])
        let v6 = try #require(try ConfigurationFile.parse("[web]\nlisten = \"[::]:8080\"\nupdate_rate = 5\n").web)
        #expect(v6.host == "::" && v6.port == 8080 && v6.updateRate == 5)
        #expect(try ConfigurationFile.parse("[web]\nenabled = false\n").web == nil)
        #expect(try ConfigurationFile.parse("talker = \"II\"\n").web == nil, "no [web]: no server")
        let found = errors(
            "[web]\nlisten = \"nowhere\"\nput_networks = [\"10.0.0.0/33\"]\nurn = \"boat\"\nspeed = 3\n")
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.contains("web: unknown key speed") || $0.contains("speed") })
        let clash = errors("[[output]]\nurl = \"tcp://0.0.0.0:3000\"\n[web]\nlisten = \"127.0.0.1:3000\"\n")
        #expect(clash.count == 1 && clash.first?.contains("tcp port 3000 is already taken") == true, "\(clash)")
    }

    @Test("the local networks come from the kernel's route and IPv6 tables, not a netlink socket systemd refuses")
    func localNetworks() {
        let routes = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0
            eth0\t0000100A\t00000000\t0001\t0\t0\t100\t0000FFFF\t0\t0\t0
            """
        let inet6 = """
            00000000000000000000000000000001 01 80 10 80       lo
            fd000000000000000000000000000002 04 40 00 82     wlan0
            """
        let found = POSIX.networks(routes: routes, inet6: inet6)
        #expect(
            found.map { $0.address } == [
                [192, 168, 1, 0], [10, 16, 0, 0], [0xFD] + Array(repeating: 0, count: 14) + [2],
            ])
        #expect(found.map { $0.prefix } == [24, 16, 64], "the default route and loopback are not local networks")
        #expect(POSIX.networks(routes: "", inet6: "").isEmpty)
    }

    @Test("two UDP inputs on one port are refused")
    func udpPortClash() {
        let clash = errors("[[input]]\nurl = \"udp://:10110\"\n[[input]]\nurl = \"udp://[::]:10110\"\n")
        #expect(clash.count == 1 && clash.first?.contains("udp port 10110 is already taken by [[input]] #1") == true)
    }

    @Test("every error in a file is reported, each with its line, and integer bounds read as integers")
    func allErrors() {
        let found = errors("talker = \"XXX\"\nrate = 99\n[wind]\nleeway = 3\n[[output]]\nurl = \"nowhere\"\n")
        #expect(found.count == 4, "\(found)")
        #expect(found.contains("line 2: rate: must be from 1 to 50"))
        #expect(found.first?.hasPrefix("line 1: talker:") == true)
    }

    @Test("check-config names the file once")
    func pathOnce() {
        do {
            _ = try RunCommand.check("/nonexistent/telltale.toml")
            Issue.record("a missing file was valid")
        } catch {
            #expect(error.description == "/nonexistent/telltale.toml: cannot be read: No such file or directory")
        }
    }

    @Test(
        "check-config reads the route and start line as run would, says what is on, and names each file it cannot read")
    func namedFiles() throws {
        let folder = projectFixtures() + "/demo-voyage"
        let good = "/tmp/telltale-check-\(getpid()).toml"
        defer { unlink(good) }
        try POSIX.writeFile(
            good,
            "route = \"\(folder)/route.gpx\"\npolar = \"\(folder)/polar.csv\"\n[race]\nline = \"\(folder)/line.gpx\"\n"
                + "button = 17\n[web]\nlisten = \"127.0.0.1:3999\"\n")
        let summary = try RunCommand.check(good)
        #expect(summary.hasPrefix(good + ": valid (0 inputs, 0 outputs, route "))
        #expect(summary.contains("route.gpx (4 waypoints)"), "\(summary)")
        #expect(summary.contains("polar of 9 wind speeds") && summary.contains("race button /dev/gpiochip0 line 17"))
        #expect(summary.contains("line.gpx (200 m)") && summary.contains("on 127.0.0.1:3999"))
        // run carries on without a route or a line it cannot load; check-config names both, each with the file.
        let bad = "/tmp/telltale-check-bad-\(getpid()).toml"
        defer { unlink(bad) }
        try POSIX.writeFile(bad, "route = \"/nonexistent/route.gpx\"\n[race]\nline = \"/nonexistent/line.gpx\"\n")
        do {
            _ = try RunCommand.check(bad)
            Issue.record("a route and a line that cannot be read were valid")
        } catch {
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.first?.contains("route: cannot open /nonexistent/route.gpx") == true)
            #expect(lines.last?.contains("race: cannot open /nonexistent/line.gpx") == true)
        }
    }

    @Test("damaged configuration files are refused with a message, never a crash")
    func damagedFiles() throws {
        // The bench profile without its polar (a file, read from the configuration's own folder), and more tables.
        let text = try #require(readFile(projectFixtures() + "/../Boards/bench.toml"))
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let more = [
            "[alarms.text]", "shallow = \"x\"", "[race]", "sequence = [5, 4, 1, 0]", "button = 17", "[[input]]",
            "url = \"udp://[::]:10110\"",
        ]
        let whole = (lines.filter { !$0.hasPrefix("polar") }.map(String.init) + more).joined(separator: "\n")
        _ = try ConfigurationFile.parse(whole)
        let board = Array(whole.utf8)
        var state: UInt64 = 0xC0FF_EE00
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        let alphabet = Array("[]{}=\"',.#\\\n 0123456789-+eE_abcxyzé\u{0}\u{7F}".utf8)
        var refused = 0
        var read = 0
        for _ in 0..<3000 {
            var bytes = board
            for _ in 0..<(1 + next(3)) {
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes[at] = alphabet[next(alphabet.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[next(alphabet.count)], at: at)
                }
            }
            do {
                _ = try ConfigurationFile.parse(String(decoding: bytes, as: UTF8.self))
                read += 1
            } catch {
                #expect(!error.description.isEmpty)
                refused += 1
            }
        }
        #expect(refused > 500 && read > 100, "refused \(refused), read \(read)")
    }

    @Test("IPv6 URLs are read and written in brackets")
    func ipv6URLs() throws {
        #expect(try Endpoint.parse("tcp://[::1]:10110") == .tcp(host: "::1", port: 10110))
        #expect(try Endpoint.parse("udp://[::]:10110") == .udp(host: "::", port: 10110))
        #expect(Endpoint.tcp(host: "::1", port: 10110).description == "tcp://[::1]:10110")
        let configuration = try ConfigurationFile.parse("[[output]]\nurl = \"tcp://[::1]:10110\"\n")
        #expect(configuration.outputs.first?.endpoint == .tcp(host: "::1", port: 10110))
    }

    @Test("a TCP output on [::1] serves an IPv6 client")
    func ipv6Server() throws {
        let server = try TCPServer(host: "::1", port: 0)
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(server.port).bigEndian)
        inet_pton(AF_INET6, "::1", &address.sin6_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        #expect(connected == 0)
        server.service()
        let line = Array("$IIHDT,90.0,T*20\r\n".utf8)
        line.withUnsafeBytes { server.send($0) }
        server.service()
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        #expect(got == line.count && Array(buffer[0..<max(got, 0)]) == line)
    }
}

@Suite struct DefaultKindsTests {
    @Test("with a gpsd input, an output that names no kinds carries the fix as RMC, GGA and VTG")
    func gpsdPosition() throws {
        var options = RunOptions()
        options.inputs = ["gpsd://localhost:2947"]
        options.outputs = ["tcp://127.0.0.1:10110"]
        let configuration = try RunCommand.configuration(options)
        let output = try #require(configuration.outputs.first)
        #expect(configuration.kinds(of: output).isSuperset(of: [.positionRMC, .positionGGA, .positionVTG]))
        #expect(configuration.engine.kinds.contains(.positionRMC))
    }

    @Test("without gpsd, or when the output names its kinds, the default is what it was")
    func otherwiseUnchanged() throws {
        var options = RunOptions()
        options.inputs = ["tcp://127.0.0.1:10111"]
        options.outputs = ["tcp://127.0.0.1:10110"]
        let plain = try RunCommand.configuration(options)
        #expect(plain.kinds(of: try #require(plain.outputs.first)) == ComputedKind.standard)
        let named = try ConfigurationFile.parse(
            "[[input]]\nurl = \"gpsd://localhost\"\n[[output]]\nurl = \"stdout:\"\nkinds = [\"true-wind\"]\n")
        #expect(named.kinds(of: try #require(named.outputs.first)) == [.trueWind])
    }
}
