import Marine
import Platform

/// The boat's learnt polar (`calibration/polar.csv`, the cells she has sailed steadily) as the crew may use it: the
/// polar the engine takes its targets and performance from, instead of the configured one, and exported for other
/// tools (the table for OpenCPN and qtVlm as written, Expedition's layout).
extension CalibrationService {
    /// The marker of the crew's choice, beside the learnt polar.
    static func polarChoice(stateFolder: String) -> String { stateFolder + "/calibration/use-learnt-polar" }

    var learntPolarPath: String { Self.learntPolar(stateFolder: POSIX.folder(of: folder)) }

    /// The learnt polar, when one was learnt and has data.
    var learntPolar: Polar? {
        guard let polar = try? PolarFile.load(learntPolarPath), polar.curves.contains(where: { !$0.angles.isEmpty })
        else { return nil }
        return polar
    }

    /// The polar the engine sails by when the learnt one is chosen: the configured polar scaled by the learnt where it
    /// has data (``Polar/learnt(_:)``, as the weather router takes it), the learnt alone without a configured one.
    static func sailed(configured: Polar?, learnt: Polar) -> Polar { configured?.learnt(learnt) ?? learnt }

    /// The crew's choice: the polar the engine should take now (nil: none), or why not.
    func choosePolar(learnt: Bool) -> (polar: Polar?, refused: String?) {
        let marker = Self.polarChoice(stateFolder: POSIX.folder(of: folder))
        guard learnt else {
            _ = POSIX.remove(marker)
            usesLearntPolar = false
            return (configuredPolar, nil)
        }
        guard let learntPolar else { return (nil, "no polar learnt yet: learn first, from steady sailing") }
        do throws(POSIX.Failure) {
            try POSIX.makeDirectories(folder)
            try POSIX.writeFileAtomically(marker, Array("learnt\n".utf8))
        } catch {
            return (nil, "cannot keep the choice: \(error)")
        }
        usesLearntPolar = true
        return (Self.sailed(configured: configuredPolar, learnt: learntPolar), nil)
    }
}
