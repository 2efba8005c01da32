import Bridge
import Engine
import N2K
import SignalK

/// The bus's devices as JSON (`GET /telltale/v1/n2k`) and as the lines `telltale n2k` prints: each address with its
/// NAME (manufacturer, function, class, instance, unique number), its product information, the source name the
/// engine's priorities and Signal K know it by, and what it sends, how many and how often.
enum N2KListing {
    static func json(_ bus: N2KBus, transport: String, name: String, now: Double) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.value("bus", transport)
        w.value("name", bus.node.settings.name.hex)
        if let address = bus.address { w.value("address", Int(address)) } else { w.null("address") }
        let state: String =
            switch bus.node.state {
            case .off: bus.listenOnly ? "listening" : "off"
            case .claiming: "claiming"
            case .claimed: "claimed"
            case .cannotClaim: "no address left"
            }
        w.value("state", state)
        w.value("messages", bus.messagesIn)
        w.value("framesOut", bus.framesOut)
        w.value("refused", bus.receiver.refused)
        w.value("fastPacketsLost", bus.receiver.fast.counters.abandoned)
        w.value("outOfRange", bus.inbound.outOfRange)
        w.value("converted", bus.inbound.converted)
        w.beginArray("devices")
        let addresses = Set(bus.traffic.keys).union(bus.devices.keys).sorted()
        for address in addresses where address != bus.address {
            let device = bus.devices[address]
            w.beginObject()
            w.value("address", Int(address))
            let deviceName = device?.name
            w.value("source", name + ":" + (deviceName?.hex ?? "@\(address)"))
            if let deviceName {
                w.value("name", deviceName.hex)
                w.value("manufacturer", deviceName.manufacturer)
                w.value("function", deviceName.function)
                w.value("class", deviceName.deviceClass)
                w.value("instance", deviceName.deviceInstance)
                w.value("unique", deviceName.uniqueNumber)
            }
            if let product = device?.product {
                w.beginObject("product")
                w.value("model", product.model)
                w.value("software", product.software)
                w.value("version", product.modelVersion)
                w.value("serial", product.serial)
                if let code = product.productCode { w.value("code", code) }
                w.endObject()
            }
            if let heard = device?.lastHeard { w.value("secondsAgo", max(0, now - heard)) }
            w.beginArray("pgns")
            for traffic in (bus.traffic[address] ?? []).sorted(by: { $0.pgn < $1.pgn }) {
                w.beginObject()
                w.value("pgn", Int(traffic.pgn))
                w.value("description", PGNCatalog.name(traffic.pgn))
                w.value("count", traffic.count)
                w.value("rate", traffic.rate)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }

    /// The listing's lines, from its JSON (the gateway's, or one made here while listening).
    static func text(_ json: JSONValue) -> String {
        var lines: [String] = []
        let address = json["address"]?.integer.map { "at address \($0)" } ?? "(\(json["state"]?.string ?? ""))"
        lines.append(
            "bus \(json["bus"]?.string ?? "?"): Telltale \(json["name"]?.string ?? "") \(address); "
                + "\(json["messages"]?.integer ?? 0) messages read")
        for device in json["devices"]?.array ?? [] {
            let number = device["address"]?.integer ?? 0
            var head = "  \(String(number).padded(3)) \(device["source"]?.string ?? "")"
            if let product = device["product"] {
                head +=
                    "  \(product["model"]?.string ?? "") \(product["software"]?.string ?? "")"
                    .trimmingTrailingSpaces
            }
            if let manufacturer = device["manufacturer"]?.integer, let function = device["function"]?.integer,
                let kind = device["class"]?.integer
            {
                head +=
                    "  (manufacturer \(manufacturer), class \(kind) function \(function)"
                    + ", instance \(device["instance"]?.integer ?? 0))"
            }
            lines.append(head)
            for pgn in device["pgns"]?.array ?? [] {
                let rate = pgn["rate"]?.number.map { " \(Self.rate($0))/s" } ?? ""
                lines.append(
                    "        \(String(pgn["pgn"]?.integer ?? 0).padded(7)) \(pgn["description"]?.string ?? "")"
                        + "  ×\(pgn["count"]?.integer ?? 0)\(rate)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func rate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension N2KService {
    /// The listing, for `GET /telltale/v1/n2k`.
    func listing(now: Double, sources: [String: SourceID]) -> String {
        N2KListing.json(bus, transport: transport.description, name: configuration.name, now: now)
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        var text = self
        while text.utf8.count < width { text += " " }
        return text
    }

    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
