import Fleet
import SignalK
import TestSupport
import Testing

@testable import Gateway
@testable import Shore

/// The fleet's store as the panel asks it, with numbers no panel sends: refused or answered, never a trap.
@Suite struct FleetQueriesTests {
    static func ask(_ store: FleetStore, _ path: String, _ parameters: [String: String]) -> Int {
        let asked = SignalKServer.FleetRequest(path: path, parameters: parameters)
        switch FleetQueries.answer(asked, store: store, at: FleetStoreTests.now, log: Log { _ in }) {
        case .json(let status, _), .message(let status, _), .file(let status, _, _): return status
        default: return 0
        }
    }

    @Test("times past what a minute's number holds: a month of them asked for in two points is refused, not a trap")
    func farTimes() throws {
        let store = try FleetStore(temporaryFolder("fleet-queries") + "/fleet.sqlite")
        _ = try store.write([
            .batch(FleetStoreTests.batch("arrow", 1, at: FleetStoreTests.now), received: FleetStoreTests.now)
        ])
        // 1e21 s is 1.7e19 minutes, past Int64: a span drawn from the minute track trapped there (the shore stopped,
        // for every boat, at one owner's request, until 2026-12-03).
        let far = 1e21
        let later = far + 262_144  // the next doubles after 1e21 are 131,072 apart
        for (from, to) in [(far, later), (-later, -far), (-1e300, -1e300 + 1), (0, 1e20)] {
            let status = Self.ask(store, "tracks", ["from": "\(from)", "to": "\(to)", "points": "2"])
            #expect(status == 400, "tracks from \(from) to \(to)")
        }
        #expect(Self.ask(store, "boats/arrow/track.gpx", ["from": "\(far)", "to": "\(later)"]) == 400)
        #expect(Self.ask(store, "span", ["day": "99999-01-01"]) == 400)
        // The same store, asked sensibly, still answers.
        let now = FleetStoreTests.now
        #expect(Self.ask(store, "tracks", ["from": "\(now - 60)", "to": "\(now + 60)"]) == 200)
        #expect(Self.ask(store, "boats/arrow/track.gpx", [:]) == 200)
        // And the store itself, asked by the shell's own code past its range, reads nothing rather than trapping.
        #expect(try store.tracks(from: far, to: later, perBoat: 2).isEmpty)
        #expect(try store.boatsHeard(from: far, to: later).isEmpty)
    }
}
