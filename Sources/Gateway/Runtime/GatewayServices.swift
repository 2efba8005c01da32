/// The gateway's services, each by its kind, and all of them in the order they start (``ServiceGroup``): what the
/// runtime hands events to and carries actions out with. Made once from the configuration (``Runtime``'s setup);
/// which of them there are is what the configuration asks for.
struct GatewayServices {
    let inputs: InputService
    let outputs: OutputService
    let engine: EngineService
    let web: WebService?
    let voice: Voice?
    let weather: WeatherService?
    let uplink: UplinkService?
    /// The NMEA 2000 bus, when `[n2k]` is on.
    let n2k: N2KService?
    /// pypilot over TCP (`[autopilot] pypilot`).
    let pypilot: PypilotService?
    /// The harmonics files' stations, looked for when the engine asks (no polling of its own).
    let tides: TideService?
    /// The weather router's child process, when there is a state folder for its answers.
    let routing: RoutingService?
    let calibration: CalibrationService?
    let recorder: Recorder?
    let notifier: SystemdNotifier?
    /// Every service in its starting order: what consumes before what produces (the outputs, the web server, the
    /// voice, the recorder, the weather, the uplink, the housekeeping, the engine's tick, the bus, pypilot, the inputs,
    /// and systemd's notifier last, once all are up).
    private(set) var group = ServiceGroup()

    init(
        inputs: InputService, outputs: OutputService, engine: EngineService, web: WebService?, voice: Voice?,
        weather: WeatherService?, uplink: UplinkService?, n2k: N2KService?, pypilot: PypilotService?,
        tides: TideService?, routing: RoutingService?, calibration: CalibrationService?, recorder: Recorder?,
        notifier: SystemdNotifier?
    ) {
        self.inputs = inputs
        self.outputs = outputs
        self.engine = engine
        self.web = web
        self.voice = voice
        self.weather = weather
        self.uplink = uplink
        self.n2k = n2k
        self.pypilot = pypilot
        self.tides = tides
        self.routing = routing
        self.calibration = calibration
        self.recorder = recorder
        self.notifier = notifier
        group.append(outputs)
        group.append(web)
        group.append(voice)
        group.append(recorder)
        group.append(weather)
        group.append(tides)
        group.append(routing)
        group.append(calibration)
        group.append(uplink)
        group.append(Periodic(name: "housekeeping", every: 1, emitting: .housekeeping))
        group.append(engine)
        group.append(n2k)
        group.append(pypilot)
        group.append(inputs)
        group.append(notifier)
    }
}

/// The services by their kind, as the dispatcher names them.
extension Runtime {
    var inputs: InputService { services.inputs }
    var outputs: OutputService { services.outputs }
    var web: WebService? { services.web }
    var voice: Voice? { services.voice }
    var weather: WeatherService? { services.weather }
    var uplink: UplinkService? { services.uplink }
    var n2k: N2KService? { services.n2k }
    var pypilot: PypilotService? { services.pypilot }
    var recorder: Recorder? { services.recorder }
}
