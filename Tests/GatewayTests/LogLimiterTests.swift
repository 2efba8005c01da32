import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LogLimiterTests {
    @Test("a repeated message is held back by its id and subject, not its text; the summary never is")
    func limiter() {
        var limiter = LogLimiter(interval: 30)
        func event(_ id: String, _ text: String, input: String) -> LogEvent {
            LogEvent(.warning, id, text, [("input", input), ("after", "\(text.count)")])
        }
        #expect(limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 0)?.message != nil)
        // Another text of the same id about the same input is a repeat: held back, digits or not.
        #expect(limiter.admit(event("input.lost", "input gps: connection closed", input: "gps"), at: 1) == nil)
        #expect(limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 2) == nil)
        // The same id about another input is news.
        #expect(limiter.admit(event("input.lost", "input wind: reset by peer", input: "wind"), at: 3) != nil)
        // A text that differs from a held one only by its digits but is of another id gets through.
        #expect(limiter.admit(event("input.open-failed", "input gps: reset by peer", input: "gps"), at: 4) != nil)
        let summary = LogEvent(.info, "summary", "summary: ...", throttled: false)
        #expect(limiter.admit(summary, at: 5) != nil && limiter.admit(summary, at: 6) != nil)
        let later = limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 31)
        // What was held back is said: each text and how often.
        #expect(
            later?.message
                == "input gps: reset by peer (held back in the 31 s before: \"input gps: connection closed\" once, "
                + "\"input gps: reset by peer\" once)")
        #expect(later?.metadata.contains { $0.key == "held_back" && $0.value == "2" } == true)
        // The announcements of defect 6: nine held back, of three kinds, each named with its count.
        var announce = LogLimiter(interval: 30)
        func said(_ text: String, at time: Double) -> LogEvent? {
            announce.admit(LogEvent(.info, "announce", "announce: " + text), at: time)
        }
        #expect(said("attitude lost", at: 0) != nil)
        for second in 1...5 { #expect(said("attitude lost", at: Double(second)) == nil) }
        for second in 6...8 { #expect(said("wind lost", at: Double(second)) == nil) }
        #expect(said("heading lost", at: 9) == nil)
        let next = said("attitude lost", at: 40)?.message
        #expect(
            next
                == "announce: attitude lost (held back in the 40 s before: \"announce: attitude lost\" 5 times, "
                + "\"announce: wind lost\" 3 times, \"announce: heading lost\" once)")
        // Past three texts, the others are counted.
        var many = LogLimiter(interval: 30)
        _ = many.admit(LogEvent(.info, "x", "a"), at: 0)
        for (index, text) in ["b", "c", "d", "e", "f", "f"].enumerated() {
            _ = many.admit(LogEvent(.info, "x", text), at: Double(index + 1))
        }
        #expect(many.admit(LogEvent(.info, "x", "a"), at: 31)?.message.hasSuffix(", and 3 of 2 other texts)") == true)
    }

    @Test("what was held back and never carried by a later message is said once its 30 s are over, or on stopping")
    func heldBackSaidWhenDue() {
        var limiter = LogLimiter(interval: 30)
        func event(_ text: String, input: String = "gps") -> LogEvent {
            LogEvent(.warning, "input.lost", text, [("input", input)])
        }
        #expect(limiter.admit(event("input gps: reset by peer"), at: 0) != nil)
        #expect(limiter.admit(event("input gps: connection closed"), at: 4) == nil)
        #expect(limiter.admit(event("input gps: no route to host"), at: 9) == nil)
        #expect(limiter.admit(event("input gps: connection closed"), at: 12) == nil)
        #expect(limiter.due(at: 29).isEmpty)
        // Nothing else came: at 30 s the last one held back is said, with the others before it.
        let due = limiter.due(at: 30)
        #expect(due.count == 1 && due.first?.level == .warning && due.first?.subject == "gps")
        #expect(
            due.first?.message
                == "input gps: connection closed (said 18 s late: held back by the log's limiter) (held back in the 30 s "
                + "before: \"input gps: connection closed\" once, \"input gps: no route to host\" once)")
        #expect(due.first?.metadata.contains { $0.key == "held_back" && $0.value == "2" } == true)
        // Said once; said late, it holds nothing up: the next one is let through at once, as news.
        #expect(limiter.due(at: 31).isEmpty)
        #expect(limiter.admit(event("input gps: reset by peer"), at: 31) != nil)
        #expect(limiter.admit(event("input gps: no route to host"), at: 40) == nil)
        // A single one held back is said as it was, on stopping without waiting for its 30 s (gps's: another
        // text than the one said at 31).
        #expect(limiter.admit(event("input wind: gone", input: "wind"), at: 41) != nil)
        #expect(limiter.admit(event("input wind: gone", input: "wind"), at: 42) == nil)
        #expect(limiter.admit(event("input ais: gone", input: "ais"), at: 41) != nil)
        #expect(limiter.admit(event("input ais: reset by peer", input: "ais"), at: 42) == nil)
        // On stopping: what differs from the text last said; bare repeats of it (wind's) say nothing new.
        let stopping = limiter.due(at: 43, all: true).map { $0.message }
        #expect(
            stopping == [
                "input gps: no route to host (said 3 s late: held back by the log's limiter)",
                "input ais: reset by peer (said 1 s late: held back by the log's limiter)",
            ])
        // Not on stopping, its 30 s over: the repeat is said (as it was when the next one came after 30 s).
        #expect(
            limiter.due(at: 100).map { $0.message } == [
                "input wind: gone (said 58 s late: held back by the log's limiter)"
            ])
        #expect(limiter.due(at: 101, all: true).isEmpty)
    }

    @Test("the crew's commands: one of another kind just after the first is said at once; the same again held back")
    func commandsByKind() throws {
        var configuration = GatewayConfiguration()
        configuration.statusLine = false
        let said = MessageBox()
        let runtime = try Runtime(configuration: configuration) { said.append($0.line) }
        _ = runtime.carryOut(.route(.advance), at: POSIX.monotonic())
        _ = runtime.carryOut(.anchor(.drop(radius: 40)), at: POSIX.monotonic())
        _ = runtime.carryOut(.anchor(.radius(60)), at: POSIX.monotonic())
        _ = runtime.carryOut(.anchor(.drop(radius: 50)), at: POSIX.monotonic())
        let commands = said.items.filter { $0.hasPrefix("web: ") }
        // Three kinds said as they came (whether the engine took each or refused it); the second drop held back.
        #expect(commands.count == 3, "\(commands)")
        #expect(commands.filter { $0.contains("command=anchor drop 40") }.count == 1, "\(commands)")
        #expect(!commands.contains { $0.contains("drop 50") }, "\(commands)")
    }

    @Test("journald reads the level from the line's prefix; a terminal gets the level in words")
    func standardErrorFormat() {
        let event = LogEvent(.warning, "input.lost", "input gps: gone", [("input", "gps"), ("errno", "104")])
        #expect(StandardErrorLog.format(event, journal: true) == "<4>input gps: gone errno=104\n")
        #expect(StandardErrorLog.format(event, journal: false) == "telltale: warning: input gps: gone errno=104\n")
        let info = LogEvent(.info, "route.loaded", "route: following Demo")
        #expect(StandardErrorLog.format(info, journal: true) == "<6>route: following Demo\n")
        // Each fact once: the URL the message already says is not said again after it.
        let serving = LogEvent(
            .notice, "output.serving", "output plotter: serving on tcp://0.0.0.0:10110",
            [("output", "plotter"), ("url", "tcp://0.0.0.0:10110"), ("clients", "8")])
        #expect(serving.line == "output plotter: serving on tcp://0.0.0.0:10110 clients=8")
    }

    @Test("a client's newline, carriage return or escape never starts a line of its own: each written as \\xHH")
    func controlCharactersEscaped() {
        let forged = LogEvent(
            .notice, "web.command", "web: following route Evil\n<0>forged\u{1B}[2J", [("point", "F1\r\n<0>x")])
        #expect(forged.line == "web: following route Evil\\x0a<0>forged\\x1b[2J point=F1\\x0d\\x0a<0>x")
        let journal = StandardErrorLog.format(forged, journal: true)
        #expect(journal.hasPrefix("<5>") && journal.filter { $0 == "\n" }.count == 1 && journal.hasSuffix("\n"))
        #expect(LogEvent.oneLine("tab\there, del\u{7F}, é and ° kept") == "tab\\x09here, del\\x7f, é and ° kept")
        #expect(LogEvent.oneLine("plain") == "plain")
    }

    @Test("a log line clears the terminal's status line first and draws it again after")
    func statusLineAndLog() {
        var written = ""
        let status = StatusLine { written += $0 }
        status.interrupt { written += "before any status\n" }
        #expect(written == "before any status\n")
        written = ""
        status.show("telltale 3s | in 10")
        status.interrupt { written += "input gps: gone\n" }
        #expect(
            written == "\rtelltale 3s | in 10\u{1B}[K" + "\r\u{1B}[K" + "input gps: gone\n"
                + "\rtelltale 3s | in 10\u{1B}[K")
        written = ""
        status.finish()
        status.interrupt { written += "stopped\n" }
        #expect(written == "\nstopped\n")
    }

    @Test("rate limits per address pattern are read from the output")
    func rateLimits() throws {
        let configuration = try ConfigurationFile.parse(
            "[[output]]\nurl = \"stdout:\"\nrate_limits = { \"*MWV\" = 1, \"GPGSV\" = 5.5 }\n")
        let limits = try #require(configuration.outputs.first?.rateLimits)
        #expect(limits.map(\.pattern) == ["*MWV", "GPGSV"] && limits.map(\.interval) == [1, 5.5])
    }
}
