import Marine

extension Engine {
    /// The tide and current stations near the boat from now on (the shell finds them when the engine asks,
    /// ``takeTideRequest()``). Their predictions are read at the next second.
    public mutating func setTides(_ stations: TideStations) {
        tides.set(stations)
        tides.lastUpdate = -.infinity
    }

    /// Where the engine wants the stations near: the boat's position when it has moved on since they were last
    /// asked for; nil when nothing is to be asked. Taken once.
    public mutating func takeTideRequest() -> GeoPoint? {
        defer { tides.request = nil }
        return tides.request
    }

    /// The stations near the boat, as last handed over.
    public var tideStations: TideStations? { tides.stations }

    /// Once a second: the stations asked for when the boat has moved on, the tide and the predicted stream at the
    /// boat, the current measured.
    mutating func updateTides(at now: Double) {
        guard now - tides.lastUpdate >= 1 || now < tides.lastUpdate else {
            values.tide = tides.lastReport
            values.predictedStream = tides.lastStream
            values.measuredCurrent = tides.current.value
            return
        }
        tides.lastUpdate = now
        measureCurrent()
        values.measuredCurrent = tides.current.value
        tides.lastReport = nil
        tides.lastStream = nil
        if let point = values.position?.point {
            tides.ask(at: point, now: now, settings: configuration.tides)
            if let utc = unixTime(at: now) {
                tides.lastReport = tides.report(
                    utc: utc, point: point, depth: values.depth, settings: configuration.tides)
                tides.lastStream = tides.stream(utc: utc, point: point)
            }
        }
        values.tide = tides.lastReport
        values.predictedStream = tides.lastStream
    }

    /// One second of the current the instruments see: over the ground less through the water. Nothing is measured
    /// without a log of its own (speed over ground standing in for it), a true heading, or a fix's course.
    mutating func measureCurrent() {
        guard let sog = values.speedOverGround, let cog = values.courseOverGround, let stw = values.speedThroughWater,
            !values.speedIsOverGround, let heading = values.headingTrue
        else {
            tides.current.reset()
            return
        }
        tides.current.add(ground: (sog, cog), water: (stw, heading + (values.leeway ?? 0)))
    }
}
