import CMosquitto
import Platform

/// The functions of libmosquitto (Debian's `libmosquitto1`) the uplink and `telltale fleet` use, looked up with
/// dlopen(3) when one is configured: a gateway with no uplink maps neither it nor OpenSSL.
package struct Mosquitto {
    package typealias Handle = OpaquePointer
    package typealias Callback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Void
    package typealias MessageCallback =
        @convention(c) (Handle?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void

    package let libInit: @convention(c) () -> Int32
    package let new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?
    package let destroy: @convention(c) (Handle?) -> Void
    package let willSet: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    package let credentials: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    package let tlsSet:
        @convention(c) (
            Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            OpaquePointer?
        ) -> Int32
    package let intOption: @convention(c) (Handle?, Int32, Int32) -> Int32
    package let connectAsync: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    package let reconnectAsync: @convention(c) (Handle?) -> Int32
    package let disconnect: @convention(c) (Handle?) -> Int32
    package let publish:
        @convention(c) (
            Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool
        )
            -> Int32
    package let subscribe: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32
    package let loopRead: @convention(c) (Handle?, Int32) -> Int32
    package let loopWrite: @convention(c) (Handle?, Int32) -> Int32
    package let loopMisc: @convention(c) (Handle?) -> Int32
    package let socket: @convention(c) (Handle?) -> Int32
    package let wantWrite: @convention(c) (Handle?) -> Bool
    package let onConnect: @convention(c) (Handle?, Callback?) -> Void
    package let onDisconnect: @convention(c) (Handle?, Callback?) -> Void
    package let onPublish: @convention(c) (Handle?, Callback?) -> Void
    package let onMessage: @convention(c) (Handle?, MessageCallback?) -> Void
    package let describe: @convention(c) (Int32) -> UnsafePointer<CChar>?
    package let userData: @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Void

    /// The library, initialised once; nil when it is not installed.
    package static let shared: Mosquitto? = {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libmosquitto.so.1", "libmosquitto.so"])
            func function<T>(_ name: String, _ type: T.Type) throws(DynamicLibrary.Failure) -> T {
                try library.function(name, as: type)
            }
            let lib = Mosquitto(
                libInit: try function("mosquitto_lib_init", (@convention(c) () -> Int32).self),
                new: try function(
                    "mosquitto_new",
                    (@convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?).self),
                destroy: try function("mosquitto_destroy", (@convention(c) (Handle?) -> Void).self),
                willSet: try function(
                    "mosquitto_will_set",
                    (@convention(c) (Handle?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32)
                        .self),
                credentials: try function(
                    "mosquitto_username_pw_set",
                    (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self),
                tlsSet: try function(
                    "mosquitto_tls_set",
                    (@convention(c) (
                        Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                        UnsafePointer<CChar>?, OpaquePointer?
                    ) -> Int32).self),
                intOption: try function(
                    "mosquitto_int_option", (@convention(c) (Handle?, Int32, Int32) -> Int32).self),
                connectAsync: try function(
                    "mosquitto_connect_async",
                    (@convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32).self),
                reconnectAsync: try function("mosquitto_reconnect_async", (@convention(c) (Handle?) -> Int32).self),
                disconnect: try function("mosquitto_disconnect", (@convention(c) (Handle?) -> Int32).self),
                publish: try function(
                    "mosquitto_publish",
                    (@convention(c) (
                        Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32,
                        Bool
                    ) -> Int32).self),
                subscribe: try function(
                    "mosquitto_subscribe",
                    (@convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32)
                        .self),
                loopRead: try function("mosquitto_loop_read", (@convention(c) (Handle?, Int32) -> Int32).self),
                loopWrite: try function("mosquitto_loop_write", (@convention(c) (Handle?, Int32) -> Int32).self),
                loopMisc: try function("mosquitto_loop_misc", (@convention(c) (Handle?) -> Int32).self),
                socket: try function("mosquitto_socket", (@convention(c) (Handle?) -> Int32).self),
                wantWrite: try function("mosquitto_want_write", (@convention(c) (Handle?) -> Bool).self),
                onConnect: try function(
                    "mosquitto_connect_callback_set", (@convention(c) (Handle?, Callback?) -> Void).self),
                onDisconnect: try function(
                    "mosquitto_disconnect_callback_set", (@convention(c) (Handle?, Callback?) -> Void).self),
                onPublish: try function(
                    "mosquitto_publish_callback_set", (@convention(c) (Handle?, Callback?) -> Void).self),
                onMessage: try function(
                    "mosquitto_message_callback_set", (@convention(c) (Handle?, MessageCallback?) -> Void).self),
                describe: try function("mosquitto_strerror", (@convention(c) (Int32) -> UnsafePointer<CChar>?).self),
                userData: try function(
                    "mosquitto_user_data_set", (@convention(c) (Handle?, UnsafeMutableRawPointer?) -> Void).self))
            _ = lib.libInit()
            return lib
        } catch {
            return nil
        }
    }()

    /// libmosquitto's words for an error number.
    package func text(_ code: Int32) -> String {
        guard let text = describe(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// One connection to an MQTT broker (3.1.1) through libmosquitto, driven by the gateway's own poll loop: its socket
/// is polled with the others, and ``read()``, ``write()`` and ``housekeep()`` are libmosquitto's loop functions, so
/// libmosquitto starts no thread. What the broker says comes back as ``Event``s, taken after each call.
package final class MQTTClient {
    package enum Event: Equatable {
        case connected(Int32)
        case disconnected(Int32)
        /// The broker acknowledged the message with this id (QoS 1).
        case acknowledged(Int32)
        case message(topic: String, payload: [UInt8])
    }

    /// Why the client could not be made.
    package enum Failure: Error, CustomStringConvertible {
        case library
        case client(String)

        package var description: String {
            switch self {
            case .library: "libmosquitto is not installed (apt install libmosquitto1)"
            case .client(let why): why
            }
        }
    }

    package let lib: Mosquitto
    private let handle: Mosquitto.Handle
    private var events: [Event] = []
    /// Messages over this length from the broker are dropped (counted): a flood or a hostile payload never grows the
    /// gateway.
    package var maximumIncoming = 4096
    package private(set) var droppedIncoming = 0
    /// Called with each message inside libmosquitto's callback, before the acknowledgement goes back to the broker
    /// (the shore's ingest worker writes it to its journal there).
    package var beforeAcknowledging: ((String, UnsafeRawBufferPointer) -> Void)?
    /// False: messages are dropped in the callback unread (the keeper's session while nothing is missing).
    package var accepting = true
    private(set) var ignored = 0

    /// A client called `id`, its session kept by the broker across reconnections (`cleanSession` false) so that
    /// acknowledgements are not lost to a dropped link.
    package init(id: String, cleanSession: Bool) throws(Failure) {
        guard let lib = Mosquitto.shared else { throw .library }
        self.lib = lib
        guard let handle = lib.new(id, cleanSession, nil) else { throw .client("libmosquitto: no client") }
        self.handle = handle
        _ = lib.intOption(handle, Int32(MOSQ_OPT_PROTOCOL_VERSION.rawValue), MQTT_PROTOCOL_V311)
        // libmosquitto calls back only from inside this client's own loop calls, while it lives: not retained.
        lib.userData(handle, Unmanaged.passUnretained(self).toOpaque())
        lib.onConnect(handle) { _, data, code in MQTTClient.from(data)?.events.append(.connected(code)) }
        lib.onDisconnect(handle) { _, data, code in MQTTClient.from(data)?.events.append(.disconnected(code)) }
        lib.onPublish(handle) { _, data, mid in MQTTClient.from(data)?.events.append(.acknowledged(mid)) }
        lib.onMessage(handle) { _, data, message in
            guard let client = MQTTClient.from(data), let message = message?.pointee else { return }
            guard client.accepting else {
                client.ignored += 1
                return
            }
            let length = Int(message.payloadlen)
            guard length >= 0, length <= client.maximumIncoming, let topic = message.topic else {
                client.droppedIncoming += 1
                return
            }
            let bytes = UnsafeRawBufferPointer(start: message.payload, count: message.payload == nil ? 0 : length)
            let name = String(cString: topic)
            client.beforeAcknowledging?(name, bytes)
            let payload = Array(bytes)
            client.events.append(.message(topic: name, payload: payload))
        }
    }

    deinit { lib.destroy(handle) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> MQTTClient? {
        data.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    /// What the broker has said since the last call.
    package func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    /// The message the broker publishes for this client if it goes without saying goodbye (retained, QoS 1).
    package func will(topic: String, payload: [UInt8]) {
        _ = payload.withUnsafeBytes { lib.willSet(handle, topic, Int32($0.count), $0.baseAddress, 1, true) }
    }

    package func credentials(username: String, password: String?) {
        _ = lib.credentials(handle, username, password)
    }

    /// TLS with a CA file, and a client certificate and key when given; a return other than 0 says why not.
    package func tls(ca: String, certificate: String?, key: String?) -> Int32 {
        lib.tlsSet(handle, ca, nil, certificate, key, nil)
    }

    /// Starts connecting, without waiting for the connection (its socket is then polled for writing).
    package func connect(host: String, port: Int, keepAlive: Int) -> Int32 {
        lib.connectAsync(handle, host, Int32(port), Int32(keepAlive))
    }

    package func reconnect() -> Int32 { lib.reconnectAsync(handle) }

    package func disconnect() { _ = lib.disconnect(handle) }

    /// Publishes; the message's id (for its acknowledgement) or the error.
    package func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) -> Result<Int32, MQTTError> {
        var mid: Int32 = 0
        let code = payload.withUnsafeBytes {
            lib.publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain)
        }
        return code == 0 ? .success(mid) : .failure(MQTTError(code: code, text: lib.text(code)))
    }

    package func subscribe(topic: String, qos: Int32) -> Int32 { lib.subscribe(handle, nil, topic, qos) }

    /// The connection's socket, or -1 while there is none.
    package var socket: Int32 { lib.socket(handle) }
    package var wantsWrite: Bool { lib.wantWrite(handle) }

    /// What came in (its socket was readable); 0 or libmosquitto's error (the connection lost).
    package func read() -> Int32 { lib.loopRead(handle, 16) }
    package func write() -> Int32 { lib.loopWrite(handle, 16) }
    /// Keep-alive pings and timeouts: once a second or so.
    package func housekeep() -> Int32 { lib.loopMisc(handle) }
}

/// libmosquitto's error number and its words.
package struct MQTTError: Error, CustomStringConvertible {
    package var code: Int32
    package var text: String
    package var description: String { text }
}
