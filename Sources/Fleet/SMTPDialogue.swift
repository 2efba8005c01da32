import SignalK

/// One letter handed to an SMTP submission server (RFC 5321, STARTTLS of RFC 3207, AUTH PLAIN or LOGIN of RFC 4954),
/// sans-I/O: the server's bytes in, what to write and when to begin TLS out. Nothing is sent in the clear that should
/// not be: with `tls` asked (STARTTLS, or a connection that began in TLS) a server that offers no STARTTLS is left,
/// and a password is never sent before TLS.
public struct SMTPDialogue {
    public enum Action: Equatable, Sendable {
        case send([UInt8])
        /// Begin TLS on the connection now, then call ``tlsStarted()``.
        case startTLS
        /// The server took the letter.
        case delivered
        /// The letter was not taken: `permanent` for a 5xx answer (sending again will not help).
        case failed(String, permanent: Bool)
    }

    enum Step: Equatable {
        case greeting, hello, startTLS, helloInTLS, authPlain, authLogin, authUser, authPassword, mailFrom
        case recipient(Int)
        case data, body, quit, done
    }

    public let letter: Letter
    let clientName: String
    let user: String?
    let password: String?
    let tls: Bool
    private(set) var step = Step.greeting
    private(set) var inTLS: Bool
    private var buffer: [UInt8] = []
    private var reply: [String] = []
    private var offered: Set<String> = []

    /// `clientName` is what EHLO says; `implicitTLS` when the connection began in TLS (smtps, port 465).
    public init(letter: Letter, clientName: String, user: String?, password: String?, tls: Bool, implicitTLS: Bool) {
        self.letter = letter
        self.clientName = clientName
        self.user = user
        self.password = password
        self.tls = tls || implicitTLS
        inTLS = implicitTLS
    }

    /// The server's bytes; a reply is acted on once its last line is in.
    public mutating func received(_ bytes: [UInt8]) -> [Action] {
        var actions: [Action] = []
        for byte in bytes {
            guard step != .done else { break }
            guard byte == 10 else {
                buffer.append(byte)
                if buffer.count > 2048 {
                    return finish(.failed("the server's line is over 2,048 bytes", permanent: false))
                }
                continue
            }
            if buffer.last == 13 { buffer.removeLast() }
            let line = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll()
            reply.append(line)
            if reply.count > 100 { return finish(.failed("the server's reply is over 100 lines", permanent: false)) }
            // "250-..." goes on, "250 ..." (or a bare code) ends the reply.
            let bytes = Array(line.utf8)
            if bytes.count > 3 && bytes[3] == UInt8(ascii: "-") { continue }
            let lines = reply
            reply.removeAll()
            actions += answer(lines)
        }
        return actions
    }

    /// TLS is up: the greeting again, now private.
    public mutating func tlsStarted() -> [Action] {
        guard step == .startTLS else { return [] }
        inTLS = true
        offered.removeAll()
        step = .helloInTLS
        return [command("EHLO " + clientName)]
    }

    private mutating func finish(_ action: Action) -> [Action] {
        step = .done
        return [action]
    }

    private func command(_ text: String) -> Action { .send(Array((text + "\r\n").utf8)) }

    private mutating func answer(_ lines: [String]) -> [Action] {
        let code = Int(lines.last.map { String($0.prefix(3)) } ?? "") ?? 0
        let words = lines.last ?? ""
        func refused(_ what: String) -> [Action] {
            finish(.failed("the server answered \(what) with \(words)", permanent: code >= 500 && code < 600))
        }
        switch step {
        case .greeting:
            guard code == 220 else { return refused("the connection") }
            step = inTLS ? .helloInTLS : .hello
            return [command("EHLO " + clientName)]
        case .hello, .helloInTLS:
            guard code == 250 else { return refused("EHLO") }
            for line in lines.dropFirst() { offered.insert(Self.upper(String(line.dropFirst(4)))) }
            if !inTLS && tls {
                guard offered.contains("STARTTLS") else {
                    return finish(.failed("the server offers no STARTTLS: nothing sent in the clear", permanent: true))
                }
                step = .startTLS
                return [command("STARTTLS")]
            }
            return authenticate()
        case .startTLS:
            guard code == 220 else { return refused("STARTTLS") }
            return [.startTLS]
        case .authPlain, .authPassword:
            guard code == 235 else { return refused("the login") }
            return mailFrom()
        case .authLogin:
            guard code == 334 else { return refused("AUTH LOGIN") }
            step = .authUser
            return [command(Base64.encode(Array((user ?? "").utf8)))]
        case .authUser:
            guard code == 334 else { return refused("the user name") }
            step = .authPassword
            return [command(Base64.encode(Array((password ?? "").utf8)))]
        case .mailFrom:
            guard code == 250 else { return refused("MAIL FROM") }
            guard !letter.to.isEmpty else { return finish(.failed("the letter has no recipient", permanent: true)) }
            step = .recipient(0)
            return [command("RCPT TO:<\(letter.to[0])>")]
        case .recipient(let index):
            guard code == 250 || code == 251 else { return refused("RCPT TO:<\(letter.to[index])>") }
            if index + 1 < letter.to.count {
                step = .recipient(index + 1)
                return [command("RCPT TO:<\(letter.to[index + 1])>")]
            }
            step = .data
            return [command("DATA")]
        case .data:
            guard code == 354 else { return refused("DATA") }
            step = .body
            return [.send(Self.stuffed(letter.message))]
        case .body:
            guard code == 250 else { return refused("the letter") }
            step = .quit
            return [.delivered, command("QUIT")]
        case .quit:
            step = .done
            return []
        case .done:
            return []
        }
    }

    private mutating func authenticate() -> [Action] {
        guard let user, let password else { return mailFrom() }
        guard inTLS else {
            return finish(.failed("a password is never sent before TLS (smtp:// asks STARTTLS)", permanent: true))
        }
        let mechanisms =
            offered.first { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }?.dropFirst(5)
            .split(separator: " ").map(String.init) ?? []
        if mechanisms.contains("PLAIN") {
            step = .authPlain
            return [command("AUTH PLAIN " + Base64.encode([0] + Array(user.utf8) + [0] + Array(password.utf8)))]
        }
        if mechanisms.contains("LOGIN") {
            step = .authLogin
            return [command("AUTH LOGIN")]
        }
        return finish(.failed("the server offers neither AUTH PLAIN nor AUTH LOGIN", permanent: true))
    }

    private mutating func mailFrom() -> [Action] {
        step = .mailFrom
        return [command("MAIL FROM:<\(letter.from)>")]
    }

    /// ASCII's letters in capitals (an extension's keyword is ASCII; no Unicode tables needed on the Pi's build).
    static func upper(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// The message with CRLF line ends, each line that begins with a dot given another (RFC 5321 4.5.2), and the
    /// ending dot.
    static func stuffed(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + 64)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in message {
            if byte == 10 && previous != 13 { out.append(13) }
            if atLineStart && byte == UInt8(ascii: ".") { out.append(byte) }
            out.append(byte)
            atLineStart = byte == 10
            previous = byte
        }
        if !atLineStart { out += [13, 10] }
        return out + Array(".\r\n".utf8)
    }
}

extension SMTPDialogue {
    /// What is sent: the envelope (sender, recipients) and the message (RFC 5322 headers and body).
    public struct Letter: Equatable, Sendable {
        public var from: String
        public var to: [String]
        public var message: [UInt8]

        public init(from: String, to: [String], message: [UInt8]) {
            self.from = from
            self.to = to
            self.message = message
        }
    }
}
