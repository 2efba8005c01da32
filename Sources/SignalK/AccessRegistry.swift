/// Signal K's device access: a device (an app on a phone) asks for access (`POST /signalk/v1/access/requests`, or the
/// `accessRequest` WebSocket message), someone aboard approves or denies it (`telltale access`, or an approved
/// device), and an approved device holds a token it sends with what it changes. The requests and devices as
/// signalk-server's `src/tokensecurity.ts` and `src/requestResponse.ts` keep them, pure: times come in as UNIX
/// seconds, and tokens are made from a secret the shell draws from the kernel at start, so nothing here reads a
/// clock or a random source. The shell keeps ``json`` in the state folder, so devices stay approved across restarts.
public struct AccessRegistry: Sendable {
    public enum Permission: String, Sendable {
        case readonly, readwrite, admin

        /// Whether it may change things (PUT, the Course API, alarms).
        public var writes: Bool { self != .readonly }
    }

    public enum State: String, Sendable {
        case pending, approved, denied
    }

    public struct Request: Sendable {
        public var requestId: String
        public var clientId: String
        public var description: String
        public var permission: Permission
        /// Where it came from, as text (`192.168.4.20`).
        public var address: String
        public var requested: Double
        public var state: State
    }

    public struct Device: Sendable {
        public var clientId: String
        public var description: String
        public var permission: Permission
        public var token: String
        public var approved: Double
    }

    /// Requests kept (the oldest answered ones go first, then the oldest pending), and devices approved at most.
    public static let maximumRequests = 32
    public static let maximumDevices = 64

    public private(set) var requests: [Request] = []
    public private(set) var devices: [Device] = []
    private let secret: [UInt8]
    private var counter = 0

    /// - Parameter secret: random bytes, the shell's (at least 16).
    public init(secret: [UInt8]) { self.secret = secret }

    /// A device asks for access. A second request from the same client while one waits is the same request.
    public mutating func request(
        clientId: String, description: String, permission: Permission, address: String, at unixTime: Double
    ) -> Request {
        if let waiting = requests.first(where: { $0.clientId == clientId && $0.state == .pending }) { return waiting }
        let request = Request(
            requestId: SignalKModel.uuid(make("request")), clientId: String(clientId.prefix(100)),
            description: String(description.prefix(200)), permission: permission, address: address,
            requested: unixTime, state: .pending)
        if requests.count >= Self.maximumRequests {
            let oldest = requests.firstIndex { $0.state != .pending } ?? 0
            requests.remove(at: oldest)
        }
        requests.append(request)
        return request
    }

    public func request(_ requestId: String) -> Request? { requests.first { $0.requestId == requestId } }

    /// Approves a waiting request: the device it came from is given a token (one approved before under the same
    /// client id is replaced). Nil when there is no such waiting request.
    public mutating func approve(_ requestId: String, at unixTime: Double) -> Device? {
        guard let index = requests.firstIndex(where: { $0.requestId == requestId && $0.state == .pending }) else {
            return nil
        }
        requests[index].state = .approved
        let request = requests[index]
        devices.removeAll { $0.clientId == request.clientId }
        if devices.count >= Self.maximumDevices { devices.removeFirst() }
        let device = Device(
            clientId: request.clientId, description: request.description, permission: request.permission,
            token: SignalKModel.hex(make("token") + make("token")), approved: unixTime)
        devices.append(device)
        return device
    }

    /// Denies a waiting request; false when there is no such waiting request.
    public mutating func deny(_ requestId: String) -> Bool {
        guard let index = requests.firstIndex(where: { $0.requestId == requestId && $0.state == .pending }) else {
            return false
        }
        requests[index].state = .denied
        return true
    }

    /// Takes a device's token back; false when no device has that client id.
    public mutating func revoke(_ clientId: String) -> Bool {
        let before = devices.count
        devices.removeAll { $0.clientId == clientId }
        return devices.count < before
    }

    /// The device a token belongs to.
    public func device(token: String) -> Device? {
        guard !token.isEmpty else { return nil }
        return devices.first { $0.token == token }
    }

    /// The device a request's approval made.
    public func device(for request: Request) -> Device? {
        request.state == .approved ? devices.first { $0.clientId == request.clientId } : nil
    }

    /// 20 bytes no one can guess without the secret: SHA-1 over the secret, a purpose and a counter.
    private mutating func make(_ purpose: String) -> [UInt8] {
        counter += 1
        return SHA1.digest(secret + Array((purpose + ":" + String(counter)).utf8) + secret)
    }
}

extension AccessRegistry {
    /// The requests and devices, for the state folder and for `telltale access list` (`tokens: false` leaves the
    /// tokens out).
    public func json(tokens: Bool) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginArray("requests")
        for request in requests {
            json.beginObject(nil)
            json.value("requestId", request.requestId)
            json.value("clientId", request.clientId)
            json.value("description", request.description)
            json.value("permissions", request.permission.rawValue)
            json.value("address", request.address)
            json.value("requested", request.requested)
            json.value("state", request.state.rawValue)
            json.endObject()
        }
        json.endArray()
        json.beginArray("devices")
        for device in devices {
            json.beginObject(nil)
            json.value("clientId", device.clientId)
            json.value("description", device.description)
            json.value("permissions", device.permission.rawValue)
            if tokens { json.value("token", device.token) }
            json.value("approved", device.approved)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.text
    }

    /// The registry the state folder kept, with a new secret; what cannot be read is left out.
    public init(json text: [UInt8], secret: [UInt8]) {
        self.init(secret: secret)
        guard let root = JSONValue.parse(text, maximumLength: 1_000_000) else { return }
        for item in root["requests"]?.array ?? [] {
            guard let requestId = item["requestId"]?.string, let clientId = item["clientId"]?.string,
                let state = item["state"]?.string.flatMap(State.init(rawValue:))
            else { continue }
            requests.append(
                Request(
                    requestId: requestId, clientId: clientId, description: item["description"]?.string ?? "",
                    permission: item["permissions"]?.string.flatMap(Permission.init(rawValue:)) ?? .readonly,
                    address: item["address"]?.string ?? "", requested: item["requested"]?.number ?? 0, state: state))
        }
        for item in root["devices"]?.array ?? [] {
            guard let clientId = item["clientId"]?.string, let token = item["token"]?.string, token.utf8.count >= 32
            else { continue }
            devices.append(
                Device(
                    clientId: clientId, description: item["description"]?.string ?? "",
                    permission: item["permissions"]?.string.flatMap(Permission.init(rawValue:)) ?? .readonly,
                    token: token, approved: item["approved"]?.number ?? 0))
        }
        requests = Array(requests.suffix(Self.maximumRequests))
        devices = Array(devices.suffix(Self.maximumDevices))
    }
}
