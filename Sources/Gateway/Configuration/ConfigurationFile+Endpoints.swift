import Platform

/// Every input's and output's `url`: a board's device names resolved, and the ports two of them would both take.
extension ConfigurationFile.Reader {
    func endpoint(_ table: TOMLTable, _ section: String, base: String) throws(ConfigurationFile.Error) -> Endpoint {
        guard var url = try string(table, "url", section) else { throw fail(section, "needs a url") }
        if url.contains("@") {
            guard let board else { throw fail(section + ".url", "@names need a board = \"...\" profile") }
            guard let resolved = board.resolve(url) else {
                throw fail(
                    section + ".url",
                    "the board \(board.name) has no such device (it has: "
                        + board.devices.keys.sorted().joined(separator: ", ") + ")")
            }
            url = resolved
        }
        do { return try Endpoint.parse(url, base: base) } catch { throw fail(section + ".url", error.reason) }
    }

    /// Outputs that would listen on one TCP port, and UDP inputs on one port: `run` could not open the second.
    /// `localhost` is 127.0.0.1, and 0.0.0.0 or :: takes every address of the port.
    func endpointClashes(_ config: GatewayConfiguration) -> [ConfigurationFile.Error] {
        func overlap(_ a: String, _ b: String) -> Bool {
            let any: Set<String> = ["0.0.0.0", "::", ""]
            let normal = { (host: String) in host == "localhost" ? "127.0.0.1" : host }
            return any.contains(a) || any.contains(b) || normal(a) == normal(b)
        }
        var errors: [ConfigurationFile.Error] = []
        let listeners: [(section: String, host: String, port: Int, scheme: String)] =
            config.outputs.enumerated().compactMap { index, output in
                if case .tcp(let host, let port) = output.endpoint {
                    ("output#\(index + 1)", host, port, "tcp")
                } else {
                    nil
                }
            }
            + (config.web.map { [("web", $0.host, $0.port, "tcp")] } ?? [])
            + config.inputs.enumerated().compactMap { index, input in
                if case .udp(let host, let port) = input.endpoint {
                    ("input#\(index + 1)", host, port, "udp")
                } else {
                    nil
                }
            }
        for (i, later) in listeners.enumerated() {
            for earlier in listeners[..<i]
            where earlier.scheme == later.scheme && earlier.port == later.port && overlap(earlier.host, later.host) {
                errors.append(
                    fail(
                        later.section + ".url",
                        "\(later.scheme) port \(later.port) is already taken by \(earlier.section.replacingHash) "
                            + "(\(Endpoint.bracketed(earlier.host)):\(earlier.port))"))
                break
            }
        }
        return errors
    }
}
