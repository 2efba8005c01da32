import NMEA

@testable import SignalK

extension SignalKModel {
    /// A sentence taken as the router hands one over: decoded once, with its talker.
    mutating func observe(_ sentence: Sentence, input: String, at time: Double, unixTime: Double) {
        guard let message = try? Message(sentence) else { return }
        let talker = sentence.address.talker.map { $0.description } ?? "P"
        observe(message, talker: talker, input: input, at: time, unixTime: unixTime)
    }
}
