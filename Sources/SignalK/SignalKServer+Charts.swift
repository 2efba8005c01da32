/// The charts a phone's chart page draws: the list (and the online layers the configuration offers) and each tile of
/// an MBTiles file, `GET /charts/` and `GET /charts/<name>/<z>/<x>/<y>` (with or without `.png`/`.jpg`). The protocol
/// only checks and routes: the files are the shell's, which answers with
/// ``answer(_:status:contentType:body:model:at:unixTime:_:)``. A name is letters, digits, `.`, `_` and `-` (never a
/// path), zoom 0 to 24, x and y inside the zoom's square.
extension SignalKServer {
    public enum ChartRequest {
        public enum Kind: Hashable, Sendable {
            case list
            case tile(name: String, z: Int, x: Int, y: Int)
            /// The offline base map's bins of one resolution (#42): `/charts/.basemap/<c|l|i|h|f>/<bin>,<bin>...`, at
            /// most 64 (a chart's name never begins with a dot).
            case baseMap(resolution: UInt8, bins: [Int])
            /// Places by the beginning of their name (#42): `/charts/.gazetteer/<text>` (1 to 40 bytes, decoded).
            case places(query: String)
        }
    }

    static let chartsPath = "/charts"

    /// What a path below ``chartsPath`` asks for; nil when it is not a chart's list or tile.
    public static func chartKind(_ path: String) -> ChartRequest.Kind? {
        guard path.hasPrefix(chartsPath) else { return nil }
        let parts = path.dropFirst(chartsPath.count).split(separator: "/", omittingEmptySubsequences: false)
        if parts.isEmpty || parts == [""] || parts == ["", ""] { return .list }
        if parts.count == 3, parts[0].isEmpty, parts[1] == ".gazetteer" {
            // The path comes percent-decoded.
            let query = String(parts[2])
            guard !query.isEmpty, query.utf8.count <= 40, query.utf8.allSatisfy({ $0 >= 32 && $0 != 127 }) else {
                return nil
            }
            return .places(query: query)
        }
        if parts.count == 4, parts[0].isEmpty, parts[1] == ".basemap" {
            let letters: [UInt8] = [0x63, 0x6C, 0x69, 0x68, 0x66]
            let letter = Array(parts[2].utf8)
            guard letter.count == 1, letters.contains(letter[0]) else { return nil }
            var bins: [Int] = []
            for text in parts[3].split(separator: ",", omittingEmptySubsequences: false) {
                guard !text.isEmpty, text.count <= 6, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let bin = Int(String(text)), bins.count < 64
                else { return nil }
                bins.append(bin)
            }
            return .baseMap(resolution: letter[0], bins: bins)
        }
        guard parts.count == 5, parts[0].isEmpty else { return nil }
        let name = parts[1]
        guard !name.isEmpty, name.count <= 64, name.first != ".",
            name.utf8.allSatisfy({ byte in
                (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
                    || byte == 46 || byte == 95
            })
        else { return nil }
        var last = parts[4]
        for suffix in [".png", ".jpg", ".jpeg", ".webp"] where last.hasSuffix(suffix) {
            last = last.dropLast(suffix.count)
        }
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 8, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(text))
        }
        guard let z = number(parts[2]), let x = number(parts[3]), let y = number(last), z <= 24 else { return nil }
        let side = 1 << z
        guard x < side, y < side else { return nil }
        return .tile(name: String(name), z: z, x: x, y: y)
    }

    /// Routes a request below ``chartsPath``: GET or HEAD only, to anyone who may read.
    mutating func charts(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool, _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            act(.send(connection: id, bytes: HTTPResponse.error(status, message, keepAlive: keepAlive)))
            if !keepAlive { close(id, &connection, act) }
        }
        guard request.method == "GET" || request.method == "HEAD" else { return refuse(405, "GET only") }
        guard let kind = Self.chartKind(request.path) else {
            counters.refused += 1
            return refuse(404, "a chart's tile is /charts/<name>/<z>/<x>/<y>")
        }
        var cacheable = false
        if case .tile = kind { cacheable = true }
        if case .baseMap = kind { cacheable = true }
        if case .places = kind { cacheable = true }
        ask(
            .chart(kind), id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD",
            cacheable: cacheable, act)
    }
}
