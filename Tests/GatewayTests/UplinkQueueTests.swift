import Fleet
import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway

/// The uplink's queue on disk: what a restart finds (numbers never given twice, torn records cut off), what the
/// broker acknowledged gone, and a long outage thinned oldest first with its alarms kept.
@Suite struct UplinkQueueTests {
    func batch(_ queue: UplinkQueue, samples: Int = 10, alarm: Bool = false) -> UplinkBatch {
        var list: [UplinkSample] = []
        for index in 0..<samples {
            list.append(
                UplinkSample(
                    path: "navigation.speedOverGround", value: .number(Double(index) * 0.1),
                    timestamp: "2026-06-21T10:00:\(index < 10 ? "0" : "")\(index).000Z", source: "gps.GP"))
        }
        if alarm {
            list.append(
                UplinkSample(
                    path: "notifications.depth",
                    value: .notification(state: "alarm", method: ["sound"], message: "Shallow"),
                    timestamp: "2026-06-21T10:00:05.000Z", source: "telltale.computed"))
        }
        return UplinkBatch(boat: "arrow", sequence: queue.take(), samples: list)
    }

    func events() -> (Log, () -> [LogEvent]) {
        final class Box { var events: [LogEvent] = [] }
        let box = Box()
        return (Log { box.events.append($0) }, { box.events })
    }

    @Test("a restart goes on from the last number given, acknowledged or not; what was acknowledged is not sent again")
    func restartNumbering() throws {
        let folder = temporaryFolder("uplink-queue")
        let (log, _) = events()
        let queue = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
        for _ in 0..<5 { try queue.append(batch(queue)) }
        queue.acknowledge(through: 3, at: 0)
        #expect(queue.waiting == 2)
        let again = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
        #expect(again.acked == 3)
        #expect(again.take() == 6)
        #expect(again.batches(after: again.acked, count: 10).map(\.sequence) == [4, 5])
    }

    @Test("an acknowledgement past the last number taken counts no more than what was taken (it stopped the gateway)")
    func acknowledgedPastTheEnd() throws {
        let folder = temporaryFolder("uplink-queue-past")
        let (log, _) = events()
        let queue = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
        for _ in 0..<2 { try queue.append(batch(queue)) }
        queue.acknowledge(through: 9, at: 0, force: true)
        #expect(queue.acked == 2 && queue.waiting == 0)
        #expect(UplinkQueue(folder: folder, limit: 1 << 20, log: log).take() == 3)
    }

    @Test(
        "a segment acknowledged whole and deleted: the mark is on disk first, so a kill after it never reuses a number")
    func segmentDeletedAfterTheMark() throws {
        let folder = temporaryFolder("uplink-queue-kill")
        let (log, _) = events()
        // A small queue: segments of 2 KB, a few batches each.
        let queue = UplinkQueue(folder: folder, limit: 16 * 1024, log: log)
        for _ in 0..<12 { try queue.append(batch(queue)) }
        #expect(queue.segments.count > 1)
        // Acknowledged within a second of the last write of the mark: only a segment going writes it now.
        queue.acknowledge(through: 1, at: 100, force: true)
        queue.acknowledge(through: 12, at: 100.5)
        #expect(queue.segments.isEmpty)
        // Killed here (nothing more written): the restart must not give 1...12 again.
        let again = UplinkQueue(folder: folder, limit: 16 * 1024, log: log)
        #expect(again.take() == 13)
        #expect(again.waiting == 1)
    }

    @Test("a broken acknowledgement file (a number no batch has, UInt64's largest) starts from the beginning, no trap")
    func brokenAcked() throws {
        let folder = temporaryFolder("uplink-queue-acked")
        let (log, _) = events()
        for text in ["18446744073709551615\n", "9000000000000000\n", "-3\n", "many\n"] {
            try POSIX.writeFileAtomically(folder + "/acked", Array(text.utf8))
            let queue = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
            #expect(queue.acked == 0 && queue.take() == 1, "acked \(text)")
        }
    }

    @Test("a torn last record (a power cut mid-write) is cut off and said; the records before it kept")
    func tornRecord() throws {
        let folder = temporaryFolder("uplink-queue-torn")
        let (log, logged) = events()
        let queue = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
        for _ in 0..<3 { try queue.append(batch(queue)) }
        let path = queue.segments[0].path
        var bytes = try POSIX.readFile(path, limit: 1 << 20)
        bytes.removeLast(7)
        try POSIX.writeFileAtomically(path, bytes)
        let again = UplinkQueue(folder: folder, limit: 1 << 20, log: log)
        #expect(again.batches(after: 0, count: 10).map(\.sequence) == [1, 2])
        #expect(logged().contains { $0.id == "uplink.torn" })
        #expect(again.take() == 3)
    }

