import Fleet
import Gateway
import SignalK

/// The phones' side of Web Push on the shore's panel: `push/key` (GET) the shore's VAPID public key to subscribe
/// with; `push/subscribe` (POST, the browser's PushSubscription as JSON) kept for the account logged in;
/// `push/unsubscribe` (POST `{"endpoint"}`) forgotten. On a shore without accounts a subscription is everyone's
/// (`*`): it is told of every boat.
extension ShoreWeb {
    /// Phones one account may have told the shore of.
    static let phonesPerAccount = 10
    /// The browsers' push services: a subscription elsewhere is refused (the shore posts to no other host, unless
    /// the operator names it with `--push-host`), so that an account cannot aim the shore at its own network.
    static let pushServices = [
        "fcm.googleapis.com", "android.googleapis.com", ".push.services.mozilla.com", ".push.apple.com",
        ".notify.windows.com",
    ]

    /// Whether an endpoint's host is a push service this shore posts to.
    static func isPushService(_ endpoint: String, extra: [String]) -> Bool {
        guard let host = WebPushFraming.parts(of: endpoint)?.host else { return false }
        return extra.contains { $0.lowercased() == host }
            || pushServices.contains { $0.hasPrefix(".") ? host.hasSuffix($0) : host == $0 }
    }

    func push(_ asked: SignalKServer.FleetRequest, at unix: Double) -> SignalKServer.ShellReply {
        guard let keys = pushKeys else { return .message(status: 404, "Web Push is off on this shore (see its log)") }
        let name = asked.name ?? "*"
        switch asked.path {
        case "push/key":
            return .json(status: 200, #"{"publicKey":"\#(keys.publicKey)"}"#)
        case "push/subscribe":
            guard let json = JSONValue.parse(asked.body, maximumDepth: 4, maximumLength: 4096),
                let subscription = Self.subscription(json, name: name)
            else {
                return .message(status: 400, "a PushSubscription: endpoint (https), keys.p256dh and keys.auth")
            }
            guard Self.isPushService(subscription.endpoint, extra: pushHosts) else {
                log.warning(
                    "fleet.push", "fleet: push: \(name) asked for a push service this shore does not post to",
                    [("device", "fleet")])
                return .message(status: 403, "not a push service this shore posts to")
            }
            do throws(StoreError) {
                let mine = try store.subscriptions(of: [name])
                if mine.count >= Self.phonesPerAccount
                    && !mine.contains(where: { $0.endpoint == subscription.endpoint })
                {
                    return .message(status: 409, "\(Self.phonesPerAccount) phones already: unsubscribe one first")
                }
                try store.keep(subscription, at: unix)
            } catch {
                return .message(status: 503, "the store: \(error)")
            }
            log.notice("fleet.push", "fleet: push: \(name) subscribed a phone", [("device", "fleet")])
            return .message(status: 201, "subscribed")
        case "push/unsubscribe":
            guard let endpoint = JSONValue.parse(asked.body, maximumDepth: 4, maximumLength: 4096)?["endpoint"]?.string
            else { return .message(status: 400, "{\"endpoint\"}") }
            let removed = (try? store.removeSubscription(endpoint, name: name)) ?? false
            return .message(status: removed ? 200 : 404, removed ? "unsubscribed" : "no such subscription of yours")
        default:
            return .message(status: 404, "push/key, push/subscribe or push/unsubscribe")
        }
    }

    /// A browser's PushSubscription checked: an https endpoint of a sane length, a P-256 point and a 16-byte secret.
    static func subscription(_ json: JSONValue, name: String) -> FleetStore.PushSubscription? {
        guard let endpoint = json["endpoint"]?.string, endpoint.utf8.count <= 1024,
            WebPushFraming.origin(of: endpoint) != nil,
            !endpoint.utf8.contains(where: { $0 <= 32 || $0 == 127 }),
            let p256dh = json["keys"]?["p256dh"]?.string, let point = Base64.decode(p256dh), point.count == 65,
            point[0] == 4, let auth = json["keys"]?["auth"]?.string, Base64.decode(auth)?.count == 16
        else { return nil }
        return FleetStore.PushSubscription(endpoint: endpoint, name: name, p256dh: p256dh, auth: auth)
    }
}
