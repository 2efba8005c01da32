/// Whether a message's data may be used, judged once here for everything that reads messages (the engine, the
/// Signal K model): not a `V` status, not an FAA mode that says the data is not valid, a GGA with a fix.
extension Message {
    public var isUsable: Bool {
        switch self {
        case .rmc(let rmc): rmc.isUsable
        case .gga(let gga): gga.isUsable
        case .gll(let gll): gll.isUsable
        case .vtg(let vtg): vtg.isUsable
        case .mwv(let mwv): mwv.isValid != false
        case .rot(let rot): rot.isValid != false
        case .rmb(let rmb): rmb.isValid == true
        default: true
        }
    }
}
