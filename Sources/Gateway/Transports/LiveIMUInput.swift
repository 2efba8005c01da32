import CPosix
import Engine
import Marine
import Platform
import Router
import Sensors

/// An IMU read live in `telltale run`: a chip on I²C driven by Telltale, or one the kernel drives read through IIO.
///
/// Samples are read on the chip's rate from the runtime's loop, turned into the body frame (axis map, then the
/// mounting tilt from `telltale calibrate level`), and handed over with the time they were taken. A device that
/// fails or goes silent is closed and opened again, at most a second apart, as a serial port is; every failure is
/// counted and logged (rate-limited by the runtime's logger).
final class LiveIMUInput: InputTransport {
    let configuration: IMUConfiguration
    private let log: Log
    private enum Device {
        /// The driver and its bus.
        case chip(any IMUDriver, any I2CBus)
        case iio(IIOReader)
    }
    private var device: Device?
    private var period = 0.01
    private var nextRead = 0.0
    /// A device that fails is opened again a second later.
    private var backoff = Backoff(first: 1, limit: 1)
    private var lastSample = 0.0
    private var consecutiveErrors = 0
    private(set) var samples = 0
    private(set) var errors = 0
    private(set) var reopens = 0
    private var opened = 0
    /// Wraps the I²C bus when it is opened (`telltale imu --transcript` keeps every transaction).
    private let wrap: ((any I2CBus) -> any I2CBus)?

    init(
        configuration: IMUConfiguration, log: Log, wrap: ((any I2CBus) -> any I2CBus)? = nil
    ) {
        self.configuration = configuration
        self.log = log
        self.wrap = wrap
    }

    var name: String { configuration.endpoint }

    /// When the loop should come back: the next read, or the next try to open.
    func nextDue(now: Double) -> Double? { device == nil ? max(backoff.retryAt, now) : nextRead }

    /// Opens the device at the start, before the loop (a chip's reset and set-up take 0.2 s).
    func start(at time: Double) {
        if device == nil { open(now: time) }
    }

    /// Read on its own rate, not on a descriptor.
    func prepare(now: Double, into set: inout PollSet) {}

    var counts: String {
        var text = ", \(errors) errors, \(reopens) reopens"
        if case .chip(_, let bus) = device {
            text += ", I2C \(bus.statistics.retries) retries, \(bus.statistics.errors) failed transfers"
        }
        return text
    }

    func close() { device = nil }

    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        read(now: now) { sample in body(.imu(sample, time: sample.time)) }
    }

    /// Opens the device when it is closed and due, reads when a sample is due.
    func read(now: Double, _ body: (IMUFile.Sample) -> Void) {
        if device == nil {
            guard backoff.isDue(now) else { return }
            open(now: now)
            guard device != nil else { return }
        }
        guard now >= nextRead else { return }
        nextRead += period
        if nextRead < now { nextRead = now + period }  // after a stall, keep the phase rather than burst
        let failure: String?
        switch device {
        case .chip(let driver, _):
            do {
                let reading = try driver.read()
                deliver(reading, at: now, body)
                failure = nil
            } catch {
                failure = "\(error)"
            }
        case .iio(let reader):
            do {
                var got = false
                try reader.read { reading, age in
                    got = true
                    deliver(reading, at: now - age, body)
                }
                failure =
                    got || now - lastSample < configuration.silenceTimeout
                    ? nil : "no sample for \(configuration.silenceTimeout) s"
            } catch {
                failure = "\(error)"
            }
        case nil:
            failure = nil
        }
        if let failure {
            errors += 1
            consecutiveErrors += 1
            log.warning("imu.read-failed", "imu \(name): \(failure)", [("device", name)])
            // A glitch is survived; a device that keeps failing (unplugged, reset) is opened again.
            if consecutiveErrors >= 10 || now - lastSample >= configuration.silenceTimeout {
                log.warning("imu.lost", "imu \(name): closing, will open again", [("device", name)])
                close(now: now)
            }
        } else {
            consecutiveErrors = 0
        }
    }

    private func deliver(_ reading: IMUReading, at time: Double, _ body: (IMUFile.Sample) -> Void) {
        let sample = configuration.bodyFrame(
            IMUFile.Sample(
                time: time, accelerometer: reading.accelerometer, gyroscope: reading.gyroscope,
                magnetometer: reading.magnetometer))
        samples += 1
        lastSample = max(lastSample, time)
        body(sample)
    }

    private func close(now: Double) {
        device = nil
        backoff.failed(at: now)
    }

    private func open(now: Double) {
        do {
            let (opened, rate) = try Self.openDevice(configuration, wrap: wrap)
            device = opened
            period = 1 / max(rate, 1)
            nextRead = now
            lastSample = now
            consecutiveErrors = 0
            backoff.succeeded()
            if self.opened > 0 { reopens += 1 }
            self.opened += 1
            switch opened {
            case .chip(let driver, _):
                log.notice(
                    "imu.open", "imu: \(driver.description): \(driver.configured); axes \(configuration.axes)",
                    [("device", name)])
            case .iio(let reader):
                log.notice(
                    "imu.open", "imu: \(reader.description), \(Int(rate)) Hz; axes \(configuration.axes)",
                    [("device", name)])
            }
            if configuration.mounting != .level {
                log.info(
                    "imu.mounting",
                    "imu: mounting tilt heel \(FixedDecimal.text(configuration.mounting.heel, decimals: 2))°, "
                        + "pitch \(FixedDecimal.text(configuration.mounting.pitch, decimals: 2))° taken off"
                )
            }
        } catch {
            errors += 1
            log.warning("imu.open-failed", "imu \(name): \(error); trying again in 1 s", [("device", name)])
            backoff.failed(at: now)
        }
    }

    /// The device for a configuration, with the rate to read it at.
    private static func openDevice(
        _ configuration: IMUConfiguration, wrap: ((any I2CBus) -> any I2CBus)?
    ) throws(IMUError) -> (Device, Double) {
        switch configuration.source {
        case .csv:
            throw .iio("a CSV IMU is played by the CSV input")
        case .i2c(let path, let address, let chip):
            var bus: any I2CBus
            do { bus = try LinuxI2CBus(path: path) } catch { throw .bus(error) }
            if let wrap { bus = wrap(bus) }
            let driver: any IMUDriver
            if let chip {
                driver = try chip.open(bus: bus, address: address ?? chip.addresses[0], settings: configuration.sensor)
            } else {
                guard let found = IMUChip.detect(bus: bus, address: address) else {
                    let place = address.map { "at \(hex($0))" } ?? "at 0x68, 0x69, 0x6a or 0x6b"
                    throw .iio(
                        "no known IMU \(place) on \(path) (known: \(IMUChip.allCases.map { $0.displayName }.joined(separator: ", ")))"
                    )
                }
                driver = try found.chip.open(bus: bus, address: found.address, settings: configuration.sensor)
            }
            return (.chip(driver, bus), driver.configured.sampleRate)
        case .iio(let devices, let mode, let devRoot, let trigger):
            let reader = try IIOReader(
                devices: devices, mode: mode, devRoot: devRoot, sampleRate: configuration.sensor.sampleRate,
                magnetometer: configuration.sensor.magnetometer, trigger: trigger)
            // Buffered: drain every 10 ms; polled: read at the device's rate, at most the asked one.
            let rate =
                mode == .buffered
                ? 100 : min(reader.sampleRate ?? configuration.sensor.sampleRate, configuration.sensor.sampleRate)
            return (.iio(reader), rate)
        }
    }
}
