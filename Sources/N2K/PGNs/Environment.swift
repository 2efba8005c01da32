/// The temperatures, humidity and pressure of 130310 to 130314, one kind of message's values each.
public struct Environment: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case obsolete, parameters, temperature, humidity, pressure }
    public var kind: Kind
    public var sid: Int?
    public var instance: Int?
    /// canboat's TEMPERATURE_SOURCE (0 sea, 1 outside, 2 inside...) or PRESSURE_SOURCE (0 atmospheric...).
    public var source: Int?
    public var waterTemperature: Double?
    public var airTemperature: Double?
    /// A temperature of `source`.
    public var temperature: Double?
    /// Percent.
    public var humidity: Double?
    public var pressure: Double?

    public init(pgn: UInt32, _ reader: inout N2KReader) {
        kind = .parameters
        switch pgn {
        case 130310:
            typealias F = CanboatPGNs.EnvironmentalParametersObsolete
            kind = .obsolete
            sid = reader.integer(F.sid)
            waterTemperature = reader.value(F.waterTemperature)
            airTemperature = reader.value(F.outsideAmbientAirTemperature)
            pressure = reader.value(F.atmosphericPressure)
        case 130311:
            typealias F = CanboatPGNs.EnvironmentalParameters
            sid = reader.integer(F.sid)
            source = reader.integer(F.temperatureSource)
            temperature = reader.value(F.temperature)
            humidity = reader.value(F.humidity)
            pressure = reader.value(F.atmosphericPressure)
        case 130312:
            typealias F = CanboatPGNs.Temperature
            kind = .temperature
            sid = reader.integer(F.sid)
            instance = reader.integer(F.instance)
            source = reader.integer(F.source)
            temperature = reader.value(F.actualTemperature)
        case 130313:
            typealias F = CanboatPGNs.Humidity
            kind = .humidity
            sid = reader.integer(F.sid)
            instance = reader.integer(F.instance)
            source = reader.integer(F.source)
            humidity = reader.value(F.actualHumidity)
        default:
            typealias F = CanboatPGNs.ActualPressure
            kind = .pressure
            sid = reader.integer(F.sid)
            instance = reader.integer(F.instance)
            source = reader.integer(F.source)
            pressure = reader.value(F.pressure)
        }
        if kind == .parameters || kind == .temperature, source == 0 { waterTemperature = temperature }
        if kind == .parameters || kind == .temperature, source == 1 { airTemperature = temperature }
    }

    public init(sid: Int? = nil, waterTemperature: Double?) {
        kind = .temperature
        self.sid = sid
        instance = 0
        source = 0
        temperature = waterTemperature
        self.waterTemperature = waterTemperature
    }

    /// A temperature of `source` (canboat's TEMPERATURE_SOURCE: 0 sea, 1 outside air), kelvin.
    public init(sid: Int? = nil, temperature: Double?, source: Int) {
        kind = .temperature
        self.sid = sid
        instance = 0
        self.source = source
        self.temperature = temperature
        if source == 0 { waterTemperature = temperature }
        if source == 1 { airTemperature = temperature }
    }

    /// The outside humidity, percent.
    public init(sid: Int? = nil, humidity: Double?) {
        kind = .humidity
        self.sid = sid
        instance = 0
        source = 1
        self.humidity = humidity
    }

    public init(sid: Int? = nil, pressure: Double?) {
        kind = .pressure
        self.sid = sid
        instance = 0
        source = 0
        self.pressure = pressure
    }

    /// 130312 (a temperature), 130313 (a humidity) or 130314 (a pressure), as Telltale sends them.
    public var payload: N2KPayload {
        var w = N2KWriter(count: 8)
        if kind == .humidity {
            typealias F = CanboatPGNs.Humidity
            F.sid.write(sid.map(Double.init), into: &w)
            F.instance.writeRaw(Int64(instance ?? 0), into: &w)
            F.source.writeRaw(Int64(source ?? 1), into: &w)
            F.actualHumidity.write(humidity, into: &w)
            F.setHumidity.write(nil, into: &w)
        } else if kind == .pressure {
            typealias F = CanboatPGNs.ActualPressure
            F.sid.write(sid.map(Double.init), into: &w)
            F.instance.writeRaw(Int64(instance ?? 0), into: &w)
            F.source.writeRaw(Int64(source ?? 0), into: &w)
            F.pressure.write(pressure, into: &w)
        } else {
            typealias F = CanboatPGNs.Temperature
            F.sid.write(sid.map(Double.init), into: &w)
            F.instance.writeRaw(Int64(instance ?? 0), into: &w)
            F.source.writeRaw(Int64(source ?? 0), into: &w)
            F.actualTemperature.write(temperature, into: &w)
            F.setTemperature.write(nil, into: &w)
        }
        return N2KPayload(w.bytes)
    }
}

extension Environment {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let e = self
        switch e.kind {
        case .obsolete:
            return [
                ("sid", .integer(e.sid)), ("waterTemperature", .number(e.waterTemperature)),
                ("outsideAmbientAirTemperature", .number(e.airTemperature)),
                ("atmosphericPressure", .number(e.pressure)),
            ]
        case .parameters:
            return [
                ("sid", .integer(e.sid)), ("temperatureSource", .integer(e.source)),
                ("temperature", .number(e.temperature)),
                ("humidity", .number(e.humidity)), ("atmosphericPressure", .number(e.pressure)),
            ]
        case .temperature:
            return [
                ("sid", .integer(e.sid)), ("instance", .integer(e.instance)), ("source", .integer(e.source)),
                ("actualTemperature", .number(e.temperature)),
            ]
        case .humidity:
            return [
                ("sid", .integer(e.sid)), ("instance", .integer(e.instance)), ("source", .integer(e.source)),
                ("actualHumidity", .number(e.humidity)),
            ]
        case .pressure:
            return [
                ("sid", .integer(e.sid)), ("instance", .integer(e.instance)), ("source", .integer(e.source)),
                ("pressure", .number(e.pressure)),
            ]
        }
    }
}
