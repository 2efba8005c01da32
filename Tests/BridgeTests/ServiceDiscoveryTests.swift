import Testing

@testable import Bridge

/// DNS-SD by a one-shot mDNS query (#41: pypilot found by `_pypilot._tcp`): the question as sent, a real answer read,
/// answers in parts, and packets that are not DNS passed over.
@Suite struct ServiceDiscoveryTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map {
            UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16)!
        }
    }

    /// python-zeroconf 0.154's answer to the query below (id 0x7e12) for a service registered as pypilot's
    /// `zeroconf_service.py` registers it (`pypilot-wlan0._pypilot._tcp.local.`, server `pypilot-wlan0.local.`,
    /// 10.9.9.2, port 23322, TXT version=0.60), captured between two network namespaces: the PTR as the answer, then
    /// A, SRV, TXT and NSEC as additional records, with compressed names.
    static let zeroconfAnswer = bytes(
        "7e1284000001000100000004085f707970696c6f74045f746370056c6f63616c00000c0001c00c000c00010000119400100d707970"
            + "696c6f742d776c616e30c00c0d707970696c6f742d776c616e30c01a000100010000007800040a090902c03100210001000000"
            + "780008000000005b1ac041c0310010000100001194000d0c76657273696f6e3d302e3630c041002f0001000000780005c041000140"
    )

    @Test("the question: a PTR for the service, class IN with the unicast-answer bit, the id echoed")
    func question() {
        let packet = ServiceDiscovery.query([("_pypilot._tcp.local", .ptr)], id: 0x7e12)
        let expected: [UInt8] =
            [0x7e, 0x12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 8] + Array("_pypilot".utf8) + [4] + Array("_tcp".utf8) + [5]
            + Array("local".utf8) + [0, 0, 12, 0x80, 1]
        #expect(packet == expected)
        let read = ServiceDiscovery.read(packet)
        #expect(read != nil && read?.isResponse == false && read?.pointers.isEmpty == true)
    }

    @Test("python-zeroconf's answer: pypilot's instance, host, port and address")
    func zeroconf() throws {
        let records = try #require(ServiceDiscovery.read(Self.zeroconfAnswer))
        #expect(records.id == 0x7e12 && records.isResponse)
        let found = records.instances(of: "_pypilot._tcp.local.")
        #expect(
            found == [
                ServiceDiscovery.Instance(
                    name: "pypilot-wlan0._pypilot._tcp.local", host: "pypilot-wlan0.local", port: 23322,
                    addresses: ["10.9.9.2"])
            ])
        #expect(records.instances(of: "_signalk-http._tcp.local").isEmpty, "another service: nothing")
        var browser = ServiceBrowser(service: "_PyPilot._TCP.local.")
        let first = browser.query(at: 0)
        let completed = browser.received(Self.zeroconfAnswer)
        #expect(first != nil)
        #expect(completed, "names compared without regard to case")
        #expect(browser.found?.addresses == ["10.9.9.2"] && browser.found?.port == 23322)
        let more = browser.query(at: 100)
        #expect(browser.due == nil && more == nil, "found: no more questions")
    }

    @Test("asked again 1 s, 2 s, 4 s ... up to 30 s apart; forgotten, asked at once")
    func backoff() {
        var browser = ServiceBrowser(service: "_pypilot._tcp.local")
        var asked: [Double] = []
        var ids: Set<UInt16> = []
        for tenth in 0...1200 {
            let now = Double(tenth) / 10
            if let packet = browser.query(at: now) {
                asked.append(now)
                ids.insert(UInt16(packet[0]) << 8 | UInt16(packet[1]))
            }
        }
        #expect(asked == [0, 1, 3, 7, 15, 31, 61, 91])
        #expect(ids.count == asked.count, "each question its own id")
        let completed = browser.received(Self.zeroconfAnswer)
        #expect(completed)
        browser.forget(at: 200)
        let again = browser.query(at: 200)
        #expect(browser.found == nil && again != nil)
    }

    @Test("an answer in parts: the name, then its SRV and address asked for and read")
    func parts() throws {
        let records = try #require(ServiceDiscovery.read(Self.zeroconfAnswer))
        #expect(records.pointers.count == 1 && records.services.count == 1 && records.addresses.count == 1)
        // The PTR alone: the answer cut after its first record (the question 12..<37, the PTR 37..<65), counts set
        // to match.
        var pointerOnly = Array(Self.zeroconfAnswer[0..<65])
        pointerOnly[11] = 0
        #expect(ServiceDiscovery.read(pointerOnly)?.pointers.count == 1)
        var browser = ServiceBrowser(service: "_pypilot._tcp.local")
        _ = browser.query(at: 0)
        let partial = browser.received(pointerOnly)
        #expect(!partial)
        #expect(browser.found == nil && browser.due == 0, "asked again at once, for the rest")
        let next = browser.query(at: 0.1)
        let second = try #require(next)
        let asked = try #require(ServiceDiscovery.read(second))
        #expect(asked.isResponse == false && second[5] == 2, "the PTR and the instance's SRV")
        let completed = browser.received(Self.zeroconfAnswer)
        #expect(completed)
        #expect(browser.found?.host == "pypilot-wlan0.local")
    }

    @Test("not DNS, cut short, pointers that loop or point ahead, counts its size cannot hold: passed over, counted")
    func hostile() {
        var loop = Self.zeroconfAnswer
        // The PTR's owner (a pointer at 37) made a pointer to itself, then to a place after it.
        loop[38] = 37
        var ahead = Self.zeroconfAnswer
        ahead[38] = 200
        var counts = Self.zeroconfAnswer
        counts[6] = 0xFF
        var label = Self.zeroconfAnswer
        label[12] = 0x80
        var address = Self.zeroconfAnswer
        // The A record's length (at 89, 90) made 5: not an IPv4 address.
        address[90] = 5
        let packets: [[UInt8]] = [
            [], [1, 2, 3], Array(repeating: 0xFF, count: 64), Array(Self.zeroconfAnswer.prefix(80)), loop, ahead,
            counts, label, address, Array(repeating: 0, count: 10_000),
        ]
        var browser = ServiceBrowser(service: "_pypilot._tcp.local")
        for packet in packets {
            #expect(ServiceDiscovery.read(packet) == nil, "\(packet.prefix(16))")
            let completed = browser.received(packet)
            #expect(!completed)
        }
        #expect(browser.unreadable == packets.count && browser.found == nil)
        // Every cut and every single byte changed: never a crash, never an instance from a broken name.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4000 {
            var packet = Self.zeroconfAnswer
            packet[Int.random(in: 0..<packet.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            packet = Array(packet.prefix(Int.random(in: 0...packet.count, using: &generator)))
            if let instance = ServiceDiscovery.read(packet)?.instances(of: "_pypilot._tcp.local").first {
                #expect(instance.port >= 0 && instance.port < 65536)
            }
        }
    }
}
