import ArgumentParser
import Gateway
import Testing

@testable import telltale

/// One description of the commands (``TelltaleCommands``), read two ways: by swift-argument-parser on the desktop
/// and by the Pi build's ``CommandParser``. Every flag and argument the description documents, through both, must
/// give equal option values, and each side must know exactly the flags the description lists.
@Suite struct CommandLineTests {
    /// The words that say a command's flag with its example value.
    static func words(_ flag: FlagSpec) -> [String] {
        flag.valueName == nil ? ["--" + flag.name] : ["--" + flag.name, flag.example]
    }

    /// What makes a command valid whatever flag is tried: the flags and arguments it cannot go without.
    static let context: [String: [String]] = [
        "record": ["--input", "udp://:1", "--directory", "/tmp/recordings"],
        "simulate": ["--route", "route.gpx", "--output", "/tmp/voyage"], "replay": ["voyage.nmea"],
        "alarm": ["list"], "access": ["list"], "anchor": ["drop"], "race": ["start"], "route": ["advance"],
        "check-config": ["boat.toml"],
        "inspect": ["voyage.nmea"], "weather": ["show", "gfs.grb.ttwx"],
        "fleet": ["--broker", "mqtt://127.0.0.1:1883", "--mail-from", "watch@example.org"], "tide": ["Honolulu"],
        "fleet account": ["list"],
        "fleet send": ["letter.json"],
        "route plan": ["--from", "47.29,-2.52", "--to", "47.33,-3.16", "--grib", "gfs.grb2", "--polar", "polar.csv"],
    ]

    /// Flags that replace the context rather than add to it (`tide --near` lists stations instead of predicting at
    /// one): tried alone, and left out of the all-at-once words.
    static let instead: [String: Set<String>] = ["tide": ["near", "current"]]

    func compare<C: SpecCommand>(_ type: C.Type, _ words: [String]) throws {
        let desktop = try C.parse(words).options
        let pi: C.Options = try CommandParser.parse(words)
        #expect(desktop == pi, "\(C.Options.spec.name) \(words)")
    }

    @Test("every documented flag, alone and all together, gives the same options on the desktop and on the Pi")
    func everyFlag() throws {
        var compared = 0
        for spec in TelltaleCommands.all {
            let command = try #require(Telltale.commands[spec.name], "no desktop command for \(spec.name)")
            for flag in spec.flags {
                let alone = Self.instead[spec.name]?.contains(flag.name) == true
                let words = Self.words(flag) + (alone ? [] : Self.context[spec.name] ?? [])
                try compare(command, words)
                compared += 1
            }
            // Every flag at once (a repeated one twice), and the arguments' examples.
            var all: [String] = []
            for flag in spec.flags
            where !(spec.name == "replay" && flag.name == "speed")
                && Self.instead[spec.name]?.contains(flag.name) != true
            {
                all += Self.words(flag) + (flag.repeats ? Self.words(flag) : [])
            }
            try compare(command, all + spec.arguments.map(\.example))
        }
        #expect(compared == TelltaleCommands.all.reduce(0) { $0 + $1.flags.count })
        // The desktop has a command for each row of the one table, and no other.
        #expect(Telltale.commands.keys.sorted() == TelltaleCommands.all.map(\.name).sorted())
        // The Pi has every command but the desktop's: the simulator, and the shore (its own module, never the boat's).
        #expect(
            TelltaleCommands.table.filter { $0.perform == nil }.map(\.spec.name)
                == ["simulate", "fleet", "fleet account", "fleet send"])
        #expect(
            TelltaleCommands.table.filter { $0.perform == nil }.map(\.spec.name)
                == TelltaleCommands.all.filter(\.desktopOnly).map(\.name))
    }

    @Test("the desktop commands have exactly the flags the description lists, with its help")
    func sameFlags() throws {
        for spec in TelltaleCommands.all {
            let command = try #require(Telltale.commands[spec.name])
            let help = command.helpMessage(columns: 1000)
            for flag in spec.flags {
                #expect(help.contains("--\(flag.name)"), "\(spec.name): --\(flag.name) is missing on the desktop")
                #expect(help.contains(flag.help.prefix(30)), "\(spec.name): --\(flag.name)'s help differs")
            }
            // The flags the desktop's help lists: the lines of its OPTIONS section that begin with one.
            let options = help.split(separator: "\n").drop { !$0.hasPrefix("OPTIONS:") }.dropFirst()
            let listed = options.map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("--") }.map { line in
                String(line.dropFirst(2).prefix { $0 != " " && $0 != "," && $0 != "<" })
            }
            #expect(!listed.isEmpty || spec.flags.isEmpty, "\(spec.name): no options read from \(help)")
            for name in Set(listed) where name != "help" && !name.hasPrefix("version") {
                #expect(
                    spec.flag(name) != nil, "\(spec.name): the desktop has --\(name), the description has not: \(help)")
            }
        }
    }

    @Test("a command line the description refuses is refused by both, with the same rule")
    func refusals() {
        let cases: [(String, [String])] = [
            ("replay", ["--fast", "--speed", "2", "voyage.nmea"]), ("replay", []), ("replay", ["--kind", "wind", "x"]),
            ("run", ["--log-level", "loud"]), ("race", ["fly"]), ("anchor", ["weigh"]), ("anchor", ["rode"]),
            ("alarm", ["ack", "sea-serpent"]), ("route plan", ["--from", "47.29,-2.52", "--grib", "g.grb2"]),
            ("route plan", ["--from", "95,1", "--to", "1,1", "--grib", "g", "--polar", "p"]),
            ("route plan", ["--from", "1,1", "--to", "1,2", "--grib", "g", "--polar", "p", "--performance", "500"]),
            ("record", ["--input", "udp://:1"]), ("inspect", ["--max-length", "20", "x"]),
        ]
        for (name, words) in cases {
            let command = Telltale.commands[name]!
            #expect(throws: (any Error).self, "desktop \(name) \(words)") { try command.parse(words).validate() }
            #expect(throws: CommandError.self, "pi \(name) \(words)") { try parse(command, words) }
        }
    }

    func parse<C: SpecCommand>(_ type: C.Type, _ words: [String]) throws {
        let _: C.Options = try CommandParser.parse(words)
    }
}
