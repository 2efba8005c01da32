import CPosix

/// A shared library opened with dlopen(3) the first time a part needs it (SQLite for the charts, libgps for a gpsd
/// input, ecCodes for a GRIB import, libmosquitto for the uplink), so a gateway that needs none maps none, and its
/// functions looked up by name as the typed C function pointers the caller declares. Every library goes through
/// here: one way to say which was found, and why not.
public struct DynamicLibrary: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        /// None of the names could be opened; dlerror's words for the last.
        case notInstalled(names: [String], reason: String)
        /// The library lacks a function the caller needs.
        case missing(library: String, symbol: String)

        public var description: String {
            switch self {
            case .notInstalled(let names, let reason): "\(names.first ?? "the library") cannot be loaded: \(reason)"
            case .missing(let library, let symbol): "\(library) lacks \(symbol)"
            }
        }
    }

    /// The name that was found (`libsqlite3.so.0`).
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// The first of `names` that opens (each tried in order: the soname first, then others Debian has shipped).
    public static func open(_ names: [String]) throws(Failure) -> DynamicLibrary {
        var reason = "not found"
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return DynamicLibrary(name: name, handle: handle) }
            if let text = dlerror() { reason = String(cString: text) }
        }
        throw .notInstalled(names: names, reason: reason)
    }

    /// The function `symbol`, as the C function type `type` (an `@convention(c)` type the caller declares from the
    /// library's header).
    public func function<Function>(_ symbol: String, as type: Function.Type) throws(Failure) -> Function {
        guard let address = dlsym(handle, symbol) else { throw .missing(library: name, symbol: symbol) }
        return unsafeBitCast(address, to: type)
    }

    /// Gives the library back (only when none of its functions will be called again).
    public func close() { _ = dlclose(handle) }
}
