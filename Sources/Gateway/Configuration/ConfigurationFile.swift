import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors

/// Reads a `telltale.toml`: TOML parsed by ``TOMLReader``, checked here key by key. Every error names the key and its
/// line; unknown keys are errors (a misspelt key must not be silently ignored on a boat).
public enum ConfigurationFile {
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int?
        public var key: String
        public var message: String
        /// Further errors found in the same file, in order.
        public var others: [Error] = []

        public init(line: Int?, key: String, message: String) {
            self.line = line
            self.key = key
            self.message = message
        }

        /// Every error, one a line.
        public var description: String {
            ([self] + others).map { error in
                (error.line.map { "line \($0): " } ?? "") + (error.key.isEmpty ? "" : error.key + ": ") + error.message
            }.joined(separator: "\n")
        }
    }

    /// Loads and validates a configuration file. Relative paths inside it are relative to its folder, or to the folder
    /// its `files` key names.
    public static func load(path: String) throws(Error) -> GatewayConfiguration {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 1 << 20) } catch {
            throw Error(line: nil, key: "", message: "cannot be read: \(POSIX.message(error.code))")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(String(decoding: bytes, as: UTF8.self), base: folder)
    }

    /// Parses configuration text.
    public static func parse(_ text: String, base: String = ".") throws(Error) -> GatewayConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLReader.parse(text)
        } catch {
            throw Error(line: error.line, key: "(syntax)", message: error.message)
        }
        var reader = Reader(lines: KeyLines(text))
        if let name = table["board"]?.string, name != "bench" {
            do {
                reader.board = try BoardProfile.load(name, from: BoardProfile.searchPaths(configurationFolder: base))
            } catch {
                throw Error(line: KeyLines(text).line("board"), key: "board", message: error.message)
            }
        }
        return try reader.configuration(table, base: reader.filesFolder(table, base: base))
    }

    /// Where each key stands in the text, including the occurrence of each `[[array]]` table, for messages.
    struct KeyLines {
        private var lines: [String: Int] = [:]

        init(_ text: String) {
            var section = ""
            var counts: [String: Int] = [:]
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.drop { $0 == " " || $0 == "\t" }
                if line.hasPrefix("[[") {
                    let name = String(line.dropFirst(2).prefix { $0 != "]" }).trimmingSpaces
                    counts[name, default: 0] += 1
                    section = "\(name)#\(counts[name]!)"
                    lines[section] = index + 1
                } else if line.hasPrefix("[") {
                    section = String(line.dropFirst().prefix { $0 != "]" }).trimmingSpaces
                    lines[section] = index + 1
                } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                    let key = String(line[..<equals]).trimmingSpaces
                    lines[section.isEmpty ? key : section + "." + key] = index + 1
                }
            }
        }

        func line(_ path: String) -> Int? { lines[path] }
    }

    struct Reader {
        let lines: KeyLines
        var board: BoardProfile?

        /// A bound as a person writes it: `50`, not `50.0`.
        static func plain(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        }

        func fail(_ path: String, _ message: String) -> Error {
            Error(line: lines.line(path), key: path.replacingHash, message: message)
        }

        func check(_ table: TOMLTable, _ section: String, allowed: Set<String>) throws(Error) {
            for key in table.keys.sorted() where !allowed.contains(key) {
                let path = section.isEmpty ? key : section + "." + key
                throw fail(path, "unknown key (known: \(allowed.sorted().joined(separator: ", ")))")
            }
        }

        func number(_ table: TOMLTable, _ key: String, _ section: String, range: ClosedRange<Double>? = nil)
            throws(Error) -> Double?
        {
            guard let value = table[key] else { return nil }
            let path = section.isEmpty ? key : section + "." + key
            guard let number = value.double ?? value.int.map(Double.init) else { throw fail(path, "must be a number") }
            if let range, !range.contains(number) {
                throw fail(path, "must be from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))")
            }
            return number
        }

        func bool(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> Bool? {
            guard let value = table[key] else { return nil }
            guard let flag = value.bool else {
                throw fail(section.isEmpty ? key : section + "." + key, "must be true or false")
            }
            return flag
        }

        func string(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else {
                throw fail(section.isEmpty ? key : section + "." + key, "must be a string")
            }
            return text
        }

        /// Each name looked up, or an error naming the unknown one and the known ones.
        func lookUp<Value>(
            _ names: [String], _ path: String, what: String, known: [String], _ find: (String) -> Value?
        ) throws(Error) -> [Value] {
            var found: [Value] = []
            for name in names {
                guard let value = find(name) else {
                    throw fail(path, "unknown \(what) \(name) (known: " + known.joined(separator: ", ") + ")")
                }
                found.append(value)
            }
            return found
        }

        func strings(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> [String]? {
            guard let value = table[key] else { return nil }
            let path = section.isEmpty ? key : section + "." + key
            guard let array = value.array else { throw fail(path, "must be a list of strings") }
            var result: [String] = []
            for element in array {
                guard let text = element.string else { throw fail(path, "must be a list of strings") }
                result.append(text)
            }
            return result
        }

        func numbers(_ table: TOMLTable, _ key: String, _ section: String, range: ClosedRange<Double>)
            throws(Error) -> [Double]?
        {
            guard let value = table[key] else { return nil }
            let path = section.isEmpty ? key : section + "." + key
            guard let array = value.array, !array.isEmpty else { throw fail(path, "must be a list of numbers") }
            var result: [Double] = []
            for element in array {
                guard let number = element.double ?? element.int.map(Double.init), range.contains(number) else {
                    throw fail(
                        path,
                        "must be a list of numbers from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))"
                    )
                }
                result.append(number)
            }
            return result
        }

        func talker(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> Talker? {
            guard let text = try string(table, key, section) else { return nil }
            guard let talker = Talker(text) else {
                throw fail(section.isEmpty ? key : section + "." + key, "a talker is two capital letters or digits")
            }
            return talker
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" || scalars.last == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    /// `output#2.url` reads as `output 2: url` in messages.
    var replacingHash: String {
        guard let hash = firstIndex(of: "#") else { return self }
        let name = self[..<hash]
        let rest = self[index(after: hash)...]
        let number = rest.prefix { $0.isNumber }
        let tail = rest.dropFirst(number.count)
        return "[[\(name)]] #\(number)" + (tail.isEmpty ? "" : " " + tail.dropFirst())
    }
}
