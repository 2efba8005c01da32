/// A branch of the model as the REST API answers it (`/signalk/v1/api/vessels/self/navigation`...): a node with its
/// children, a leaf with its value, the sources, the AIS vessels.
extension SignalKModel {
    /// The branch of the full model at `components` (the request path after `/signalk/v1/api/`); nil when there is
    /// nothing there (404).
    public func branch(_ components: [String]) -> String? {
        guard let first = components.first else { return fullModel() }
        var json = JSONWriter()
        switch first {
        case "version" where components.count == 1:
            json.value(nil, Self.version)
        case "self" where components.count == 1:
            json.value(nil, context)
        case "sources":
            guard components.count == 1 else { return nil }
            writeSources(nil, to: &json)
        case "atons", "sar", "aircraft", "meteo":
            json.beginObject()
            writeTraffic(group: first + ".", to: &json)
            json.endObject()
            guard components.count > 1 else { return json.text }
            return trafficBranch(first, components)
        case "vessels":
            if components.count == 1 {
                json.beginObject()
                writeVessel(urn, to: &json)
                writeTraffic(group: "vessels.", to: &json)
                json.endObject()
                return json.text
            }
            if components[1] != "self" && components[1] != urn { return trafficBranch(first, components) }
            let rest = Array(components.dropFirst(2))
            if rest.isEmpty {
                writeVessel(nil, to: &json)
            } else if rest == ["uuid"] {
                json.value(nil, urn)
            } else if rest == ["name"], let name {
                json.value(nil, name)
            } else if !writeNode(rest, to: &json) {
                return nil
            }
        default:
            return nil
        }
        return json.text
    }

    /// The AIS stations of one group (`vessels.`, `atons.`, ...), each under its URN.
    func writeTraffic(group: String, to json: inout JSONWriter) {
        for station in traffic.stations where station.context.hasPrefix(group) {
            _ = traffic.write(station, String(station.context.dropFirst(group.count)), to: &json)
        }
    }

    /// `vessels/urn:mrn:imo:mmsi:235000001/navigation/position` and the like; nil when not there.
    func trafficBranch(_ group: String, _ components: [String]) -> String? {
        let context = group + "." + components[1]
        guard let station = traffic.stations.first(where: { $0.context == context }) else { return nil }
        var json = JSONWriter()
        guard traffic.write(station, nil, below: Array(components.dropFirst(2)), to: &json) else { return nil }
        return json.text
    }

    func writeVessel(_ key: String?, to json: inout JSONWriter) {
        json.beginObject(key)
        json.value("uuid", urn)
        if let name { json.value("name", name) }
        writeChildren(of: [], to: &json)
        json.endObject()
    }

    func writeSources(_ key: String?, to json: inout JSONWriter) {
        json.beginObject(key)
        json.beginObject("telltale")
        json.value("label", "telltale")
        json.value("type", "computed")
        json.beginObject("computed")
        json.endObject()
        json.endObject()
        for input in sources.keys.sorted() {
            json.beginObject(input)
            json.value("label", input)
            json.value("type", "NMEA0183")
            for talker in sources[input] ?? [] {
                json.beginObject(Self.sourceName(talker))
                json.value("talker", talker)
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }

    /// Writes the node at `components` below the vessel: a leaf (one path), a field of a leaf, or a branch. False
    /// when there is none.
    func writeNode(_ components: [String], to json: inout JSONWriter) -> Bool {
        let path = components.joined(separator: ".")
        if entries[path] != nil {
            writeLeaf(path, nil, to: &json)
            return true
        }
        if components.count > 1, let leaf = entries[components.dropLast().joined(separator: ".")],
            let preferred = leaf.max(by: { $0.time < $1.time })
        {
            switch components[components.count - 1] {
            case "value": preferred.value.write(nil, to: &json)
            case "timestamp": json.value(nil, preferred.timestamp)
            case "$source": json.value(nil, preferred.source)
            case "meta": SignalKPaths.info(components.dropLast().joined(separator: ".")).writeMeta(nil, to: &json)
            default: return false
            }
            return true
        }
        let prefix = path + "."
        guard entries.keys.contains(where: { $0.hasPrefix(prefix) }) else { return false }
        json.beginObject()
        writeGroupFields(path, to: &json)
        writeChildren(of: components, to: &json)
        json.endObject()
        return true
    }

    /// Writes, as members of the object already open, every path below `components`, nested by component.
    func writeChildren(of components: [String], to json: inout JSONWriter) {
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        var open: [Substring] = []
        for path in entries.keys.sorted() where path.hasPrefix(prefix) {
            let parts = path.dropFirst(prefix.count).split(separator: ".")
            var common = 0
            while common < open.count && common < parts.count - 1 && open[common] == parts[common] { common += 1 }
            while open.count > common {
                json.endObject()
                open.removeLast()
            }
            for part in parts[common..<(parts.count - 1)] {
                json.beginObject(String(part))
                open.append(part)
                writeGroupFields(prefix + open.joined(separator: "."), to: &json)
            }
            writeLeaf(path, String(parts[parts.count - 1]), to: &json)
        }
        while !open.isEmpty {
            json.endObject()
            open.removeLast()
        }
    }

    /// Branches the specification makes value objects themselves (a course's next and previous point): their
    /// `$source` and `timestamp` are those of the newest value inside.
    static let groupsWithValueFields: Set<String> = [
        "navigation.courseGreatCircle.nextPoint", "navigation.courseGreatCircle.previousPoint",
        "navigation.courseRhumbline.nextPoint", "navigation.courseRhumbline.previousPoint",
    ]

    func writeGroupFields(_ path: String, to json: inout JSONWriter) {
        guard Self.groupsWithValueFields.contains(path) else { return }
        let inside = entries.filter { $0.key.hasPrefix(path + ".") }.values.flatMap { $0 }
        guard let newest = inside.max(by: { $0.time < $1.time }) else { return }
        json.value("$source", newest.source)
        json.value("timestamp", newest.timestamp)
    }

    /// One path's object: the preferred source's value (``preferredSource(_:)``) with its source and timestamp, its
    /// meta, and every source's value when there are several.
    func writeLeaf(_ path: String, _ key: String?, to json: inout JSONWriter) {
        guard let all = entries[path], let source = preferredSource(path),
            let preferred = all.first(where: { $0.source == source })
        else { return }
        json.beginObject(key)
        preferred.value.write("value", to: &json)
        json.value("$source", preferred.source)
        json.value("timestamp", preferred.timestamp)
        SignalKPaths.info(path).writeMeta("meta", to: &json)
        if all.count > 1 {
            json.beginObject("values")
            for entry in all {
                json.beginObject(entry.source)
                entry.value.write("value", to: &json)
                json.value("timestamp", entry.timestamp)
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }
}
