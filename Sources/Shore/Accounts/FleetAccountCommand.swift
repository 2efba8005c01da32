import Fleet
import Gateway
import Platform
import SignalK

/// `telltale fleet account add|list|remove`: the accounts in the fleet's store (``FleetStore`` + Accounts). The
/// password comes on standard input, never on the command line (where `ps` and the shell's history would show it).
public enum FleetAccountCommand {
    public static func run(_ options: FleetAccountOptions, input: String = "-") throws(CommandError) -> String {
        let store: FleetStore
        do { store = try FleetStore(options.store) } catch {
            throw CommandError("fleet account: the store \(FleetStore.describe(options.store)): \(error)", status: 69)
        }
        switch options.action {
        case .list:
            do throws(StoreError) { return text(try store.accounts()) } catch {
                throw CommandError("fleet account: the store: \(error)", status: 74)
            }
        case .remove:
            let name = options.name ?? ""
            let found: Bool
            do throws(StoreError) { found = try store.removeAccount(name) } catch {
                throw CommandError("fleet account: the store: \(error)", status: 74)
            }
            guard found else { throw CommandError("fleet account remove: no account \(name)", status: 65) }
            return "removed \(name) and its sessions\n"
        case .add: return try add(options, store: store, input: input)
        }
    }

    static func add(_ options: FleetAccountOptions, store: FleetStore, input: String) throws(CommandError) -> String {
        guard let word = options.role, let role = ShoreAccount.Role(rawValue: word) else {
            throw CommandError("fleet account add: --role admin, committee, owner or crew", status: 64)
        }
        let account = ShoreAccount(name: options.name ?? "", role: role, boat: options.boat, email: options.email)
        if let problem = account.problem { throw CommandError("fleet account add: \(problem)", status: 64) }
        let password = try password(from: input)
        guard let sodium = Sodium.shared else { throw CommandError("fleet account add: \(Sodium.missing)", status: 69) }
        guard let hash = sodium.hash(password) else {
            throw CommandError("fleet account add: the password could not be hashed (memory)", status: 71)
        }
        let replaced = (try? store.account(named: account.name)) != nil
        do throws(StoreError) { try store.keep(account, hash: hash, at: POSIX.unixTime()) } catch {
            throw CommandError("fleet account add: the store: \(error)", status: 74)
        }
        return (replaced ? "replaced " : "added ") + "\(account.name) (\(role.rawValue)"
            + (account.boat.map { ", boat \($0)" } ?? "") + ")\n"
    }

    /// The password: standard input's first line, 8 to 1,024 bytes.
    static func password(from input: String) throws(CommandError) -> String {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(input, limit: 4096) } catch {
            throw CommandError("fleet account add: the password on standard input: \(error)", status: 66)
        }
        let line = String(decoding: bytes.prefix { $0 != 10 && $0 != 13 }, as: UTF8.self)
        guard line.utf8.count >= 8, line.utf8.count <= 1024 else {
            throw CommandError("fleet account add: a password of 8 characters or more on standard input", status: 64)
        }
        return line
    }

    static func text(_ accounts: [FleetStore.KeptAccount]) -> String {
        guard !accounts.isEmpty else { return "no accounts: the shore's panel is open to anyone who reaches it\n" }
        return accounts.map { kept in
            let a = kept.account
            return [a.name, a.role.rawValue, a.boat ?? "-", a.email ?? "-", SignalKTime.text(unixTime: kept.created)]
                .joined(separator: "\t")
        }.joined(separator: "\n") + "\n"
    }
}
