import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

/// A device or a pipe named where a file belongs: refused at once, never read without end nor waited on.
@Suite struct NotAFileTests {
    /// Found by fuzzing configurations (2026-12-01): `polar = "/dev/zero"` read without end, taking the memory; a FIFO
    /// named as the route held check-config (and `run`, before it served anything) until something wrote to it.
    @Test("a device or a pipe named where a file belongs is refused at once, naming it")
    func notAFile() throws {
        let folder = temporaryFolder("not-a-file")
        let fifo = folder + "/route.gpx"
        #expect(mkfifo(fifo, 0o600) == 0)
        let config = folder + "/telltale.toml"
        try POSIX.writeFile(config, "route = \"\(fifo)\"\n")
        let done = StopRequest()
        let answer = Answer()
        let check = TestThread {
            do throws(CommandError) { _ = try RunCommand.check(config) } catch { answer.text = error.description }
            // The same FIFO as a log played as an input (`run`'s loop would wait on it before serving anything).
            let input = InputConfiguration(name: "log", endpoint: .file(path: fifo))
            do throws(POSIX.Failure) { _ = try FileInput(configuration: input, path: fifo) } catch {
                answer.input = error.description
            }
            done.raise()
        }
        let deadline = POSIX.monotonic() + 10
        while !done.isRaised && POSIX.monotonic() < deadline { POSIX.sleep(until: POSIX.monotonic() + 0.01) }
        if !done.isRaised { Issue.record("check-config or the file input waited on the FIFO") }
        while !done.isRaised {
            // Lets the code before go: a writer that comes and goes gives its reader an end.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            POSIX.sleep(until: POSIX.monotonic() + 0.01)
        }
        check.join()
        #expect(answer.text.contains("route: not a file \(fifo)"), "\(answer.text)")
        #expect(answer.input.contains("not a file \(fifo)"), "\(answer.input)")
        // (A device read without a limit would take the memory on the code before: /dev/null stands for it here.)
        let device = folder + "/device.toml"
        try POSIX.writeFile(device, "polar = \"/dev/null\"\n")
        #expect(throws: CommandError.self) { try RunCommand.check(device) }
        do throws(CommandError) { _ = try RunCommand.check(device) } catch {
            #expect(error.description.contains("not a file /dev/null"), "\(error)")
        }
        for path in ["/dev/zero", "/dev/null"] {
            do throws(POSIX.Failure) {
                _ = try POSIX.readFile(path, limit: 1 << 20)
                Issue.record("\(path) read")
            } catch {
                #expect(error.code == EINVAL, "\(error)")
            }
        }
        #expect((try? POSIX.readFile(config))?.isEmpty == false)
    }

    final class Answer: @unchecked Sendable {
        var text = ""
        var input = ""
    }

    @Test("a polar, a route or a configuration too long to be one is refused, not read into memory; the key said once")
    func tooLong() throws {
        let folder = temporaryFolder("too-long")
        for (name, size) in [("polar.csv", 17 << 20), ("route.gpx", 17 << 20), ("big.toml", 2 << 20)] {
            let fd = open(folder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(fd >= 0 && ftruncate(fd, off_t(size)) == 0)
            close(fd)
        }
        let config = folder + "/telltale.toml"
        try POSIX.writeFile(config, "polar = \"polar.csv\"\n")
        do throws(CommandError) {
            _ = try RunCommand.check(config)
            Issue.record("a 17 MB polar was read")
        } catch {
            #expect(error.description.contains("line 1: polar: too long to read"), "\(error)")
            #expect(!error.description.contains("polar: polar:"), "\(error)")
        }
        try POSIX.writeFile(config, "route = \"route.gpx\"\n")
        do throws(CommandError) {
            _ = try RunCommand.check(config)
            Issue.record("a 17 MB route was read")
        } catch {
            #expect(error.description.contains("too long to read"), "\(error)")
        }
        #expect(throws: ConfigurationFile.Error.self) { try ConfigurationFile.load(path: folder + "/big.toml") }
    }
}
