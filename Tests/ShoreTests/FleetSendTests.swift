import Gateway
import Platform
import TestSupport
import Testing

@testable import Shore

/// The messenger against mail servers that misbehave, on loopback: one that takes the connection and never says a
/// word (the deadline ends it, to be tried again), one that greets with nonsense, one that is not there; a letter
/// that is not one. The letter is removed as soon as it is read, whatever happens next.
@Suite struct FleetSendTests {
    /// A listener that never accepts: the kernel completes the connection, nothing is ever said.
    static func silentServer() throws -> (fd: Int32, port: Int) {
        let address = try #require(POSIX.SocketAddress(host: "127.0.0.1", port: 0))
        let fd = try POSIX.socket(.stream, for: address, naming: "silent")
        try POSIX.bind(fd, to: address, listen: true, naming: "silent")
        return (fd, POSIX.localPort(fd))
    }

    static func send(_ json: String) throws -> (CommandError?, Bool) {
        let path = temporaryFolder("fleet-send") + "/letter.json"
        try POSIX.writeFile(path, json)
        var options = FleetSendOptions()
        try options.argument(path)
        do {
            _ = try FleetSendCommand.run(options)
            return (nil, POSIX.exists(path))
        } catch {
            return (error, POSIX.exists(path))
        }
    }

    static func letter(port: Int, seconds: Double = 2) -> String {
        #"{"kind":"mail","smtp":"smtp://u:p@127.0.0.1:\#(port)","from":"a@b.test","to":["c@d.test"],"#
            + #""message":"Subject: x\r\n\r\nhi\r\n","seconds":\#(seconds)}"#
    }

    @Test("a server that never answers: given up at the letter's deadline, status 75 (again later); the letter gone")
    func silent() throws {
        let server = try Self.silentServer()
        defer { POSIX.close(server.fd) }
        let started = POSIX.monotonic()
        let (error, left) = try Self.send(Self.letter(port: server.port))
        let took = POSIX.monotonic() - started
        #expect(error?.status == 75 && error?.description.contains("did not answer in time") == true)
        #expect(took >= 1.9 && took < 10 && !left)
    }

    @Test("nobody listening: 75 at once; a letter that is not JSON or lacks its server: 65, never a crash")
    func refused() throws {
        let server = try Self.silentServer()
        let port = server.port
        POSIX.close(server.fd)
        #expect(try Self.send(Self.letter(port: port)).0?.status == 75)
        #expect(try Self.send("{not json").0?.status == 65)
        #expect(try Self.send(#"{"kind":"mail","smtp":"http://x"}"#).0?.status == 65)
        #expect(try Self.send(#"{"kind":"fax"}"#).0?.status == 65)
        #expect(
            try Self.send(#"{"kind":"push","endpoint":"https://x/","p256dh":"AAAA","auth":"AAAA"}"#).0?.status == 65)
    }
}
