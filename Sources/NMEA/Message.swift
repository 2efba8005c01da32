/// A decoded sentence of any type Telltale reads.
public enum Message: Hashable, Sendable {
    case rmc(RMC)
    case gga(GGA)
    case gll(GLL)
    case vtg(VTG)
    case zda(ZDA)
    case hdg(HDG)
    case hdm(HDM)
    case hdt(HDT)
    case vhw(VHW)
    case mwv(MWV)
    case vwr(VWR)
    case vwt(VWT)
    case mwd(MWD)
    case vpw(VPW)
    case dbt(DBT)
    case dpt(DPT)
    case mtw(MTW)
    case vlw(VLW)
    case xdr(XDR)
    case rmb(RMB)
    case apb(APB)
    case xte(XTE)
    case bwc(BWC)
    case bwr(BWR)
    case bod(BOD)
    case rte(RTE)
    case wcv(WCV)
    case rot(ROT)
    case rsa(RSA)
    case alr(ALR)
    case txt(TXT)

    /// Decodes a framed sentence by its formatter.
    ///
    /// - Throws: ``DecodeError/unsupported(_:)`` for proprietary, query and unknown sentences (which can still be
    ///   passed through), or a field error.
    public init(_ sentence: Sentence) throws(DecodeError) {
        guard let formatter = sentence.address.formatter, sentence.startCharacter == UInt8(ascii: "$") else {
            throw .unsupported(sentence.address)
        }
        switch formatter {
        case RMC.formatter: self = .rmc(try RMC(sentence))
        case GGA.formatter: self = .gga(try GGA(sentence))
        case GLL.formatter: self = .gll(try GLL(sentence))
        case VTG.formatter: self = .vtg(try VTG(sentence))
        case ZDA.formatter: self = .zda(try ZDA(sentence))
        case HDG.formatter: self = .hdg(try HDG(sentence))
        case HDM.formatter: self = .hdm(try HDM(sentence))
        case HDT.formatter: self = .hdt(try HDT(sentence))
        case VHW.formatter: self = .vhw(try VHW(sentence))
        case MWV.formatter: self = .mwv(try MWV(sentence))
        case VWR.formatter: self = .vwr(try VWR(sentence))
        case VWT.formatter: self = .vwt(try VWT(sentence))
        case MWD.formatter: self = .mwd(try MWD(sentence))
        case VPW.formatter: self = .vpw(try VPW(sentence))
        case DBT.formatter: self = .dbt(try DBT(sentence))
        case DPT.formatter: self = .dpt(try DPT(sentence))
        case MTW.formatter: self = .mtw(try MTW(sentence))
        case VLW.formatter: self = .vlw(try VLW(sentence))
        case XDR.formatter: self = .xdr(try XDR(sentence))
        case RMB.formatter: self = .rmb(try RMB(sentence))
        case APB.formatter: self = .apb(try APB(sentence))
        case XTE.formatter: self = .xte(try XTE(sentence))
        case BWC.formatter: self = .bwc(try BWC(sentence))
        case BWR.formatter: self = .bwr(try BWR(sentence))
        case BOD.formatter: self = .bod(try BOD(sentence))
        case RTE.formatter: self = .rte(try RTE(sentence))
        case WCV.formatter: self = .wcv(try WCV(sentence))
        case ROT.formatter: self = .rot(try ROT(sentence))
        case RSA.formatter: self = .rsa(try RSA(sentence))
        case ALR.formatter: self = .alr(try ALR(sentence))
        case TXT.formatter: self = .txt(try TXT(sentence))
        default: throw .unsupported(sentence.address)
        }
    }

    /// The sentence value when its type can be encoded, for writing it out again.
    public var encodable: (any EncodableSentence)? {
        switch self {
        case .rmc(let value): value
        case .gga(let value): value
        case .vtg(let value): value
        case .hdg(let value): value
        case .hdm(let value): value
        case .hdt(let value): value
        case .mwv(let value): value
        case .vwr(let value): value
        case .vwt(let value): value
        case .mwd(let value): value
        case .vpw(let value): value
        case .xdr(let value): value
        case .rmb(let value): value
        case .apb(let value): value
        case .xte(let value): value
        case .bwc(let value): value
        case .bwr(let value): value
        case .wcv(let value): value
        case .rot(let value): value
        case .alr(let value): value
        case .txt(let value): value
        case .vhw(let value): value
        case .dpt(let value): value
        case .gll, .zda, .dbt, .mtw, .vlw, .bod, .rte, .rsa: nil
        }
    }
}
