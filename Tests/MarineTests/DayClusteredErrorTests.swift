import Marine
import Testing

/// The tack bias's error when the tacks come from several days (``RobustStatistics/medianError(_:days:)``), and the
/// days of sailing themselves (``Manoeuvre/days(_:)``).
struct DayClusteredErrorTests {
    func tack(at hours: Double) -> Manoeuvre {
        Manoeuvre(kind: .tack, time: 1_400_000_000 + hours * 3_600, sideBefore: 1, before: 0..<1, after: 1..<2)
    }

    @Test func aNewDayStartsAfterSixHoursWithoutAManoeuvre() {
        // Out of order on purpose: the days follow the clock, not the list.
        let tacks = [tack(at: 30), tack(at: 0), tack(at: 2), tack(at: 7.5), tack(at: 13.6), tack(at: 31)]
        #expect(Manoeuvre.days(tacks) == [2, 0, 0, 0, 1, 2])
        #expect(Manoeuvre.days([]) == [])
    }

    @Test func daysThatDisagreeWidenTheError() {
        // Four days of ten tacks, each day's jumps within a degree of its own centre, the centres 8° apart: the tacks
        // alone say the median is sure to about a degree; the days say it is not.
        let centres = [-8.0, 0, 8, 16]
        var values: [Double] = []
        var days: [Int] = []
        for (day, centre) in centres.enumerated() {
            for k in 0..<10 {
                values.append(centre + Double(k - 5) * 0.2)
                days.append(day)
            }
        }
        let alone = RobustStatistics.medianError(values)
        let clustered = RobustStatistics.medianError(values, days: days)
        #expect(clustered > 2 * alone, "\(alone) \(clustered)")
        #expect(clustered > 3 && clustered < 8, "\(clustered)")
    }

    @Test func daysThatAgreeLeaveTheTacksOwnError() {
        // The same spread within each day and every day alike: nothing between the days to add.
        var values: [Double] = []
        var days: [Int] = []
        for day in 0..<4 {
            for k in 0..<10 {
                values.append(2 + Double(k - 5) * 1.5)
                days.append(day)
            }
        }
        #expect(RobustStatistics.medianError(values, days: days) == RobustStatistics.medianError(values))
        // Two days only: their spread cannot be told; the tacks' own error.
        let two = Array(values.prefix(20))
        let shifted = two.enumerated().map { $0.offset < 10 ? $0.element : $0.element + 10 }
        #expect(
            RobustStatistics.medianError(shifted, days: Array(days.prefix(20)))
                == RobustStatistics.medianError(shifted))
    }
}
