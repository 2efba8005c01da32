import Fleet
import Gateway
import Platform
import SignalK

/// `telltale fleet send LETTER`: the boat watch's messenger, a child of `telltale fleet` for each alert to deliver
/// (``AlertPost``), so that a mail server or a push service that is slow or gone never holds the shore's loop. The
/// letter (JSON, written only for its user) is read and removed first; a minute at most for the whole exchange.
public enum FleetSendCommand {
    /// Status 75 (EX_TEMPFAIL): to be tried again; 69 (EX_UNAVAILABLE): refused for good.
    public static func run(_ options: FleetSendOptions) throws(CommandError) -> String {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(options.letter, limit: 1 << 20) } catch {
            throw CommandError("fleet send: the letter: \(error)", status: 66)
        }
        _ = POSIX.remove(options.letter)
        guard let letter = JSONValue.parse(bytes, maximumDepth: 6, maximumLength: 1 << 20) else {
            throw CommandError("fleet send: the letter is not JSON", status: 65)
        }
        let deadline = POSIX.monotonic() + (letter["seconds"]?.number ?? 60)
        switch letter["kind"]?.string {
        case "mail": return try mail(letter, deadline: deadline)
        case "push": return try WebPushSend.run(letter, deadline: deadline)
        default: throw CommandError("fleet send: the letter is neither mail nor push", status: 65)
        }
    }

    static func mail(_ letter: JSONValue, deadline: Double) throws(CommandError) -> String {
        guard let url = letter["smtp"]?.string, let server = SMTPServer(url), let from = letter["from"]?.string,
            case .array(let list)? = letter["to"], let message = letter["message"]?.string
        else { throw CommandError("fleet send: the letter lacks smtp, from, to or message", status: 65) }
        let to = list.compactMap { $0.string }
        let client: TLSClient
        do { client = try TLSClient(caFile: letter["ca"]?.string) } catch {
            throw CommandError("fleet send: \(error.description)", status: 69)
        }
        let outcome: SMTPDialogue.Action
        do throws(ServerConnection.Failure) {
            outcome = try exchange(server, client: client, from: from, to: to, message: message, deadline: deadline)
        } catch {
            throw CommandError("fleet send: \(server.described): \(error)", status: 75)
        }
        if case .failed(let words, let permanent) = outcome {
            throw CommandError("fleet send: \(server.described): \(words)", status: permanent ? 69 : 75)
        }
        return "delivered to \(to.joined(separator: ", ")) through \(server.described)"
    }

    /// The conversation with the mail server, to its end: delivered or failed.
    static func exchange(
        _ server: SMTPServer, client: TLSClient, from: String, to: [String], message: String, deadline: Double
    ) throws(ServerConnection.Failure) -> SMTPDialogue.Action {
        let connection = try ServerConnection(host: server.host, port: server.port, deadline: deadline)
        if server.implicitTLS { try connection.startTLS(client) }
        var dialogue = SMTPDialogue(
            letter: SMTPDialogue.Letter(from: from, to: to, message: Array(message.utf8)),
            clientName: clientName(connection.fd), user: server.user, password: server.password, tls: true,
            implicitTLS: server.implicitTLS)
        var pending: [SMTPDialogue.Action] = []
        while true {
            if pending.isEmpty {
                let got = try connection.receive()
                guard !got.isEmpty else {
                    throw ServerConnection.Failure("\(server.host) closed the connection before the letter went")
                }
                pending = dialogue.received(got)
                continue
            }
            let action = pending.removeFirst()
            switch action {
            case .send(let bytes): try connection.send(bytes)
            case .startTLS:
                try connection.startTLS(client)
                pending += dialogue.tlsStarted()
            case .delivered:
                // QUIT said, not waited for: the letter is the server's now.
                if case .send(let bytes)? = pending.first { try? connection.send(bytes) }
                return action
            case .failed: return action
            }
        }
    }

    /// EHLO's name: this end's address as a literal (`[192.0.2.7]`), which every server takes.
    static func clientName(_ fd: Int32) -> String {
        let bytes = POSIX.localAddress(fd)
        guard bytes.count == 4 else { return "[127.0.0.1]" }
        return "[" + bytes.map { String($0) }.joined(separator: ".") + "]"
    }
}
