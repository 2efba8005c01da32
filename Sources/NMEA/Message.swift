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
    case mda(MDA)
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
    /// An AIS fragment (`!AIVDM`, or `!AIVDO` from the own vessel's transponder).
    case vdm(VDM)

    /// Decodes a framed sentence by its formatter.
    ///
    /// - Throws: ``DecodeError/unsupported(_:)`` for proprietary, query and unknown sentences (which can still be
    ///   passed through), or a field error.
    @inline(__always)
    public init(_ sentence: borrowing Sentence) throws(DecodeError) {
        let address = sentence.address
        let formatter = try Message.formatter(address, start: sentence.startCharacter)
        // Inlined into the caller, so the bytes are read where the sentence lies: a call taking the sentence made a
        // 400-byte copy of it first. The decoding itself is one function over the field reader.
        self = try sentence.decodeFields { (r: inout FieldReader) throws(DecodeError) -> Message in
            try Message.decode(formatter: formatter, address: address, fields: &r)
        }
    }

    /// Decodes a sentence lent `inout`, as the framer lends it to a ``FramerSink``: the same as ``init(_:)``, with
    /// no copy of the sentence's bytes.
    @inline(__always)
    public init(lent sentence: inout Sentence) throws(DecodeError) {
        let address = sentence.address
        let formatter = try Message.formatter(address, start: sentence.startCharacter)
        self = try sentence.decodeFieldsInPlace { (r: inout FieldReader) throws(DecodeError) -> Message in
            try Message.decode(formatter: formatter, address: address, fields: &r)
        }
    }

    /// The formatter to decode by: a standard `$` sentence's, or an AIS fragment's (`!`, encapsulated), else
    /// ``DecodeError/unsupported(_:)``.
    @inline(__always)
    private static func formatter(_ address: Address, start: UInt8) throws(DecodeError) -> Formatter {
        guard let formatter = address.formatter else { throw .unsupported(address) }
        if start == UInt8(ascii: "$") || formatter == VDM.formatter || formatter == VDM.ownFormatter {
            return formatter
        }
        throw .unsupported(address)
    }

    /// The value, or ``DecodeError/implausible(_:)`` when one of its values cannot be true.
    @inline(__always)
    private static func judged<Value: PlausibilityJudged>(_ value: Value) throws(DecodeError) -> Value {
        if let quantity = value.implausibleQuantity { throw .implausible(quantity) }
        return value
    }

    /// Decodes the fields of a sentence of `formatter`, each type judged (``PlausibilityJudged``) as it is read.
    private static func decode(formatter: Formatter, address: Address, fields r: inout FieldReader)
        throws(DecodeError) -> Message
    {
        switch formatter {
        case RMC.formatter: return .rmc(try judged(RMC(fields: &r)))
        case GGA.formatter: return .gga(try judged(GGA(fields: &r)))
        case GLL.formatter: return .gll(try judged(GLL(fields: &r)))
        case VTG.formatter: return .vtg(try judged(VTG(fields: &r)))
        case ZDA.formatter: return .zda(try judged(ZDA(fields: &r)))
        case HDG.formatter: return .hdg(try judged(HDG(fields: &r)))
        case HDM.formatter: return .hdm(try judged(HDM(fields: &r)))
        case HDT.formatter: return .hdt(try judged(HDT(fields: &r)))
        case VHW.formatter: return .vhw(try judged(VHW(fields: &r)))
        case MWV.formatter: return .mwv(try judged(MWV(fields: &r)))
        case VWR.formatter: return .vwr(try judged(VWR(fields: &r)))
        case VWT.formatter: return .vwt(try judged(VWT(fields: &r)))
        case MWD.formatter: return .mwd(try judged(MWD(fields: &r)))
        case VPW.formatter: return .vpw(try judged(VPW(fields: &r)))
        case DBT.formatter: return .dbt(try judged(DBT(fields: &r)))
        case DPT.formatter: return .dpt(try judged(DPT(fields: &r)))
        case MTW.formatter: return .mtw(try judged(MTW(fields: &r)))
        case MDA.formatter: return .mda(try judged(MDA(fields: &r)))
        case VLW.formatter: return .vlw(try judged(VLW(fields: &r)))
        case XDR.formatter: return .xdr(try judged(XDR(fields: &r)))
        case RMB.formatter: return .rmb(try judged(RMB(fields: &r)))
        case APB.formatter: return .apb(try judged(APB(fields: &r)))
        case XTE.formatter: return .xte(try judged(XTE(fields: &r)))
        case BWC.formatter: return .bwc(try judged(BWC(fields: &r)))
        case BWR.formatter: return .bwr(try judged(BWR(fields: &r)))
        case BOD.formatter: return .bod(try judged(BOD(fields: &r)))
        case RTE.formatter: return .rte(try judged(RTE(fields: &r)))
        case WCV.formatter: return .wcv(try judged(WCV(fields: &r)))
        case ROT.formatter: return .rot(try judged(ROT(fields: &r)))
        case RSA.formatter: return .rsa(try judged(RSA(fields: &r)))
        case ALR.formatter: return .alr(try judged(ALR(fields: &r)))
        case TXT.formatter: return .txt(try judged(TXT(fields: &r)))
        case ACK.formatter: return .ack(try judged(ACK(fields: &r)))
        case ACN.formatter: return .acn(try judged(ACN(fields: &r)))
        case VDM.formatter: return .vdm(try VDM(fields: &r))
        case VDM.ownFormatter:
            var own = try VDM(fields: &r)
            own.isOwnVessel = true
            return .vdm(own)
        default: throw .unsupported(address)
        }
    }

    /// Whether the sentence's type can be encoded, so that it can be written out again.
    public var isEncodable: Bool {
        switch self {
        case .gll, .zda, .dbt, .mtw, .mda, .vlw, .bod, .rte, .rsa, .vdm: false
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
        case .gll, .zda, .dbt, .mtw, .mda, .vlw, .bod, .rte, .rsa, .vdm: nil
        }
    }
}
