import Platform

/// The announcements spoken aloud: each runs the configured command (espeak-ng) as a child process, one at a time,
/// never waited for by the loop. The next waits its turn in a short queue; an announcement that has waited more than
/// a few seconds is dropped (a countdown said late is worse than not said).
///
/// A command that cannot start or that fails (no audio device, no espeak-ng) is reported once, with the reason, and
/// the gateway goes on: the voice is never why the tick is late or the gateway stops.
final class Voice {
    struct Statistics: Sendable {
        var spoken = 0
        var dropped = 0
        var failed = 0
    }

    private let settings: VoiceConfiguration
    private let log: Log
    private var queue: [(text: String, at: Double)] = []
    private var speaking: (pid: Int32, text: String)?
    private var reported = false
    private(set) var statistics = Statistics()
    static let queueLimit = 8
    /// Seconds an announcement may wait for the one before it to finish.
    static let staleAfter = 3.0

    init(settings: VoiceConfiguration, log: Log) {
        self.settings = settings
        self.log = log
        // espeak-ng playing straight to the default device exits 0 even when there is none, so the one sign of a
        // missing device is that the kernel has no sound card (/dev/snd/controlC*; /proc/asound is hidden from the
        // packaged service). With `device`, aplay's failure says it. Another command (a script that speaks through a
        // Bluetooth speaker or the chartplotter) says its own failures, and needs no card here.
        if settings.device == nil && Self.playsToDefaultCard(settings.command)
            && !POSIX.list("/dev/snd").contains(where: { $0.hasPrefix("controlC") })
        {
            report("voice: no sound card (nothing in /dev/snd): announcements will not be heard")
        }
    }

    /// Whether `command` is espeak (or espeak-ng), which plays to the machine's default sound card.
    static func playsToDefaultCard(_ command: String) -> Bool {
        let name = command.split(separator: "/").last.map(String.init) ?? command
        return name == "espeak-ng" || name == "espeak"
    }

    /// The command line for `text`: the command, its arguments and the words; through `aplay -D device` when a
    /// device is set (espeak-ng writes the audio to standard output).
    static func commandLine(_ settings: VoiceConfiguration, _ text: String) -> [String] {
        guard let device = settings.device else { return [settings.command] + settings.arguments + [text] }
        let words = ([settings.command] + settings.arguments + ["--stdout", "\"$1\""]).joined(separator: " ")
        return ["/bin/sh", "-c", words + " | aplay -q -D \"$2\"", "telltale-voice", text, device]
    }

    func say(_ text: String, at now: Double) {
        if queue.count >= Self.queueLimit {
            queue.removeFirst()
            statistics.dropped += 1
        }
        queue.append((text, now))
        service(now: now)
    }

    /// Reaps the one speaking and starts the next; called every turn of the loop (a few syscalls at most).
    func service(now: Double) {
        if let current = speaking {
            guard let status = POSIX.reap(current.pid) else { return }
            speaking = nil
            if status == 0 {
                statistics.spoken += 1
            } else {
                statistics.failed += 1
                report(
                    "voice: \"\(current.text)\" was not spoken (\(settings.command) exited with status \(status));"
                        + " is there an audio device? Announcements go on being tried, and the gateway runs on")
            }
        }
        while let next = queue.first {
            queue.removeFirst()
            guard now - next.at <= Self.staleAfter else {
                statistics.dropped += 1
                continue
            }
            switch POSIX.spawn(Self.commandLine(settings, next.text)) {
            case .success(let pid):
                speaking = (pid, next.text)
                return
            case .failure(let failure):
                statistics.failed += 1
                report("voice: cannot run \(settings.command): \(failure); nothing will be spoken")
            }
        }
    }

    /// Waits (briefly) for the one speaking, when the gateway stops.
    func finish() {
        guard let current = speaking else { return }
        for _ in 0..<50 {
            if POSIX.reap(current.pid) != nil { break }
            POSIX.sleep(until: POSIX.monotonic() + 0.02)
        }
        speaking = nil
    }

    private func report(_ message: String) {
        guard !reported else { return }
        reported = true
        log.warning("voice.failed", message, [("command", settings.command)])
    }
}
