import SignalK
import Testing

@Suite struct SignalKTimeTests {
    @Test("RFC 3339 times past 2038 (2^31 seconds) read and written back, as a 32-bit Pi must (it trapped there)")
    func past2038() {
        #expect(SignalKTime.unixTime("2038-01-19T03:14:08Z") == 2_147_483_648)
        #expect(SignalKTime.unixTime("2040-01-01T00:00Z") == 2_208_988_800)
        #expect(SignalKTime.unixTime("9999-12-31T23:59:59.500Z") == 253_402_300_799.5)
        #expect(SignalKTime.text(unixTime: 2_208_988_800.25) == "2040-01-01T00:00:00.250Z")
        #expect(SignalKTime.unixTime("2026-12-01T19:30:05.125Z") == 1_796_153_405.125)
    }
}
