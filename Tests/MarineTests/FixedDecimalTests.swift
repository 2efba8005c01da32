import Marine
import Testing

@Suite struct FixedDecimalTests {
    @Test("decimals as asked, rounded, no sign on a zero")
    func plain() {
        #expect(FixedDecimal.text(-0.25, decimals: 3) == "-0.250")
        #expect(FixedDecimal.text(12.345, decimals: 1) == "12.3")
        #expect(FixedDecimal.text(-0.04, decimals: 1) == "0.0")
        #expect(FixedDecimal.text(7.6, decimals: 0) == "8")
    }

    @Test("a number too big for its decimals in 64 bits loses decimals, a bigger one is left out (both trapped)")
    func past64Bits() {
        #expect(FixedDecimal.text(1e13, decimals: 7) == "10000000000000.00000")
        #expect(FixedDecimal.text(-1e12, decimals: 7) == "-1000000000000.000000")
        #expect(FixedDecimal.text(1e300, decimals: 1) == "")
        #expect(FixedDecimal.text(-.infinity, decimals: 1) == "" && FixedDecimal.text(.nan, decimals: 2) == "")
    }
}
