import Fleet
import Foundation
import Testing

@testable import Gateway
@testable import Shore

/// The race office's races file: a season of races read, and each mistake named with its line.
@Suite struct RaceFileTests {
    static let season = """
        # Wednesday evenings
        [[race]]
        name = "Wednesday 3"
        start = "2026-06-17T18:30:00Z"
        time_limit = "2026-06-17T21:00:00Z"
        classes = ["IRC 1", "Sonar"]
        starts = { Sonar = "2026-06-17T18:35:00Z" }
        line = [[50.7655, -1.2985], [50.7665, -1.2935]]
        zone = 80
        marks = [
          { name = "Gurnard", at = [50.7700, -1.3300] },
          { name = "Hill Head", at = [50.8000, -1.2500], zone = 300 },
        ]

        [[race]]
        name = "Wednesday 4"
        start = "2026-06-24T18:30:00Z"
        line = [[50.7655, -1.2985], [50.7665, -1.2935]]
        finish = [[50.7600, -1.3000], [50.7600, -1.2990]]
        marks = [{ name = "Gurnard", at = [50.77, -1.33] }]
        """

    @Test("a season's races: guns, classes, marks with their zones, the finish (the start line when none)")
    func season() throws {
        let races = try RaceFile.parse(Self.season)
        #expect(races.count == 2)
        let first = races[0]
        #expect(first.name == "Wednesday 3" && first.classes == ["IRC 1", "Sonar"])
        #expect(first.gun("Sonar") - first.gun("IRC 1") == 300 && first.timeLimit == first.start + 9_000)
        #expect(first.marks.map(\.zone) == [80, 300] && first.marks[1].name == "Hill Head")
        #expect(first.finish.0 == first.line.0 && first.finish.1 == first.line.1)
        #expect(races[1].finish.0.latitude == 50.76 && races[1].marks[0].zone == 100 && races[1].timeLimit == nil)
        #expect(first.length > 5_000 && first.length < 20_000)
    }

    @Test(
        "mistakes named with their line",
        arguments: [
            ("start = \"2026-06-17T18:30:00Z\"", "start = \"half past six\"", "line 4: race 1 start"),
            ("zone = 80", "zone = 1", "line 9: race 1 zone"),
            ("[50.8000, -1.2500]", "[95, -1.25]", "race 1 marks"),
            ("name = \"Wednesday 4\"", "name = \"Wednesday 4\"\ncolour = 1", "race 2 colour: is not known"),
            ("finish = [[50.7600, -1.3000], [50.7600, -1.2990]]", "finish = [[50.76, -1.3]]", "race 2 finish"),
            (
                "[[50.7655, -1.2985], [50.7665, -1.2935]]\nzone", "[[50.7655, -1.2985], [50.7655, -1.2985]]\nzone",
                "race 1 line: must be 1 m"
            ),
        ])
    func mistakes(_ change: (String, String, String)) {
        let text = Self.season.replacingOnce(change.0, with: change.1)
        #expect(text != Self.season)
        #expect(throws: RaceFile.Failure.self) { try RaceFile.parse(text) }
        do {
            _ = try RaceFile.parse(text)
        } catch {
            #expect(error.description.contains(change.2), "\(error.description)")
        }
        #expect(throws: RaceFile.Failure.self) { try RaceFile.parse("[race]\nname = 1\n") }
        #expect(throws: RaceFile.Failure.self) { try RaceFile.parse("") }
    }
}

extension String {
    fileprivate func replacingOnce(_ old: String, with new: String) -> String {
        guard let range = range(of: old) else { return self }
        return replacingCharacters(in: range, with: new)
    }
}
