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
    case ack(ACK)
    case acn(ACN)

    /// Decodes a framed sentence by its formatter.
    ///
    /// - Throws: ``DecodeError/unsupported(_:)`` for proprietary, query and unknown sentences (which can still be
    ///   passed through), or a field error.
    public init(_ sentence: borrowing Sentence) throws(DecodeError) {
        guard let formatter = sentence.address.formatter, sentence.startCharacter == UInt8(ascii: "$") else {
            throw .unsupported(sentence.address)
        }
        let address = sentence.address
        // One reader for every type: no copy of the sentence and no generic dispatch per decode.
        self = try sentence.decodeFields { (r: inout FieldReader) throws(DecodeError) -> Message in
            switch formatter {
            case RMC.formatter: return .rmc(try RMC(fields: &r))
            case GGA.formatter: return .gga(try GGA(fields: &r))
            case GLL.formatter: return .gll(try GLL(fields: &r))
            case VTG.formatter: return .vtg(try VTG(fields: &r))
            case ZDA.formatter: return .zda(try ZDA(fields: &r))
            case HDG.formatter: return .hdg(try HDG(fields: &r))
            case HDM.formatter: return .hdm(try HDM(fields: &r))
            case HDT.formatter: return .hdt(try HDT(fields: &r))
            case VHW.formatter: return .vhw(try VHW(fields: &r))
            case MWV.formatter: return .mwv(try MWV(fields: &r))
            case VWR.formatter: return .vwr(try VWR(fields: &r))
            case VWT.formatter: return .vwt(try VWT(fields: &r))
            case MWD.formatter: return .mwd(try MWD(fields: &r))
            case VPW.formatter: return .vpw(try VPW(fields: &r))
            case DBT.formatter: return .dbt(try DBT(fields: &r))
            case DPT.formatter: return .dpt(try DPT(fields: &r))
            case MTW.formatter: return .mtw(try MTW(fields: &r))
            case VLW.formatter: return .vlw(try VLW(fields: &r))
            case XDR.formatter: return .xdr(try XDR(fields: &r))
            case RMB.formatter: return .rmb(try RMB(fields: &r))
            case APB.formatter: return .apb(try APB(fields: &r))
            case XTE.formatter: return .xte(try XTE(fields: &r))
            case BWC.formatter: return .bwc(try BWC(fields: &r))
            case BWR.formatter: return .bwr(try BWR(fields: &r))
            case BOD.formatter: return .bod(try BOD(fields: &r))
            case RTE.formatter: return .rte(try RTE(fields: &r))
            case WCV.formatter: return .wcv(try WCV(fields: &r))
            case ROT.formatter: return .rot(try ROT(fields: &r))
            case RSA.formatter: return .rsa(try RSA(fields: &r))
            case ALR.formatter: return .alr(try ALR(fields: &r))
            case TXT.formatter: return .txt(try TXT(fields: &r))
            case ACK.formatter: return .ack(try ACK(fields: &r))
            case ACN.formatter: return .acn(try ACN(fields: &r))
            default: throw .unsupported(address)
            }
        }
        if let quantity = implausibleQuantity { throw .implausible(quantity) }
    }

    /// Whether the sentence's type can be encoded, so that it can be written out again.
    public var isEncodable: Bool {
        switch self {
        case .gll, .zda, .dbt, .mtw, .vlw, .bod, .rte, .rsa: false
        default: true
        }
    }

    /// The sentence written out again from `talker`, or `nil` when its type cannot be encoded.
    ///
    /// A switch rather than an existential (`any EncodableSentence`): the Pi build (Embedded Swift) has none.
    public func encode(talker: Talker) throws(EncodeError) -> Sentence? {
        switch self {
        case .rmc(let value): try value.encode(talker: talker)
        case .gga(let value): try value.encode(talker: talker)
        case .vtg(let value): try value.encode(talker: talker)
        case .hdg(let value): try value.encode(talker: talker)
        case .hdm(let value): try value.encode(talker: talker)
        case .hdt(let value): try value.encode(talker: talker)
        case .mwv(let value): try value.encode(talker: talker)
        case .vwr(let value): try value.encode(talker: talker)
        case .vwt(let value): try value.encode(talker: talker)
        case .mwd(let value): try value.encode(talker: talker)
        case .vpw(let value): try value.encode(talker: talker)
        case .xdr(let value): try value.encode(talker: talker)
        case .rmb(let value): try value.encode(talker: talker)
        case .apb(let value): try value.encode(talker: talker)
        case .xte(let value): try value.encode(talker: talker)
        case .bwc(let value): try value.encode(talker: talker)
        case .bwr(let value): try value.encode(talker: talker)
        case .wcv(let value): try value.encode(talker: talker)
        case .rot(let value): try value.encode(talker: talker)
        case .alr(let value): try value.encode(talker: talker)
        case .txt(let value): try value.encode(talker: talker)
        case .ack(let value): try value.encode(talker: talker)
        case .acn(let value): try value.encode(talker: talker)
        case .vhw(let value): try value.encode(talker: talker)
        case .dpt(let value): try value.encode(talker: talker)
        case .gll, .zda, .dbt, .mtw, .vlw, .bod, .rte, .rsa: nil
        }
    }
}
