import Gateway
import Platform
import TestSupport
import Testing

/// A GRIB 2 file whose unit of time is damaged: Debian's ecCodes counts a message's validity out one unit at a time,
/// so an unknown unit (255, missing) never ended and held `telltale weather import` (and `route plan --grib`) at full
/// speed for good; on board the import was killed after five minutes. Found by mutating the forecast voyage's GRIB.
@Suite struct GRIBStepTests {
    let source = projectFixtures() + "/forecast-voyage/forecast.grib2"

    /// The fixture's messages with their section 4 changed: `unit` (octet 18, the unit of time) and `step` (octets
    /// 19 to 22, the forecast time), in every message.
    func altered(unit: UInt8, step: UInt32? = nil) throws -> String {
        var bytes = try POSIX.readFile(source)
        var start = 0
        while start + 16 <= bytes.count {
            var length = 0
            for offset in 8..<16 { length = length << 8 | Int(bytes[start + offset]) }
            var section = start + 16
            while section + 5 <= start + length {
                let size = bytes[section..<section + 4].reduce(0) { $0 << 8 | Int($1) }
                if bytes[section + 4] == 4 {
                    bytes[section + 17] = unit
                    if let step {
                        for i in 0..<4 { bytes[section + 18 + i] = UInt8(truncatingIfNeeded: step >> (24 - 8 * i)) }
                    }
                }
                guard size > 0 else { break }
                section += size
            }
            start += length
        }
        let path = temporaryFolder("grib-step") + "/altered.grib2"
        try POSIX.writeFileAtomically(path, bytes)
        return path
    }

    func importing(_ path: String) -> Result<GRIBImport.Summary, CommandError> {
        do throws(CommandError) {
            return .success(try GRIBImport.run(path, output: temporaryFolder("grib-step") + "/out.ttwx"))
        } catch {
            return .failure(error)
        }
    }

    @Test func unknownUnitRefused() throws {
        // The file as it is, through the same alteration (its own unit, minutes): imported, every message.
        guard case .success(let summary) = importing(try altered(unit: 0)) else {
            Issue.record("the fixture itself is refused")
            return
        }
        #expect(summary.messages == 24)
        #expect(summary.times.count == 8)
        for unit: UInt8 in [255, 254, 200] {
            let result = importing(try altered(unit: unit))
            guard case .failure(let error) = result else {
                Issue.record("unit \(unit): imported")
                continue
            }
            #expect(error.status == 65)
            #expect(error.description.contains("an impossible forecast step"), "\(error.description)")
        }
    }

    @Test func stepOfYearsRefused() throws {
        // Two billion days: ecCodes takes seconds a message to count them; a forecast is never that long.
        let result = importing(try altered(unit: 2, step: 0x7FFF_FFFF))
        guard case .failure(let error) = result else {
            Issue.record("a step of two billion days: imported")
            return
        }
        #expect(error.description.contains("an impossible forecast step"), "\(error.description)")
        // Ten days is a forecast: read, every message at its run and ten days.
        guard case .success(let summary) = importing(try altered(unit: 2, step: 10)) else {
            Issue.record("a step of ten days: refused")
            return
        }
        #expect(summary.runTime + 10 * 86_400 == summary.times.first)
    }
}
