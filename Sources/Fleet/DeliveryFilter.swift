/// Which of the boat watch's alerts go out by e-mail and push (all of them stay on the panel): one dragging anchor is
/// one message, whether the boat's own anchor alarm (`notifications.navigation.anchor`, which the boat usually sees
/// first) or the shore's own watch of the circle says it first; the other, while the first is open, is not sent, nor
/// its repeats or all clear. When the one sent clears while the other is still open, the other takes its place
/// (its repeats and all clear go out), so the owner is never told "all clear" while an anchor alarm stands. Sans-I/O.
public struct DeliveryFilter {
    /// The alerts delivered and still open, by boat and kind.
    private var said: Set<Key> = []
    /// Every open alert of an anchor kind, sent or not.
    private var open: Set<Key> = []

    struct Key: Hashable {
        var boat: String
        var kind: BoatWatch.Kind
    }

    public init() {}

    static func isAnchor(_ kind: BoatWatch.Kind) -> Bool {
        switch kind {
        case .anchorDrag: true
        case .alarm(let path): path.hasPrefix("notifications.navigation.anchor") || path == "notifications.anchor"
        case .silent: false
        }
    }

    /// Whether this action goes out.
    public mutating func pass(_ action: BoatWatch.Action) -> Bool {
        switch action {
        case .raise(let alert):
            let key = Key(boat: alert.boat, kind: alert.kind)
            guard Self.isAnchor(alert.kind) else {
                said.insert(key)
                return true
            }
            open.insert(key)
            let partnerSaid = said.contains { $0.boat == alert.boat && Self.isAnchor($0.kind) }
            if !partnerSaid { said.insert(key) }
            return !partnerSaid
        case .again(let alert):
            return said.contains(Key(boat: alert.boat, kind: alert.kind))
        case .clear(let alert):
            let key = Key(boat: alert.boat, kind: alert.kind)
            open.remove(key)
            guard said.remove(key) != nil else { return false }
            if Self.isAnchor(alert.kind), let other = open.first(where: { $0.boat == alert.boat }) {
                // The other anchor alert still stands: it is the one told from here on; this all clear is not.
                said.insert(other)
                return false
            }
            return true
        }
    }
}
