import Engine
import Router

/// One configured output: its transport and what every output has besides (its configuration, the computed kinds
/// it carries, how many sentences it was given).
final class Output {
    let configuration: OutputConfiguration
    let transport: any OutputTransport
    /// The computed kinds this output carries (``GatewayConfiguration/kinds(of:)``).
    let kinds: Set<ComputedKind>
    private(set) var sent = 0

    init(configuration: OutputConfiguration, kinds: Set<ComputedKind>, transport: any OutputTransport) {
        self.configuration = configuration
        self.kinds = kinds
        self.transport = transport
    }

    var name: String { configuration.name }

    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) {
        sent += 1
        transport.send(bytes, computed: computed, now: now)
    }

    /// The router's policy for this output. Pass-through never goes back to the device or address it came from:
    /// `excluded` are the inputs reading where this output writes.
    func policy(excluded: Set<SourceID>) -> OutputPolicy {
        var policy = OutputPolicy(name: configuration.name)
        policy.computed = configuration.computed
        policy.kinds = kinds
        policy.passThrough = configuration.passThrough
        policy.excludedSources = excluded
        policy.filter = AddressFilter(include: configuration.include, exclude: configuration.exclude)
        policy.talker = configuration.talker
        policy.forecastWind = configuration.forecastWind
        policy.rateLimits = configuration.rateLimits
        policy.attitudeNames = configuration.attitudeNames
        policy.attitudeDecimals = configuration.attitudeDecimals
        policy.dialect = configuration.dialect
        policy.servesClients = transport.servesClients
        return policy
    }
}
