import Platform
import Testing

@Suite struct ProgramPagesTests {
    /// Resident kilobytes of the executable mappings of files whose path contains `name`, from /proc/self/smaps.
    func residentCode(_ name: String) throws -> Int {
        let text = String(decoding: try POSIX.readFile("/proc/self/smaps", limit: 64 << 20), as: UTF8.self)
        var total = 0
        var counting = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 2, first.first?.isHexDigit == true,
                !line.hasSuffix(":")
            {
                counting = fields[1] == "r-xp" && fields.count >= 6 && fields[5].contains(name)
            } else if counting, line.hasPrefix("Rss:"), fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }

    @Test func theCLibrarysCodeIsGivenBackWithTheProgramsAndTheProgramGoesOn() throws {
        let before = try residentCode("libc.so")
        #expect(before > 0, "libc's code is mapped and resident")
        let released = try #require(POSIX.releaseProgramPages())
        // The program's own code and the C library's at least.
        #expect(released >= 2, "\(released) mappings")
        let after = try residentCode("libc.so")
        #expect(after < before, "libc's resident code \(before) kB before, \(after) kB after")
        // What is needed comes back: the program goes on and reads again.
        #expect(try residentCode("libc.so") > 0)
    }
}
