import Gateway
import Testing

@Suite struct TOMLReaderTests {
    @Test("tables, arrays of tables, dotted keys, inline tables, strings, numbers, booleans and arrays")
    func document() throws {
        let root = try TOMLReader.parse(
            """
            # a comment
            name = "Telltale \\"bench\\"" # trailing comment
            literal = 'C:\\path'
            rate = 10
            gain = 0.03
            big = 1_000
            exponent = 1e3
            on = true
            list = [ "a", 'b',
                     "c", ]   # over lines, with a trailing comma
            point = { lat = 50.5, lon = -1.25 }
            wind.heel_correction = false
            [damping]
            true_wind = 2
            [[input]]
            url = "file:a.nmea"
            [[input]]
            url = "tcp://h:1"
            loop = true
            """)
        #expect(root["name"]?.string == "Telltale \"bench\"")
        #expect(root["literal"]?.string == "C:\\path")
        #expect(root["rate"]?.int == 10 && root["gain"]?.double == 0.03 && root["big"]?.int == 1000)
        #expect(root["exponent"]?.double == 1000 && root["on"]?.bool == true)
        #expect(root["list"]?.array?.compactMap(\.string) == ["a", "b", "c"])
        #expect(root["point"]?.table?["lon"]?.double == -1.25)
        #expect(root["wind"]?.table?["heel_correction"]?.bool == false)
        #expect(root["damping"]?.table?["true_wind"]?.int == 2)
        let inputs = try #require(root["input"]?.array)
        #expect(inputs.count == 2 && inputs[1].table?["loop"]?.bool == true)
        #expect(inputs[1].table?.line(of: "url") == 18)
        #expect(root.line(of: "rate") == 4)
    }

    @Test(
        "errors say the line",
        arguments: [
            ("a = 1\nb = \"open\n", 2), ("a = 1\na = 2\n", 2), ("[t]\n[t]\n", 2), ("a = 1 2\n", 1),
            ("x = 2026-11-22\n", 1),
            ("[t\n", 1), ("a = [1, 2\n", 2),
        ])
    func errors(text: String, line: Int) {
        #expect(throws: TOMLError.self) { try TOMLReader.parse(text) }
        do { _ = try TOMLReader.parse(text) } catch { #expect(error.line == line, "\(error)") }
    }

    @Test("nesting is bounded: arrays, inline tables and dotted keys thousands deep are refused, not a stack run out")
    func nesting() throws {
        func repeated(_ open: String, _ close: String, _ count: Int) -> String {
            String(repeating: open, count: count) + String(repeating: close, count: count)
        }
        // As deep as the reader takes: read whole.
        var root = try TOMLReader.parse("a = " + repeated("[", "]", 32) + "\n")
        var value = try #require(root["a"])
        for _ in 1..<32 { value = try #require(value.array?.first) }
        #expect(value.array?.isEmpty == true)
        root = try TOMLReader.parse(Array(repeating: "k", count: 32).joined(separator: ".") + " = 1\n")
        #expect(root["k"]?.table?["k"]?.table != nil)
        // Each of these, read by a call within a call a level, ran the stack out before it was bounded.
        let hostile = [
            "a = " + repeated("[", "]", 100_000) + "\n",
            "a = " + String(repeating: "{b=", count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "\n",
            "a = [" + String(repeating: "{b=[", count: 50_000) + "\n",
            "[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\n",
            "[[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]]\n",
            "x = 1\n" + Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1\n",
        ]
        for text in hostile {
            #expect(throws: TOMLError.self) { try TOMLReader.parse(text) }
            do { _ = try TOMLReader.parse(text) } catch { #expect(error.description.contains("at most 32")) }
        }
        // Thirty-three parts: one too many.
        #expect(throws: TOMLError.self) {
            try TOMLReader.parse(Array(repeating: "k", count: 33).joined(separator: ".") + " = 1\n")
        }
    }
}
