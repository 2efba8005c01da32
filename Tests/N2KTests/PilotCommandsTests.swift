import Testing

@testable import N2K

/// The pilots' command payloads' angle fields: 1e-4 rad, held to the field's range, never a trap.
@Suite struct PilotCommandsTests {
    @Test("an angle field: nil not available, π as 31,416, below 0 as 0, past the field's range at its top, no trap")
    func angleField() {
        #expect(PilotCommands.angle(nil) == [0xFF, 0xFF])
        #expect(PilotCommands.angle(.nan) == [0xFF, 0xFF])
        #expect(PilotCommands.angle(Double.pi) == [UInt8(31_416 & 0xFF), UInt8(31_416 >> 8)])
        #expect(PilotCommands.angle(-0.2) == [0, 0])
        #expect(PilotCommands.angle(7) == [UInt8(65_532 & 0xFF), UInt8(65_532 >> 8)])
        // Past Int's range: `Int((radians * 10_000).rounded())` trapped here.
        #expect(PilotCommands.angle(1e300) == [UInt8(65_532 & 0xFF), UInt8(65_532 >> 8)])
        let change = PilotCommands.simnetChangeCourse(-1e300, to: 3)
        #expect(change.bytes.suffix(3) == [0xFC, 0xFF, 0xFF])
    }
}