    @Test("past its limit the queue thins its oldest segment (every second sample), never an alarm, and counts it")
    func thinning() throws {
        let folder = temporaryFolder("uplink-queue-thin")
        let (log, _) = events()
        let queue = UplinkQueue(folder: folder, limit: 16 * 1024, log: log)
        for index in 0..<60 { try queue.append(batch(queue, samples: 20, alarm: index % 10 == 0)) }
        #expect(queue.size <= 16 * 1024 + queue.segmentBytes)
        #expect(queue.thinnedTotal > 0)
        let kept = queue.batches(after: 0, count: 100)
        #expect(kept.map(\.sequence) == Array(1...60), "every batch kept, thinner")
        #expect(kept.allSatisfy { $0.samples.count + $0.thinned == $0.count })
        #expect(kept.reduce(0) { $0 + $1.thinned } == queue.thinnedTotal)
        #expect(kept.filter { $0.sequence % 10 == 1 }.allSatisfy { $0.alarms == 1 && $0.samples.last?.isAlarm == true })
        #expect(kept.first!.thinned > 0 && kept.last!.thinned == 0, "the oldest first, the newest whole")
    }
}

extension UplinkQueueTests {
    @Test(
        "an outage of months: the queue stays within its limit, thinned, then emptied, then the oldest given up, said")
    func monthsOfOutage() throws {
        let folder = temporaryFolder("uplink-queue-months")
        let (log, logged) = events()
        let queue = UplinkQueue(folder: folder, limit: 16 * 1024, log: log)
        for index in 0..<400 { try queue.append(batch(queue, samples: 12, alarm: index % 50 == 0)) }
        #expect(queue.size <= 16 * 1024 + queue.segmentBytes)
        let kept = queue.batches(after: queue.acked, count: 1000)
        #expect(queue.droppedBatches > 0 && kept.first?.sequence == queue.acked + 1)
        #expect(kept.map(\.sequence) == Array((queue.acked + 1)...400), "the rest, numbered without a gap")
        #expect(kept.filter { $0.sequence % 50 == 1 }.allSatisfy { $0.samples.contains { $0.isAlarm } })
        #expect(kept.first!.samples.allSatisfy { $0.isAlarm }, "the oldest kept down to its alarms")
        #expect(logged().contains { $0.id == "uplink.full" })
        // The mark on disk says what was given up: a restart does not send it.
        #expect(UplinkQueue(folder: folder, limit: 16 * 1024, log: log).acked == queue.acked)
    }
}

/// `[uplink]` read: the broker's URL, the boat's name (from `[web] name` when not given), groups and rates, and every
/// value out of range refused with its key.
@Suite struct UplinkConfigurationTests {
    @Test("[uplink] in the configuration: broker, boat from [web] name, groups, rates, queue, commands")
    func configuration() throws {
        let config = try ConfigurationFile.parse(
            """
            [web]
            name = "Arrow-7"
            [uplink]
            broker = "mqtts://[fd00::1]:8884"
            ca = "ca.pem"
            send = ["position", "wind", "alarms"]
            batch_seconds = 5
            queue_mb = 0.5
            commands = true
            command_key = "sixteen chars ok"
            [uplink.rates]
            wind = 2
            """, base: "/etc/telltale")
        let uplink = try #require(config.uplink)
        #expect(uplink.host == "fd00::1" && uplink.port == 8884 && uplink.tls)
        #expect(uplink.boat == "Arrow-7", "the boat's name from [web] name")
        #expect(uplink.ca == "/etc/telltale/ca.pem")
        #expect(Set(uplink.groups.keys) == [.position, .wind, .alarms])
        #expect(uplink.groups[.wind] == 2 && uplink.groups[.position] == 10)
        #expect(uplink.batchSeconds == 5 && uplink.queueBytes == 524_288 && uplink.commands)
        #expect(try ConfigurationFile.parse("[uplink]\nbroker = \"mqtt://shore\"").uplink?.port == 1883)
        for bad in [
            "[uplink]\nboat = \"a\"", "[uplink]\nbroker = \"http://shore\"", "[uplink]\nbroker = \"mqtt://shore:0\"",
            "[uplink]\nbroker = \"mqtts://shore\"", "[uplink]\nbroker = \"mqtt://s\"\nboat = \"a/b\"",
            "[uplink]\nbroker = \"mqtt://s\"\nsend = [\"gossip\"]", "[uplink]\nbroker = \"mqtt://s\"\nqueue_mb = 0.01",
            "[uplink]\nbroker = \"mqtt://s\"\ncommands = true\ncommand_key = \"short\"",
            "[uplink]\nbroker = \"mqtt://s\"\nsend = [\"position\"]\n[uplink.rates]\nwind = 5",
            "[uplink]\nbroker = \"mqtt://s\"\n[uplink.rates]\nposition = 0.5",
            "state_file = \"\"\n[uplink]\nbroker = \"mqtt://s\"",
        ] {
            #expect(throws: ConfigurationFile.Error.self, "\(bad)") { try ConfigurationFile.parse(bad) }
        }
    }
}
