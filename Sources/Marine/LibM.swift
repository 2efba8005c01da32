// The one seam to the C maths library, for every module that imports Marine (Engine, SignalK, the simulator).
//
// The desktop build re-exports the few functions the maths uses from Glibc, by name only: a module that imports
// Marine sees `sin` and `atan2`, never `open` or `write`, so the pure core cannot reach the C library by accident.
// Embedded Swift has no Glibc module: there the same functions are declared straight onto their C symbols, and the
// Pi binary links against the target's libm.

#if hasFeature(Embedded)
    @_extern(c, "sin") public func sin(_ x: Double) -> Double
    @_extern(c, "cos") public func cos(_ x: Double) -> Double
    @_extern(c, "tan") public func tan(_ x: Double) -> Double
    @_extern(c, "asin") public func asin(_ x: Double) -> Double
    @_extern(c, "atan2") public func atan2(_ y: Double, _ x: Double) -> Double
    @_extern(c, "asinh") public func asinh(_ x: Double) -> Double
    @_extern(c, "atanh") public func atanh(_ x: Double) -> Double
    @_extern(c, "cbrt") public func cbrt(_ x: Double) -> Double
    @_extern(c, "copysign") public func copysign(_ x: Double, _ y: Double) -> Double
    @_extern(c, "exp") public func exp(_ x: Double) -> Double
    @_extern(c, "log") public func log(_ x: Double) -> Double
    @_extern(c, "fmod") public func fmod(_ x: Double, _ y: Double) -> Double
    @_extern(c, "hypot") public func hypot(_ x: Double, _ y: Double) -> Double
    @_extern(c, "remainder") public func remainder(_ x: Double, _ y: Double) -> Double
    @_extern(c, "pow") public func pow(_ x: Double, _ y: Double) -> Double
#elseif canImport(Glibc)
    @_exported import func Glibc.sin
    @_exported import func Glibc.cos
    @_exported import func Glibc.tan
    @_exported import func Glibc.asin
    @_exported import func Glibc.atan2
    @_exported import func Glibc.asinh
    @_exported import func Glibc.atanh
    @_exported import func Glibc.cbrt
    @_exported import func Glibc.copysign
    @_exported import func Glibc.exp
    @_exported import func Glibc.log
    @_exported import func Glibc.fmod
    @_exported import func Glibc.hypot
    @_exported import func Glibc.remainder
    @_exported import func Glibc.pow
#elseif canImport(Musl)
    @_exported import func Musl.sin
    @_exported import func Musl.cos
    @_exported import func Musl.tan
    @_exported import func Musl.asin
    @_exported import func Musl.atan2
    @_exported import func Musl.asinh
    @_exported import func Musl.atanh
    @_exported import func Musl.cbrt
    @_exported import func Musl.copysign
    @_exported import func Musl.exp
    @_exported import func Musl.log
    @_exported import func Musl.fmod
    @_exported import func Musl.hypot
    @_exported import func Musl.remainder
    @_exported import func Musl.pow
#endif
