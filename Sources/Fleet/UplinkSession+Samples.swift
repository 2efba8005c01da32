import Engine
import SignalK

/// What goes ashore from the model, and what comes from shore: the live values and alarms at their rates, the
/// samples gathered into numbered batches for the queue, and signed commands checked before they reach the engine.
extension UplinkSession {
    /// After the engine's report: the samples due, published live when connected and gathered for the next batch;
    /// the alarm list when it changed; a batch made once `batchSeconds` of samples are gathered.
    mutating func report(
        _ model: SignalKModel, unixTime: Double, time: Double, at now: Double, _ out: inout [Action]
    ) {
        let samples = sampler.samples(from: model, at: time, unixTime: unixTime)
        for sample in samples {
            gathering.append(sample)
            if connected {
                out.append(
                    .publish(
                        topic: settings.root + sample.path.split(separator: ".").joined(separator: "/"),
                        payload: sample.json, retain: true))
            }
        }
        if samples.contains(where: { $0.isAlarm }) { alarms(model, &out) }
        if gatheringSince == nil { gatheringSince = now }
        if let since = gatheringSince, now - since >= settings.batchSeconds, !gathering.isEmpty {
            out.append(.append(UplinkBatch(boat: settings.boat, sequence: next, late: !connected, samples: gathering)))
            next += 1
            gathering.removeAll(keepingCapacity: true)
            gatheringSince = now
        }
    }

    /// The active alarms, retained under `alarms`, when the list changed.
    private mutating func alarms(_ model: SignalKModel, _ out: inout [Action]) {
        var json = JSONWriter()
        json.beginArray()
        for (path, list) in model.entries.sorted(by: { $0.key < $1.key }) where path.hasPrefix("notifications.") {
            guard let entry = list.first, case .notification(let state, _, let message) = entry.value, state != "normal"
            else { continue }
            json.beginObject()
            json.value("path", path)
            json.value("state", state)
            json.value("message", message)
            json.value("timestamp", entry.timestamp)
            json.endObject()
        }
        json.endArray()
        guard json.text != alarmList else { return }
        alarmList = json.text
        if connected { out.append(.publish(topic: settings.root + "alarms", payload: json.text, retain: true)) }
    }

    /// A message from the broker: a command from shore on `commands`, taken only when signed, fresh and allowed.
    mutating func message(topic: String, payload: [UInt8], wallClock: Double, _ out: inout [Action]) {
        guard settings.commands, topic == settings.root + "commands" else { return }
        guard let key = settings.commandKey else {
            refusedCommands += 1
            say(.warning, "uplink.command.no-key", "uplink: a command from shore refused: no command_key is set", &out)
            return
        }
        switch RemoteCommand.verify(payload, boat: settings.boat, key: key, now: wallClock, seen: &nonces) {
        case .success(let command):
            out.append(.command(command))
        case .failure(let refusal):
            refusedCommands += 1
            say(.warning, "uplink.command." + refusal.kind, "uplink: a command from shore refused: \(refusal)", &out)
        }
    }

    /// Messages from the broker over the client's bound, dropped unread: counted with the refusals.
    public mutating func droppedMessages(_ count: Int) { refusedCommands += count }
}
