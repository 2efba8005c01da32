import Engine
import Marine
import Testing

@testable import Fleet
@testable import SignalK

/// The uplink's pure parts: the hashes against their standards' vectors, the queue's records (a torn one found),
/// batches read back and thinned (alarms kept), signed commands (and every way one is refused), the sampler's rates.
@Suite struct UplinkTests {
    static func hex(_ bytes: [UInt8]) -> String { SignalKModel.hex(bytes) }

    @Test("SHA-256 and HMAC-SHA256 give the standards' test vectors; CRC-32 its check value")
    func hashes() {
        #expect(
            Self.hex(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // RFC 4231, test case 2.
        #expect(
            Self.hex(SHA256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 4231, test case 6: a key longer than the block.
        #expect(
            Self.hex(
                SHA256.hmac(
                    key: Array(repeating: 0xaa, count: 131),
                    Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    static func sample(_ path: String, _ value: SignalKValue, _ second: Int = 0) -> UplinkSample {
        UplinkSample(path: path, value: value, timestamp: "2026-11-25T10:00:0\(second).000Z", source: "gps.GP")
    }

    @Test("a batch read back is the batch; thinning keeps every alarm and every second sample of each value")
    func batches() throws {
        var samples: [UplinkSample] = []
        for second in 0..<6 {
            samples.append(Self.sample("navigation.position", .position(latitude: 50.1, longitude: -1.2), second))
            samples.append(Self.sample("environment.wind.speedTrue", .number(7.25), second))
        }
        samples.append(
            Self.sample(
                "notifications.anchor", .notification(state: "alarm", method: ["sound"], message: "Anchor dragging")))
        samples.append(Self.sample("navigation.attitude", .attitude(roll: 0.1, pitch: -0.02, yaw: nil)))
        let batch = UplinkBatch(boat: "arrow", sequence: 1042, late: true, samples: samples)
        let back = try #require(UplinkBatch.parse(Array(batch.json.utf8)))
        #expect(back == batch)
        let (thinned, dropped) = batch.thinning()
        #expect(dropped == 6 && thinned.thinned == 6)
        #expect(thinned.samples.filter { $0.isAlarm }.count == 1)
        #expect(
            thinned.samples.filter { $0.path == "navigation.position" }.map(\.timestamp).last
                == "2026-11-25T10:00:04.000Z")
        #expect(UplinkBatch.parse(Array("{\"boat\":\"x\"}".utf8)) == nil)
        #expect(UplinkBatch.parse(Array("not json".utf8)) == nil)
    }

    @Test("a batch whose counts no batch holds is no batch (1e300 ended the shore until 2026-12-01)")
    func impossibleCounts() throws {
        let samples = "\"samples\": [{\"path\": \"a.b\", \"value\": 1, \"timestamp\": \"2026-11-25T10:00:00Z\"}]"
        let good = try #require(
            UplinkBatch.parse(Array("{\"boat\": \"x\", \"seq\": 1, \"thinned\": 2, \(samples)}".utf8)))
        #expect(good.thinned == 2 && good.count == 1 && good.alarms == 0)
        for count in ["\"thinned\": 1e300", "\"count\": 1e400", "\"alarms\": -1", "\"count\": \"three\""] {
            #expect(
                UplinkBatch.parse(Array("{\"boat\": \"x\", \"seq\": 1, \(count), \(samples)}".utf8)) == nil, "\(count)")
        }
        #expect(JSONValue.parse(Array("1e300".utf8))?.integer == nil)
        #expect(JSONValue.parse(Array("-41.9".utf8))?.integer == -41)
        #expect(JSONValue.parse(Array("\"7\"".utf8))?.integer == nil)
    }

    @Test("queue records: whole ones read, a torn last one (a power cut) found and left out")
    func records() {
        let one = UplinkRecord.encode(Array("{\"a\":1}".utf8))
        let two = UplinkRecord.encode(Array("{\"b\":2}".utf8))
        let whole = one + two
        #expect(UplinkRecord.decode(whole).records.count == 2 && UplinkRecord.decode(whole).valid == whole.count)
        for cut in 1..<two.count {
            let torn = one + Array(two.prefix(cut))
            let (records, valid) = UplinkRecord.decode(torn)
            #expect(records.count == 1 && valid == one.count, "cut \(cut) bytes into the second record")
        }
        var flipped = whole
        flipped[one.count + 12] ^= 0x20
        #expect(UplinkRecord.decode(flipped).records.count == 1, "a byte changed: its CRC fails")
        // A length of 0x90000000 (negative as the Pi's 32-bit Int): the record before it kept, the rest torn.
        let huge = one + [0x54, 0x51, 0x00, 0x00, 0x00, 0x90, 0, 0, 0, 0] + Array("{}".utf8)
        #expect(UplinkRecord.decode(huge).records.count == 1 && UplinkRecord.decode(huge).valid == one.count)
    }

    static let key = Array("a key for the boat and the shore".utf8)

    static func signed(_ command: String, time: Int, nonce: String, key: [UInt8] = key, boat: String = "arrow")
        -> [UInt8]
    {
        let mac = SHA256.hmac(
            key: key, RemoteCommand.signed(boat: boat, command: command, time: Int64(time), nonce: nonce))
        return Array(
            "{\"command\":\"\(command)\",\"time\":\(time),\"nonce\":\"\(nonce)\",\"hmac\":\"\(hex(mac))\"}".utf8)
    }

    @Test("a command from shore: taken when signed, fresh and allowed; refused, with the reason, otherwise")
    func commands() {
        var seen: [String] = []
        let now = 1_764_093_600.0
        func verify(_ payload: [UInt8]) -> Result<EngineCommand, RemoteCommand.Refusal> {
            RemoteCommand.verify(payload, boat: "arrow", key: Self.key, now: now, seen: &seen)
        }
        #expect(verify(Self.signed("race start", time: Int(now) - 5, nonce: "n0000001")) == .success(.race(.start)))
        #expect(
            verify(Self.signed("acknowledge shallow", time: Int(now), nonce: "n0000002"))
                == .success(.acknowledge(.shallow)))
        #expect(verify(Self.signed("race start", time: Int(now), nonce: "n0000001")) == .failure(.replayed))
        #expect(verify(Self.signed("race start", time: Int(now) - 600, nonce: "n0000003")) == .failure(.stale(-600)))
        // Past 32 bits (2096): a time the 32-bit Pi's `Int` cannot hold is refused as stale, not a trap.
        let far = verify(Self.signed("race start", time: 4_000_000_000, nonce: "n0000006"))
        #expect(far == .failure(.stale(4_000_000_000 - now)))
        if case .failure(let refusal) = far { #expect(refusal.description.hasPrefix("2235906400 s away")) }
        #expect(
            verify(
                Self.signed("race start", time: Int(now), nonce: "n0000004", key: Array("another key entirely".utf8)))
                == .failure(.badSignature))
        #expect(
            verify(Self.signed("race start", time: Int(now), nonce: "n0000005", boat: "other"))
                == .failure(.badSignature))
        #expect(
            verify(Self.signed("route stop", time: Int(now), nonce: "n0000006")) == .failure(.notAllowed("route stop")))
        #expect(verify(Array("{\"command\":\"race start\"}".utf8)) == .failure(.missing("time")))
        #expect(verify(Array("rm -rf /".utf8)) == .failure(.notJSON))
        #expect(verify(Array(repeating: 0x7B, count: 5000)) == .failure(.notJSON))
    }

    @Test(
        "the sampler: each group at its rate, a value only when newer, a withdrawn one once as null, alarms on change")
    func sampler() {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:test")
        var sampler = UplinkSampler(groups: [.position: 10, .alarms: 0])
        model.set(
            "navigation.position", .position(latitude: 50, longitude: -1), source: "gps.GP", time: 0, timestamp: "t0")
        #expect(sampler.samples(from: model, at: 0, unixTime: 0).map(\.path) == ["navigation.position"])
        model.set(
            "navigation.position", .position(latitude: 50.1, longitude: -1), source: "gps.GP", time: 5, timestamp: "t5")
        #expect(sampler.samples(from: model, at: 5, unixTime: 5).isEmpty, "within the 10 s")
        // Re-stamped on the report's clock from its engine time (5 s before the report at 10 s).
        #expect(sampler.samples(from: model, at: 10, unixTime: 10).map(\.timestamp) == ["1970-01-01T00:00:05.000Z"])
        #expect(sampler.samples(from: model, at: 20, unixTime: 20).isEmpty, "not newer")
        model.withdraw("navigation.position", source: "gps.GP", timestamp: "t25")
        let gone = sampler.samples(from: model, at: 30, unixTime: 30)
        #expect(gone.count == 1 && gone[0].value == .null)
        #expect(sampler.samples(from: model, at: 40, unixTime: 40).isEmpty, "said once")
        model.set(
            "notifications.anchor", .notification(state: "alarm", method: ["sound"], message: "drag"),
            source: "telltale",
            time: 41, timestamp: "t41")
        #expect(sampler.samples(from: model, at: 41, unixTime: 41).map(\.path) == ["notifications.anchor"])
        #expect(sampler.samples(from: model, at: 42, unixTime: 42).isEmpty)
        // A reading stamped on the machine's clock before the GPS gave the time, sampled once the GPS's clock is
        // known (21 June 2026 10:00:00 at engine time 60): on the GPS's timeline, 10 s before.
        var late = UplinkSampler(groups: [.position: 1])
        model.set(
            "navigation.position", .position(latitude: 50.2, longitude: -1), source: "gps.GP", time: 50,
            timestamp: "2026-11-26T07:03:22.364Z")
        #expect(
            late.samples(from: model, at: 60, unixTime: 1_782_036_000).map(\.timestamp) == [
                "2026-06-21T09:59:50.000Z"
            ])
    }
}
