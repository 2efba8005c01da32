import SignalK

/// A batch of samples for the history topic (`telltale/<boat>/history`): every sample the boat took, in order,
/// numbered so that a fleet tool keeps each exactly once (a batch sent again after a lost acknowledgement or a
/// restart carries the same number), `late` when it waited in the queue while the link was down, how many samples it
/// was made with and how many of them the queue thinned away (`count` less `thinned` arrive), and how many alarms it
/// holds (never thinned).
///
///     {"boat": "arrow", "seq": 1042, "late": true, "count": 31, "thinned": 0, "alarms": 1,
///      "samples": [{"path": "navigation.position", "value": {...}, "timestamp": "...", "$source": "gps.GP"}, ...]}
public struct UplinkBatch: Hashable, Sendable {
    public var boat: String
    public var sequence: UInt64
    public var late: Bool
    public var thinned: Int
    /// Samples it was made with, and the alarms among them.
    public var count: Int
    public var alarms: Int
    public var samples: [UplinkSample]

    public init(boat: String, sequence: UInt64, late: Bool = false, samples: [UplinkSample]) {
        self.boat = boat
        self.sequence = sequence
        self.late = late
        self.thinned = 0
        self.count = samples.count
        self.alarms = samples.filter { $0.isAlarm }.count
        self.samples = samples
    }

    public var json: String {
        var out = JSONWriter()
        out.beginObject()
        out.value("boat", boat)
        out.raw("seq", String(sequence))
        out.value("late", late)
        out.value("count", count)
        out.value("thinned", thinned)
        out.value("alarms", alarms)
        out.beginArray("samples")
        for sample in samples {
            out.beginObject()
            out.value("path", sample.path)
            sample.value.write("value", to: &out)
            out.value("timestamp", sample.timestamp)
            out.value("$source", sample.source)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }

    /// A batch read back (from the queue, or by the fleet); nil when it is not one.
    public static func parse(_ bytes: some Collection<UInt8>) -> UplinkBatch? {
        guard let json = JSONValue.parse(bytes, maximumDepth: 8, maximumLength: 1 << 20),
            let boat = json["boat"]?.string, let seq = json["seq"]?.number, seq >= 0, seq < 9e15,
            let samples = json["samples"]?.array
        else { return nil }
        // A batch's counts are whole numbers a batch can hold: anything else (1e300 trapped `Int` and ended the shore
        // until 2026-12-01) is no batch.
        func tally(_ key: String) -> Int?? {
            guard let value = json[key] else { return .some(nil) }
            guard let number = value.integer, (0...1_000_000_000).contains(number) else { return nil }
            return .some(number)
        }
        guard let thinned = tally("thinned"), let count = tally("count"), let alarms = tally("alarms") else {
            return nil
        }
        var batch = UplinkBatch(boat: boat, sequence: UInt64(seq), late: json["late"]?.bool ?? false, samples: [])
        batch.thinned = thinned ?? 0
        for item in samples {
            guard let path = item["path"]?.string, let value = item["value"], let timestamp = item["timestamp"]?.string
            else { return nil }
            batch.samples.append(
                UplinkSample(
                    path: path, value: SignalKValue(json: value), timestamp: timestamp,
                    source: item["$source"]?.string ?? ""))
        }
        batch.count = count ?? batch.samples.count
        batch.alarms = alarms ?? batch.samples.filter { $0.isAlarm }.count
        return batch
    }

    /// The batch with every second sample of each path left out, alarms kept: how the queue makes room when the link
    /// has been down longer than it holds (the oldest first), the hours kept, coarser. The number left out.
    public func thinning() -> (UplinkBatch, Int) {
        var kept: [UplinkSample] = []
        var seen: [String: Int] = [:]
        var dropped = 0
        for sample in samples {
            let count = seen[sample.path, default: 0]
            seen[sample.path] = count + 1
            if sample.isAlarm || count % 2 == 0 || sample.value == .null {
                kept.append(sample)
            } else {
                dropped += 1
            }
        }
        var batch = self
        batch.samples = kept
        batch.thinned += dropped
        return (batch, dropped)
    }

    /// The batch with its alarms alone: the queue's last resort when thinning has left nothing to halve. The number
    /// left out.
    public func emptied() -> (UplinkBatch, Int) {
        var batch = self
        batch.samples = samples.filter { $0.isAlarm }
        let dropped = samples.count - batch.samples.count
        batch.thinned += dropped
        return (batch, dropped)
    }
}

extension SignalKValue {
    /// A value from its JSON: a number, text, true or false, null, a position (latitude and longitude), an attitude
    /// (roll, pitch, yaw), a notification (state, method, message), else an object of its members.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .text(value)
        case .array(let values):
            self = .object(values.enumerated().map { (String($0.offset), SignalKValue(json: $0.element)) })
        case .object(let members):
            if let latitude = json["latitude"]?.number, let longitude = json["longitude"]?.number, members.count <= 3 {
                self = .position(latitude: latitude, longitude: longitude)
            } else if let state = json["state"]?.string {
                self = .notification(
                    state: state, method: json["method"]?.array?.compactMap { $0.string } ?? [],
                    message: json["message"]?.string ?? "")
            } else if json["roll"] != nil || json["pitch"] != nil,
                members.allSatisfy({ ["roll", "pitch", "yaw"].contains($0.0) })
            {
                self = .attitude(roll: json["roll"]?.number, pitch: json["pitch"]?.number, yaw: json["yaw"]?.number)
            } else {
                self = .object(members.map { ($0.0, SignalKValue(json: $0.1)) })
            }
        }
    }
}
