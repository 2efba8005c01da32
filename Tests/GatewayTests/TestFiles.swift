import Engine
import Gateway
import Marine
import NMEA
import Platform
import Sensors
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files and folders for one test.
func writeText(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
}
