#if canImport(Glibc)
    import Glibc
#endif

/// The folder `../shared/fixtures` beside the repository, when it is there; nil otherwise (tests then skip with a
/// printed message).
public func sharedFixtures(filePath: String = #filePath) -> String? {
    var components = filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // .../repository/Tests/<Target>/File.swift -> .../repository
    components.removeLast(3)
    let folder = components.joined(separator: "/") + "/../shared/fixtures"
    return fileExists(folder + "/SOURCES.md") ? folder : nil
}

/// The repository's own `Fixtures/` folder.
public func projectFixtures(filePath: String = #filePath) -> String {
    var components = filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    components.removeLast(3)
    return components.joined(separator: "/") + "/Fixtures"
}

/// Reads a whole file as bytes (no Foundation needed).
public func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let got = fread(&buffer, 1, buffer.count, file)
        if got == 0 { break }
        bytes.append(contentsOf: buffer[0..<got])
    }
    return bytes
}

public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// `$` + body + `*hh`, with the checksum computed here by a plain XOR (independent of the codec).
public func checksummed(_ body: String, start: String = "$") -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(sum, radix: 16, uppercase: true)
    return start + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// The median of some numbers (nil when empty).
public func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A new, empty folder under $TMPDIR (or /tmp) (mkdtemp(3)), named for what a test keeps in it. `make test` points
/// TMPDIR into the clone and empties it afterwards, so the tests leave nothing on the host.
public func temporaryFolder(_ name: String = "test") -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(base)/telltale-\(name)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}
