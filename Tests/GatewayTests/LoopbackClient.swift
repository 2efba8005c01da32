import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP client on loopback that counts complete sentences.
final class LoopbackClient {
    let fd: Int32
    var bytes: [UInt8] = []

    init(port: Int, receiveBuffer: Int32? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { return }
            bytes.append(contentsOf: buffer[0..<got])
        }
    }

    var sentences: Int { bytes.filter { $0 == 0x0A }.count }
}

/// Hands the runtime to the thread that runs it while the test reads on its own.
final class RuntimeBox: @unchecked Sendable {
    let runtime: Runtime
    init(_ runtime: Runtime) { self.runtime = runtime }
}

final class ClientBox: @unchecked Sendable {
    let client: LoopbackClient
    init(_ client: LoopbackClient) { self.client = client }
}
