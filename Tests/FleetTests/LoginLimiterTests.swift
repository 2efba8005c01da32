import Fleet
import Testing

/// The shore slowing a guesser: per account and per address, said once a streak.
@Suite struct LoginLimiterTests {
    @Test("five wrong passwords free, then each try waits twice as long as the one before, up to 15 minutes")
    func slows() {
        var limiter = LoginLimiter()
        var sayings: [LoginLimiter.Saying] = []
        for i in 0..<5 {
            #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: Double(i)) == .check)
            sayings.append(limiter.failed(account: "owner", address: "10.0.0.9", at: Double(i)))
        }
        #expect(sayings == [.firstFailure, .nothing, .nothing, .nothing, .waiting(1)])
        #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: 4.5) == .wait(1))
        #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: 5) == .check)
        #expect(limiter.failed(account: "owner", address: "10.0.0.9", at: 5) == .nothing)  // said once
        #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: 5) == .wait(2))
        // A thousand guesses, each as soon as allowed: days, not seconds; the waits stop doubling at 900 s.
        var now = 7.0
        for _ in 0..<1000 {
            if case .wait(let seconds) = limiter.verdict(account: "owner", address: "10.0.0.9", at: now) {
                now += seconds
            }
            _ = limiter.failed(account: "owner", address: "10.0.0.9", at: now)
        }
        #expect(now > 10 * 86_400)
        #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: now) == .wait(900))
    }

    @Test("another address guessing the same account waits too; the same address guessing another account waits too")
    func bothKeys() {
        var limiter = LoginLimiter()
        for i in 0..<6 { _ = limiter.failed(account: "owner", address: "10.0.0.\(i)", at: 0) }
        #expect(limiter.verdict(account: "owner", address: "10.0.0.99", at: 0) != .check)
        #expect(limiter.verdict(account: "crew", address: "10.0.0.99", at: 0) == .check)
        var other = LoginLimiter()
        for i in 0..<6 { _ = other.failed(account: "name\(i)", address: "10.0.0.9", at: 0) }
        #expect(other.verdict(account: "someone", address: "10.0.0.9", at: 0) != .check)
        #expect(other.verdict(account: "someone", address: "10.0.0.8", at: 0) == .check)
    }

    @Test("a right password forgets both streaks; a streak is forgotten after an hour without a failure")
    func forgets() {
        var limiter = LoginLimiter()
        for _ in 0..<7 { _ = limiter.failed(account: "owner", address: "10.0.0.9", at: 0) }
        limiter.succeeded(account: "owner", address: "10.0.0.9")
        #expect(limiter.failures(account: "owner", address: "10.0.0.9") == (0, 0))
        for _ in 0..<7 { _ = limiter.failed(account: "owner", address: "10.0.0.9", at: 0) }
        #expect(limiter.verdict(account: "owner", address: "10.0.0.9", at: 3601) == .check)
        #expect(limiter.failed(account: "owner", address: "10.0.0.9", at: 3601) == .firstFailure)
    }

    @Test("its memory is bounded: a flood of addresses forgets the oldest streaks")
    func bounded() {
        var limiter = LoginLimiter()
        limiter.capacity = 100
        for i in 0..<1000 { _ = limiter.failed(account: "a\(i)", address: "b\(i)", at: Double(i)) }
        #expect(limiter.failures(account: "a0", address: "b0") == (0, 0))
        #expect(limiter.failures(account: "a999", address: "b999") == (1, 1))
    }
}

/// What an account sees and what an account may be.
@Suite struct ShoreAccountTests {
    @Test("an owner and a crew their boat, a committee the entered boats, the administrator every boat")
    func sees() {
        let entered: Set<String> = ["aurora", "brise"]
        let owner = ShoreAccount(name: "anne", role: .owner, boat: "aurora")
        #expect(owner.sees("aurora", entered: entered) && !owner.sees("brise", entered: entered))
        #expect(owner.boats(entered: entered) == ["aurora"])
        let committee = ShoreAccount(name: "rc", role: .committee)
        #expect(committee.sees("brise", entered: entered) && !committee.sees("cargo", entered: entered))
        #expect(ShoreAccount(name: "root", role: .admin).boats(entered: entered) == nil)
    }

    @Test("names, boats and addresses checked: an owner without a boat, a committee with one, a name with a space")
    func problems() {
        #expect(ShoreAccount(name: "anne", role: .owner, boat: "aurora", email: "anne@example.org").problem == nil)
        #expect(ShoreAccount(name: "anne", role: .owner).problem != nil)
        #expect(ShoreAccount(name: "rc", role: .committee, boat: "aurora").problem != nil)
        #expect(ShoreAccount(name: "an ne", role: .admin).problem != nil)
        #expect(ShoreAccount(name: "", role: .admin).problem != nil)
        #expect(ShoreAccount(name: "anne", role: .admin, email: "anne").problem != nil)
        #expect(ShoreAccount(name: "anne", role: .admin, email: "a b@example.org").problem != nil)
    }
}
