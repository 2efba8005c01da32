/// A command that cannot go on: the message for standard error, and the exit status (1; 64 for a command line that
/// is wrong, as sysexits has it; 0 for help asked for, which goes to standard output).
public struct CommandError: Error, CustomStringConvertible {
    public var description: String
    public var status: Int32

    public init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }

    /// `check-config`'s exit status for a configuration `run` runs without some of the files it names (a route, a
    /// polar, a start line, a calibration that cannot be read): no damage to the configuration, which is kept (the
    /// image's `telltale-data` reads this status, not the words), while the sailor can still mend the files.
    public static let runsWithoutFiles: Int32 = 3

    /// A flag the spec has but the options do not handle: a bug of ours, said plainly.
    static func unhandled(_ flag: String) -> CommandError { CommandError("--\(flag) is not handled", status: 70) }
}
