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

@Suite struct IMUURLTests {
    @Test("IMU URLs: the I2C bus, address and chip; the IIO devices and mode; options")
    func parse() throws {
        let i2c = try IMUConfiguration.parse(
            "i2c:///dev/i2c-1?address=0x69&chip=icm20948&rate=200&magnetometer=true", base: ".")
        #expect(i2c.source == .i2c(bus: "/dev/i2c-1", address: 0x69, chip: .icm20948))
        #expect(i2c.sensor.sampleRate == 200 && i2c.sensor.magnetometer)
        let auto = try IMUConfiguration.parse("i2c:///dev/i2c-1", base: ".")
        #expect(auto.source == .i2c(bus: "/dev/i2c-1", address: nil, chip: nil))
        let iio = try IMUConfiguration.parse(
            "iio:///sys/bus/iio/devices/iio:device0?gyro=iio:device1&mode=buffered&lowpass=10", base: ".")
        #expect(
            iio.source
                == .iio(
                    devices: ["/sys/bus/iio/devices/iio:device0", "/sys/bus/iio/devices/iio:device1"], mode: .buffered,
                    devRoot: "/dev", trigger: nil))
        #expect(iio.sensor.lowPass == 10)
        let csv = try IMUConfiguration.parse("csv:trace.csv", base: "/data")
        #expect(csv.source == .csv(path: "/data/trace.csv"))
    }

    @Test(
        "bad IMU URLs say what is wrong",
        arguments: [
            ("i2c:///dev/i2c-1?chip=bmi160", "unknown IMU chip \"bmi160\""),
            ("i2c:///dev/i2c-1?address=0x99", "7-bit"),
            ("i2c:i2c-1", "the bus"),
            ("iio:///sys/bus/iio/devices/iio:device0?mode=fast", "polled or buffered"),
            ("i2c:///dev/i2c-1?rate=5000", "rate must be"),
            ("i2c:///dev/i2c-1?colour=red", "unknown option colour"),
            ("spi:///dev/spidev0.0", "an IMU is"),
        ])
    func refused(url: String, message: String) {
        #expect {
            _ = try IMUConfiguration.parse(url, base: ".")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the MacArthur HAT's profile names its ICM-20948; [imu] without a url uses it, with the HAT's axes")
    func boardIMU() throws {
        let text = "board = \"macarthur-hat\"\n[imu]\nheading = true\nrate = 125\n[[output]]\nurl = \"stdout:\"\n"
        let configuration = try ConfigurationFile.parse(text, base: projectFixtures() + "/../Boards")
        let imu = try #require(configuration.imu)
        #expect(imu.endpoint == "i2c:///dev/i2c-1?address=0x68&chip=icm20948")
        #expect(imu.axes == AxisMap("x,-y,-z"))
        #expect(imu.sensor.sampleRate == 125 && imu.sensor.magnetometer)
        #expect(configuration.engine.imuHeading)
    }

    @Test("[imu] keys are checked with their line")
    func badKeys() {
        do {
            _ = try ConfigurationFile.parse("[imu]\nurl = \"i2c:///dev/i2c-1\"\nlowpas = 20\n")
            Issue.record("accepted")
        } catch {
            #expect(error.key == "lowpas" || error.key == "imu.lowpas")
            #expect(error.line == 3)
        }
        do {
            _ = try ConfigurationFile.parse("[imu]\nurl = \"i2c:///dev/i2c-1?chip=nope\"\n")
            Issue.record("accepted")
        } catch {
            #expect(error.key == "imu.url")
        }
    }
}
