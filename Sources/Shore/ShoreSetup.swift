import CPosix
import Fleet
import Gateway
import Platform
import SignalK

/// What `telltale fleet` opens before its loop, from its options: the store, the race office's files, the web side,
/// a worker's journal and the brokers' links. A file or a library that cannot be had stops the start, said with its
/// exit status.
struct ShoreSetup {
    let store: FleetStore
    /// The worker's name (`--worker`), the session's, or one made of the process id.
    let name: String
    let web: ShoreWeb?
    let journal: FleetJournal?
    let links: [BrokerLink]

    init(_ options: FleetOptions, log: Log) throws(CommandError) {
        do { store = try FleetStore(options.store) } catch {
            throw CommandError("fleet: the store \(FleetStore.describe(options.store)): \(error)", status: 69)
        }
        name = options.worker ?? options.session ?? "fleet-\(getpid())"
        // The web side: every role but a worker's.
        web = options.role == .ingest ? nil : try ShoreWeb(options, store: store, log: log)
        // The brokers: every role but the web side's.
        guard options.role != .web else {
            journal = nil
            links = []
            return
        }
        var journal: FleetJournal?
        if options.role == .ingest {
            let path =
                options.journal
                ?? ((options.store.hasPrefix("postgres") ? "" : FleetCommand.folder(of: options.store))
                    + "telltale-worker-\(name).journal")
            do { journal = try FleetJournal(path: path) } catch { throw CommandError("fleet: \(error)", status: 73) }
        }
        self.journal = journal
        links = try Self.links(options, name: name, journal: journal)
    }

    /// A link for every broker, and with `--keeper` a keeper's beside each.
    static func links(_ options: FleetOptions, name: String, journal: FleetJournal?) throws(CommandError)
        -> [BrokerLink]
    {
        var links: [BrokerLink] = []
        for url in options.brokers {
            guard let broker = UplinkConfiguration.broker(url) else {
                throw CommandError("fleet: --broker mqtt://host[:port]", status: 64)
            }
            // A worker's session is kept by every broker: what comes while it restarts waits for it.
            var maker = BrokerClientMaker(
                id: "", cleanSession: true, username: options.username, password: options.password, tls: broker.tls,
                ca: options.ca, journal: journal)
            switch options.role {
            case .ingest:
                maker.id = "telltale-worker-" + name
                maker.cleanSession = false
            default:
                maker.id = options.session.map { "telltale-fleet-" + $0 } ?? "telltale-fleet-\(getpid())"
                maker.cleanSession = options.session == nil
            }
            let settings = BrokerSession.Settings(
                url: url, subscriptions: FleetCommand.subscriptions(options.role), shows: options.role == .all)
            links.append(try BrokerLink(host: broker.host, port: broker.port, settings: settings, maker: maker))
            if options.keeper {
                maker.id = "telltale-keeper"
                maker.cleanSession = false
                let keeper = BrokerSession.Settings(
                    url: url, subscriptions: FleetCommand.subscriptions(options.role, keeper: true), keeper: true)
                links.append(try BrokerLink(host: broker.host, port: broker.port, settings: keeper, maker: maker))
            }
        }
        return links
    }
}
