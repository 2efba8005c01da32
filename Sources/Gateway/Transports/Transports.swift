import Platform

/// The one place that knows transports by kind: each configured endpoint becomes the input or output that carries
/// it. Adding a transport is a type conforming to ``InputTransport`` or ``OutputTransport`` and a line here.
enum Transports {
    /// The input for a configured endpoint; nil (and a log line) for an endpoint inputs cannot read.
    static func input(_ input: InputConfiguration, log: Log) throws(POSIX.Failure) -> (any InputTransport)? {
        switch input.endpoint {
        case .file(let path):
            let file = try FileInput(configuration: input, path: path)
            if let summary = file.summary { log.notice("input.log-read", summary, [("input", input.name)]) }
            return file
        case .tcp(let host, let port):
            return NetworkInput(
                name: input.name, kind: .tcpClient(host: host, port: port), framing: input.framing, log: log)
        case .udp(let host, let port):
            return NetworkInput(
                name: input.name, kind: .udpListener(host: host, port: port), framing: input.framing, log: log)
        case .serial(let path, let baud):
            return SerialInput(name: input.name, path: path, baud: baud, framing: input.framing, log: log)
        case .gpsd(let host, let port):
            return GPSDClient(name: input.name, host: host, port: port, log: log)
        case .standardOutput:
            log.error(
                "input.unsupported", "input \(input.name): \(input.endpoint) cannot be read; skipped",
                [("input", input.name)])
            return nil
        }
    }

    /// The IMU input: a CSV trace played on its own clock, or a chip or IIO device read live (opened in the loop,
    /// and again whenever it fails: a missing IMU does not stop the gateway).
    static func imu(_ imu: IMUConfiguration, log: Log) -> (any InputTransport)? {
        guard case .csv = imu.source else { return LiveIMUInput(configuration: imu, log: log) }
        do {
            let input = try CSVIMUInput(configuration: imu)
            log.info("imu.open", "imu: \(imu.endpoint), axes \(imu.axes)", [("device", imu.endpoint)])
            return input
        } catch {
            log.error("imu.open-failed", "imu: \(error)", [("device", imu.endpoint)])
            return nil
        }
    }

    /// The transport for a configured output; nil (and a log line) for an endpoint outputs cannot write.
    static func output(_ output: OutputConfiguration, log: Log) throws(POSIX.Failure) -> (any OutputTransport)? {
        switch output.endpoint {
        case .tcp(let host, let port):
            let server = try TCPServer(
                host: host, port: port, bufferLimit: output.clientBuffer, maximumClients: output.maximumClients)
            log.notice(
                "output.serving", "output \(output.name): serving on tcp://\(host):\(server.port)",
                [("output", output.name), ("url", Endpoint.tcp(host: host, port: server.port).description)])
            return server
        case .udp(let host, let port):
            return try UDPSender(host: host, port: port)
        case .serial(let path, let baud):
            return SerialOutput(name: output.name, path: path, baud: baud, log: log)
        case .standardOutput:
            return StandardOutput()
        case .file, .gpsd:
            log.error(
                "output.unsupported", "output \(output.name): \(output.endpoint) cannot be written; skipped",
                [("output", output.name)])
            return nil
        }
    }
}
