import Engine
import Marine

extension SignalKModel {
    /// The tide at the nearest station as signalk-tides publishes it (heights in metres above the station's datum,
    /// times as text), the depth at the next low water, the stream predicted at the boat, and the current measured.
    static func tideValues(_ values: InstrumentValues, _ put: (String, SignalKValue?) -> Void) {
        let tide = values.tide
        put("environment.tide.heightNow", number(tide?.height))
        put("environment.tide.heightHigh", number(tide?.nextHigh?.value))
        put("environment.tide.timeHigh", tide?.nextHigh.map { .text(SignalKTime.text(unixTime: $0.time)) })
        put("environment.tide.heightLow", number(tide?.nextLow?.value))
        put("environment.tide.timeLow", tide?.nextLow.map { .text(SignalKTime.text(unixTime: $0.time)) })
        put("environment.tide.depthAtLow", number(tide?.depthAtNextLow))
        put("environment.tide.streamSetTrue", radians(values.predictedStream?.set))
        put("environment.tide.streamDrift", number(values.predictedStream?.drift))
        put("environment.current.setTrue", radians(values.measuredCurrent?.set))
        put("environment.current.drift", number(values.measuredCurrent?.drift))
    }
}
