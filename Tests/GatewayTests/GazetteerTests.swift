import Testing

@testable import Gateway

/// The chart's gazetteer (#42): names found by their beginning in the sorted file, whatever their case, the most
/// populous first; nothing for what is not there, and nothing out of a broken file.
@Suite struct GazetteerTests {
    static let text =
        [
            "cowes\tCowes\tEngland\tUnited Kingdom\t50.76232\t-1.29997\t10405",
            "cowes\tCowes\tVictoria\tAustralia\t-38.45\t145.23333\t4000",
            "cowra\tCowra\tNew South Wales\tAustralia\t-33.83\t148.68\t9863",
            "la rochelle\tLa Rochelle\tNouvelle-Aquitaine\tFrance\t46.16\t-1.15\t80000",
            "lymington\tLymington\tEngland\tUnited Kingdom\t50.75\t-1.55\t15000",
            "newport\tNewport\tEngland\tUnited Kingdom\t50.70\t-1.29\t25496",
            "newport\tNewport\tWales\tUnited Kingdom\t51.58\t-2.99\t128060",
        ].joined(separator: "\n") + "\n"

    func search(_ query: String, _ text: String = Self.text) -> String {
        Array(text.utf8).withUnsafeBytes { Gazetteer.search(query, in: $0) }
    }

    @Test("by the name's beginning, any case, the most populous first")
    func found() {
        let newport = search("NEWP")
        #expect(newport.hasPrefix(#"[{"name":"Newport","region":"Wales""#), "\(newport)")
        #expect(newport.contains(#""region":"England""#))
        let cow = search("cow")
        #expect(cow.split(separator: "\"name\"", omittingEmptySubsequences: false).count - 1 == 3, "\(cow)")
        #expect(search("La R").contains(#""latitude":46.16"#))
        #expect(search("Lymington").contains(#""population":15000"#))
        #expect(search("zz") == "[]" && search("") == "[]" && search("a") == "[]")
        #expect(search("newport", "") == "[]", "an empty file")
    }

    @Test("a file that is not sorted lines of seven fields gives what it can, never a crash")
    func broken() {
        #expect(search("x", "x\ty\n") == "[]")
        #expect(search("new", "newport\tNewport\n\n\n") == "[]")
        var generator = SystemRandomNumberGenerator()
        var bytes = Array(Self.text.utf8)
        for _ in 0..<500 {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = bytes.withUnsafeBytes { Gazetteer.search("new", in: $0) }
        }
    }
}
