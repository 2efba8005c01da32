// The Pi build's seam to the C maths library.
//
// The desktop build reaches libm through Glibc (each file imports it). Embedded Swift has no Glibc module, so here
// the same functions are declared straight onto their C symbols; the Pi binary links against the target's libm.
// They are public so that the other core modules (Engine) see the same names through `import Marine`.

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
    @_extern(c, "fmod") public func fmod(_ x: Double, _ y: Double) -> Double
    @_extern(c, "hypot") public func hypot(_ x: Double, _ y: Double) -> Double
    @_extern(c, "remainder") public func remainder(_ x: Double, _ y: Double) -> Double
    @_extern(c, "pow") public func pow(_ x: Double, _ y: Double) -> Double
#endif
