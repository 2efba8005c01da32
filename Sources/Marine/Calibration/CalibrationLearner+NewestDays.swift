extension CalibrationLearner {
    /// The check on the newest days (``NewestDaysCheck``): the newest days of `samples`, back until their `tacks` are
    /// ``minimumCount`` or more, held out; the calibration learnt on every day before them; their tacks' true wind
    /// jumps with it and without. A day is a day on the water: a new one after ``Manoeuvre/dayGap`` hours without a
    /// second of sailing. Nil with one day only, or too few tacks on the newest days with any day left before them.
    public func newestDaysCheck(_ samples: [SailingSample], _ tacks: [Manoeuvre]) -> NewestDaysCheck? {
        let starts = samples.indices.dropFirst().filter {
            samples[$0].time - samples[$0 - 1].time > Manoeuvre.dayGap * 3_600
        }
        for (count, start) in starts.reversed().enumerated() {
            let held = tacks.filter { $0.before.lowerBound >= start }
            guard held.count >= minimumCount else { continue }
            var before = self
            before.checksNewestDays = false
            let learnt = before.learn(Array(samples[..<start])).calibration
            return NewestDaysCheck(
                from: samples[start].time, days: count + 1, tacks: held.count, learntFrom: start,
                uncalibrated: CalibrationReport.bias(samples, held, SailingCalibration()),
                calibrated: CalibrationReport.bias(samples, held, learnt))
        }
        return nil
    }
}
