import CPosix

// The entry point: the one place where the Pi build and the desktop build of this command differ. Embedded Swift
// has no `CommandLine`, so there the C `main` is declared directly and hands its argv over; the runtime support
// Embedded Swift asks of its platform (a C-locale strtod for `Double(String)`) is given here too.

#if hasFeature(Embedded)
    @_cdecl("main")
    func main(_ count: Int32, _ vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var words: [String] = []
        for index in 0..<Int(count) {
            if let word = vector[index] { words.append(String(cString: word)) }
        }
        return PiCommand.run(words)
    }

    @_cdecl("_swift_stdlib_strtod_clocale")
    func strtodCLocale(
        _ text: UnsafePointer<CChar>, _ result: UnsafeMutablePointer<Double>?
    ) -> UnsafePointer<CChar>? {
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &end)
        result?.pointee = value
        return UnsafePointer(end)
    }
#else
    @main
    enum Entry {
        static func main() { exit(PiCommand.run(CommandLine.arguments)) }
    }
#endif
