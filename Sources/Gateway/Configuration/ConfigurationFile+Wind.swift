import Engine
import Marine

/// `[wind]`: the corrections to the measured wind (heel, leeway, mast motion, the sensor's offset).
extension ConfigurationFile.Reader {
    func wind(_ table: TOMLTable, _ wind: inout WindSettings) throws(ConfigurationFile.Error) {
        let s = "wind"
        try check(
            table, s,
            allowed: [
                "heel_correction", "leeway", "leeway_coefficient", "leeway_limit", "mast_motion", "mast_height",
                "sensor_offset", "sog_fallback",
            ])
        if let value = try bool(table, "heel_correction", s) { wind.heelCorrection = value }
        var model = wind.leeway ?? LeewayModel()
        if let value = try number(table, "leeway_coefficient", s, range: 0...50) { model.coefficient = value }
        if let value = try number(table, "leeway_limit", s, range: 0...45) { model.limit = value }
        wind.leeway = model
        if let value = try bool(table, "leeway", s), !value { wind.leeway = nil }
        if let value = try bool(table, "mast_motion", s) { wind.mastMotion = value }
        if let value = try number(table, "mast_height", s, range: 0...100) { wind.mastHeight = value }
        if let value = try number(table, "sensor_offset", s, range: -180...180) { wind.sensorOffset = value }
        if let value = try bool(table, "sog_fallback", s) { wind.speedOverGroundFallback = value }
    }
}
