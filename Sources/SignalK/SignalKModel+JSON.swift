/// The model written out: the full model and its branches (`/signalk/v1/api/...`), deltas, hello and discovery.
extension SignalKModel {
    /// The hello message a stream client gets first.
    public func hello(name: String, version: String, unixTime: Double) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("name", name)
        json.value("version", version)
        json.value("self", context)
        json.beginArray("roles")
        json.value(nil, "master")
        json.value(nil, "main")
        json.endArray()
        json.value("timestamp", SignalKTime.text(unixTime: unixTime))
        json.endObject()
        return json.text
    }

    /// The discovery document (`GET /signalk`), with endpoints on `host` (the request's Host header).
    public static func discovery(host: String, serverVersion: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginObject("endpoints")
        json.beginObject("v1")
        json.value("version", version)
        json.value("signalk-http", "http://\(host)/signalk/v1/api/")
        json.value("signalk-ws", "ws://\(host)/signalk/v1/stream")
        json.endObject()
        json.endObject()
        json.beginObject("server")
        json.value("id", "telltale")
        json.value("version", serverVersion)
        json.endObject()
        json.endObject()
        return json.text
    }

    /// One delta message of one update under any context (an AIS station's, a playback's second): its source, its
    /// time and its values in order.
    public static func delta(
        context: String, source: String, timestamp: String, values: [(path: String, value: SignalKValue)]
    ) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("context", context)
        json.beginArray("updates")
        json.beginObject(nil)
        json.value("$source", source)
        json.value("timestamp", timestamp)
        json.beginArray("values")
        for (path, value) in values {
            json.beginObject(nil)
            json.value("path", path)
            value.write("value", to: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        return json.text
    }

    /// One delta message: the updates grouped by source and timestamp, in order; `meta` for paths named in `meta`.
    public func delta(_ updates: [Update], meta: [String] = []) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("context", context)
        json.beginArray("updates")
        var index = 0
        while index < updates.count {
            let first = updates[index]
            json.beginObject(nil)
            json.value("$source", first.source)
            json.value("timestamp", first.timestamp)
            json.beginArray("values")
            while index < updates.count && updates[index].source == first.source
                && updates[index].timestamp == first.timestamp
            {
                json.beginObject(nil)
                json.value("path", updates[index].path)
                updates[index].value.write("value", to: &json)
                json.endObject()
                index += 1
            }
            json.endArray()
            json.endObject()
        }
        if !meta.isEmpty {
            json.beginObject(nil)
            json.beginArray("meta")
            for path in meta {
                json.beginObject(nil)
                json.value("path", path)
                SignalKPaths.info(path).writeMeta("value", to: &json)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.text
    }

    /// The full model (`GET /signalk/v1/api/`).
    public func fullModel() -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("version", Self.version)
        json.value("self", context)
        json.beginObject("vessels")
        writeVessel(urn, to: &json)
        writeTraffic(group: "vessels.", to: &json)
        json.endObject()
        for group in ["atons", "sar", "aircraft", "meteo"]
        where traffic.stations.contains(where: { $0.context.hasPrefix(group + ".") }) {
            json.beginObject(group)
            writeTraffic(group: group + ".", to: &json)
            json.endObject()
        }
        writeSources("sources", to: &json)
        json.endObject()
        return json.text
    }

}
