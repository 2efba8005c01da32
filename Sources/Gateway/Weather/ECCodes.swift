import Platform

/// The few functions of ECMWF's ecCodes (Debian's `libeccodes0`) that read a GRIB message, looked up with dlopen(3)
/// by `telltale weather import` alone: the import runs as its own short process, so the gateway never maps ecCodes
/// or its tables, and a GRIB file that crashes it ends the import, not the gateway.
///
/// Signatures as eccodes.h declares them: `long` is Swift's `Int` and `size_t` its `Int` on both 64-bit and 32-bit
/// ARM, so no header is needed to call them.
struct ECCodes {
    typealias Handle = OpaquePointer

    let newFromMessage: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Handle?
    let delete: @convention(c) (Handle?) -> Int32
    let getLong: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?) -> Int32
    let getDouble: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Double>?) -> Int32
    let getString:
        @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?) ->
            Int32
    let getSize: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?) -> Int32
    let getDoubleArray:
        @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Int>?) ->
            Int32
    let errorMessage: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// ecCodes' functions, or nil when the library is not installed.
    static func load() -> ECCodes? {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libeccodes.so.0", "libeccodes.so"])
            return ECCodes(
                newFromMessage: try library.function(
                    "codes_handle_new_from_message",
                    as: (@convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Handle?).self),
                delete: try library.function("codes_handle_delete", as: (@convention(c) (Handle?) -> Int32).self),
                getLong: try library.function(
                    "codes_get_long",
                    as: (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?) -> Int32).self),
                getDouble: try library.function(
                    "codes_get_double",
                    as: (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Double>?) -> Int32).self),
                getString: try library.function(
                    "codes_get_string",
                    as: (@convention(c) (
                        Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?
                    ) -> Int32).self),
                getSize: try library.function(
                    "codes_get_size",
                    as: (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?) -> Int32).self),
                getDoubleArray: try library.function(
                    "codes_get_double_array",
                    as: (@convention(c) (
                        Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Int>?
                    ) -> Int32).self),
                errorMessage: try library.function(
                    "codes_get_error_message", as: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self))
        } catch {
            return nil
        }
    }

    /// An integer key, nil when the message has none.
    func long(_ handle: Handle, _ key: String) -> Int? {
        var value = 0
        return getLong(handle, key, &value) == 0 ? value : nil
    }

    func double(_ handle: Handle, _ key: String) -> Double? {
        var value = 0.0
        return getDouble(handle, key, &value) == 0 && value.isFinite ? value : nil
    }

    func string(_ handle: Handle, _ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var length = 256
        guard getString(handle, key, &buffer, &length) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The message's values in its own scanning order, at most `limit` of them.
    func values(_ handle: Handle, limit: Int) -> [Double]? {
        var count = 0
        guard getSize(handle, "values", &count) == 0, count > 0, count <= limit else { return nil }
        var values = [Double](repeating: 0, count: count)
        var length = count
        guard getDoubleArray(handle, "values", &values, &length) == 0, length == count else { return nil }
        return values
    }
}
