import Fleet
import Gateway
import Platform
import SignalK

/// The shore's Web Push side: its VAPID key (made once, kept in the store so that every web side of a deployment hands
/// phones the same), and the letters for an alert, one per phone of the boat's people.
final class PushKeys {
    /// The key's DER, base64, as kept; its public point, base64url, as phones are given it.
    let privateDER: String
    let publicKey: String
    /// VAPID's contact (`mailto:` the shore's sender, when it has one).
    let subject: String
    let ca: String?

    init?(store: FleetStore, subject: String, ca: String?, log: Log) {
        guard let crypto = try? WebCrypto() else {
            log.warning("fleet.push", "fleet: Web Push off: OpenSSL 3 (libssl3) is not there", [("device", "fleet")])
            return nil
        }
        let kept = try? store.key("vapid") { () -> String? in
            guard let key = try? crypto.generate() else { return nil }
            defer { crypto.free(key) }
            return (try? crypto.privateDER(key)).map(Base64.encode)
        }
        guard let kept: String = kept ?? nil, let der = Base64.decode(kept), let key = try? crypto.privateKey(der: der)
        else {
            log.warning("fleet.push", "fleet: Web Push off: no VAPID key could be made or read", [("device", "fleet")])
            return nil
        }
        defer { crypto.free(key) }
        guard let point = try? crypto.publicPoint(key) else { return nil }
        privateDER = kept
        publicKey = Base64.encodeURL(point)
        self.subject = subject
        self.ca = ca
    }

    /// What the phone shows, as JSON (the panel's service worker reads it): the title, the words, the boat and kind
    /// (a later message of the same boat and kind replaces the earlier on the phone).
    static func payload(_ action: BoatWatch.Action) -> String {
        let (alert, words): (BoatWatch.Alert, String) =
            switch action {
            case .raise(let a): (a, "")
            case .again(let a): (a, "again: ")
            case .clear(let a): (a, "")
            }
        var out = JSONWriter()
        out.beginObject()
        out.value("title", "Telltale: " + alert.boat)
        out.value("body", words + alert.message)
        out.value("boat", alert.boat)
        out.value("kind", ShoreWatch.name(alert.kind))
        if case .clear = action { out.value("clear", true) }
        out.value("time", SignalKTime.text(unixTime: alert.at))
        out.endObject()
        return out.text
    }

    /// One letter per subscription of these accounts.
    func letters(for action: BoatWatch.Action, people: [String], store: FleetStore, at time: Double)
        -> [AlertPost.Letter]
    {
        let payload = Self.payload(action)
        return ((try? store.subscriptions(of: people)) ?? []).map { subscription in
            var json = JSONWriter()
            json.beginObject()
            json.value("kind", "push")
            json.value("endpoint", subscription.endpoint)
            json.value("p256dh", subscription.p256dh)
            json.value("auth", subscription.auth)
            json.value("vapid", privateDER)
            json.value("subject", subject)
            json.value("payload", payload)
            json.value("expires", Int(time) + 12 * 3600)
            if let ca { json.value("ca", ca) }
            json.endObject()
            return AlertPost.Letter(
                kind: "push", json: json.text, about: "push to \(subscription.name)'s phone",
                endpoint: subscription.endpoint)
        }
    }
}
