import Fleet
import SignalK
import Testing

/// The mail server's conversation as a submission server holds it (the replies Postfix and aiosmtpd give): STARTTLS
/// before the password, AUTH PLAIN or LOGIN, several recipients, dot-stuffing, and every way it refuses.
@Suite struct SMTPDialogueTests {
    static let letter = SMTPDialogue.Letter(
        from: "watch@shore.test", to: ["owner@boat.test", "crew@boat.test"],
        message: Array("Subject: x\n\n.hidden dot\nend".utf8))

    static func dialogue(user: String? = "shore", implicitTLS: Bool = false) -> SMTPDialogue {
        SMTPDialogue(
            letter: letter, clientName: "[127.0.0.1]", user: user, password: user == nil ? nil : "p@ss word",
            tls: true, implicitTLS: implicitTLS)
    }

    static func sent(_ actions: [SMTPDialogue.Action]) -> [String] {
        actions.compactMap { if case .send(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }
    }

    static let hello = "250-mail.test\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n"
    static let helloInTLS = "250-mail.test\r\n250-AUTH LOGIN PLAIN\r\n250 8BITMIME\r\n"

    @Test("STARTTLS, then AUTH PLAIN, MAIL, both RCPTs, DATA dot-stuffed, delivered and QUIT")
    func whole() {
        var d = Self.dialogue()
        #expect(Self.sent(d.received(Array("220 mail.test ESMTP\r\n".utf8))) == ["EHLO [127.0.0.1]\r\n"])
        // A reply split across reads: nothing until its last line.
        #expect(d.received(Array(Self.hello.prefix(20).utf8)).isEmpty)
        #expect(Self.sent(d.received(Array(Self.hello.dropFirst(20).utf8))) == ["STARTTLS\r\n"])
        #expect(d.received(Array("220 go ahead\r\n".utf8)) == [.startTLS])
        #expect(Self.sent(d.tlsStarted()) == ["EHLO [127.0.0.1]\r\n"])
        let auth = Self.sent(d.received(Array(Self.helloInTLS.utf8)))
        #expect(auth == ["AUTH PLAIN " + Base64.encode(Array("\0shore\0p@ss word".utf8)) + "\r\n"])
        #expect(Self.sent(d.received(Array("235 2.7.0 ok\r\n".utf8))) == ["MAIL FROM:<watch@shore.test>\r\n"])
        #expect(Self.sent(d.received(Array("250 ok\r\n".utf8))) == ["RCPT TO:<owner@boat.test>\r\n"])
        #expect(Self.sent(d.received(Array("250 ok\r\n".utf8))) == ["RCPT TO:<crew@boat.test>\r\n"])
        #expect(Self.sent(d.received(Array("251 forwarded\r\n".utf8))) == ["DATA\r\n"])
        #expect(Self.sent(d.received(Array("354 go\r\n".utf8))) == ["Subject: x\r\n\r\n..hidden dot\r\nend\r\n.\r\n"])
        let end = d.received(Array("250 queued\r\n".utf8))
        #expect(end.first == .delivered && Self.sent(end) == ["QUIT\r\n"])
    }

    @Test("a server without STARTTLS is left before anything is sent; a password never goes in the clear")
    func noTLS() {
        var d = Self.dialogue()
        _ = d.received(Array("220 hi\r\n".utf8))
        let actions = d.received(Array("250-mail.test\r\n250 AUTH PLAIN\r\n".utf8))
        guard case .failed(let words, let permanent)? = actions.first else {
            Issue.record("not refused: \(actions)")
            return
        }
        #expect(words.contains("STARTTLS") && permanent && Self.sent(actions).isEmpty)
    }

    @Test("smtps: EHLO at once, AUTH LOGIN when PLAIN is not offered")
    func implicitLogin() {
        var d = Self.dialogue(implicitTLS: true)
        _ = d.received(Array("220 hi\r\n".utf8))
        #expect(Self.sent(d.received(Array("250-x\r\n250 AUTH LOGIN\r\n".utf8))) == ["AUTH LOGIN\r\n"])
        #expect(
            Self.sent(d.received(Array("334 VXNlcm5hbWU6\r\n".utf8))) == [Base64.encode(Array("shore".utf8)) + "\r\n"])
        #expect(
            Self.sent(d.received(Array("334 UGFzc3dvcmQ6\r\n".utf8))) == [
                Base64.encode(Array("p@ss word".utf8)) + "\r\n"
            ])
        #expect(Self.sent(d.received(Array("235 ok\r\n".utf8))) == ["MAIL FROM:<watch@shore.test>\r\n"])
    }

    @Test("a 5xx is refused for good, a 4xx worth another try, with the server's words")
    func refusals() {
        for (reply, permanent) in [("550 5.1.1 no such user", true), ("451 4.3.0 try later", false)] {
            var d = Self.dialogue(user: nil, implicitTLS: true)
            _ = d.received(Array("220 hi\r\n250 x\r\n".utf8))
            _ = d.received(Array("250 ok\r\n".utf8))
            let actions = d.received(Array((reply + "\r\n").utf8))
            #expect(
                actions == [
                    .failed("the server answered RCPT TO:<owner@boat.test> with \(reply)", permanent: permanent)
                ])
            // Nothing more after the end, whatever comes.
            #expect(d.received(Array("250 ok\r\n".utf8)).isEmpty)
        }
    }

    @Test("garbage, an endless line or an endless reply ends it")
    func hostile() {
        var d = Self.dialogue()
        #expect(d.received(Array("hello there\r\n".utf8)).count == 1)
        var long = Self.dialogue()
        let actions = long.received([UInt8](repeating: 65, count: 5000))
        #expect(actions.count == 1 && !Self.sent(actions).contains { _ in true })
        var many = Self.dialogue()
        let lines = many.received(Array(String(repeating: "220-x\r\n", count: 200).utf8))
        #expect(lines.count == 1)
    }

    @Test("smtp and smtps URLs: the default ports, percent-encoded passwords, the password hidden in the log")
    func server() {
        let server = SMTPServer("smtp://shore%40x:p%40ss%3Aw@mail.example.org")
        #expect(server?.host == "mail.example.org" && server?.port == 587 && server?.implicitTLS == false)
        #expect(server?.user == "shore@x" && server?.password == "p@ss:w")
        #expect(server?.described == "smtp://shore@x:***@mail.example.org:587")
        #expect(SMTPServer("smtps://[::1]:2465")?.port == 2465 && SMTPServer("smtps://[::1]")?.host == "::1")
        #expect(SMTPServer("smtps://h")?.port == 465)
        for bad in [
            "http://h", "smtp://", "smtp://h:0", "smtp://h:70000", "smtp://u@h", "smtp://u:p%0A@h", "smtp://h/x",
        ] {
            #expect(SMTPServer(bad) == nil, "\(bad)")
        }
    }
}
