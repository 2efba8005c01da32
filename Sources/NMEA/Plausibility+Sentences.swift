// Each sentence type's values against their physical ranges (``PlausibilityJudged``).

extension RMC: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.groundSpeed, speedOverGround)
        judge.check(.direction, courseOverGround)
        judge.check(.variation, magneticVariation)
    }
}

extension GGA: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.dilution, horizontalDilution)
        judge.check(.altitude, altitude)
        judge.check(.altitude, geoidSeparation)
    }
}

extension VTG: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, courseTrue)
        judge.check(.direction, courseMagnetic)
        judge.check(.groundSpeed, speedKnots)
        judge.check(.groundSpeed, speedKilometresPerHour.map { $0 / 1.852 })
    }
}

extension HDG: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, sensorHeading)
        judge.check(.variation, deviation)
        judge.check(.variation, variation)
    }
}

extension HDM: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, heading)
    }
}

extension HDT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, heading)
    }
}

extension VHW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, headingTrue)
        judge.check(.direction, headingMagnetic)
        judge.check(.boatSpeed, speedKnots)
        judge.check(.boatSpeed, speedKilometresPerHour.map { $0 / 1.852 })
    }
}

extension MWV: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.windAngle, angle)
        judge.check(.windSpeed, speedKnots.map { $0 / Judge.knotsPerMetrePerSecond })
    }
}

extension VWR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(sideWind: wind)
    }
}

extension VWT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(sideWind: wind)
    }
}

extension MWD: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, directionTrue)
        judge.check(.direction, directionMagnetic)
        judge.check(.windSpeed, speedKnots.map { $0 / Judge.knotsPerMetrePerSecond })
        judge.check(.windSpeed, speedMetresPerSecond)
    }
}

extension VPW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.signedSpeed, speedKnots)
        judge.check(.signedSpeed, speedMetresPerSecond.map { $0 * Judge.knotsPerMetrePerSecond })
    }
}

extension DBT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.depth, metres)
        judge.check(.depth, feet.map { $0 * 0.3048 })
        judge.check(.depth, fathoms.map { $0 * 1.8288 })
    }
}

extension DPT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.depth, depth)
        judge.check(.depthOffset, offset)
    }
}

extension MDA: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.airPressure, pressureBars.map { $0 * 1000 })
        judge.check(.airPressure, pressureInches.map { $0 * MDA.pascalsPerInchOfMercury / 100 })
        judge.check(.airTemperature, airTemperature)
        judge.check(.waterTemperature, waterTemperature)
        judge.check(.humidity, relativeHumidity)
        judge.check(.airTemperature, dewPoint)
        judge.check(.direction, windDirectionTrue)
        judge.check(.direction, windDirectionMagnetic)
        judge.check(.windSpeed, windSpeedMetresPerSecond)
        judge.check(.windSpeed, windSpeedKnots.map { $0 * 1852 / 3600 })
    }
}

extension MTW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.waterTemperature, temperature)
    }
}

extension VLW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        // Logs count for the boat's life: only the sign and finiteness are checked.
        for value in [totalWater, tripWater, totalGround, tripGround] {
            judge.check(.measurement, value)
            if let value, value < 0 { judge.check(.distance, value) }
        }
    }
}

extension XDR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        for measurement in measurements {
            if let pascals = measurement.barometricPressure {
                judge.check(.airPressure, pascals / 100)
                continue
            }
            let isAngle = measurement.type == UInt8(ascii: "A")
            judge.check(isAngle ? .attitudeAngle : .measurement, measurement.value)
        }
    }
}

extension RMB: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, crossTrackError)
        judge.check(.distance, range)
        judge.check(.direction, bearingTrue)
        judge.check(.signedSpeed, closingVelocity)
    }
}

extension APB: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, crossTrackError)
        judge.check(.direction, bearingOriginToDestination)
        judge.check(.direction, bearingToDestination)
        judge.check(.direction, headingToSteer)
    }
}

extension XTE: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, magnitude)
    }
}

extension BWC: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(waypoint: waypoint)
    }
}

extension BWR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(waypoint: waypoint)
    }
}

extension BOD: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, bearingTrue)
        judge.check(.direction, bearingMagnetic)
    }
}

extension WCV: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.signedSpeed, velocity)
    }
}

extension ROT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.rateOfTurn, rate)
    }
}

extension RSA: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.rudderAngle, starboardAngle)
        judge.check(.rudderAngle, portAngle)
    }
}

extension GLL: PlausibilityJudged {}

extension ZDA: PlausibilityJudged {}

extension RTE: PlausibilityJudged {}

extension ALR: PlausibilityJudged {}

extension TXT: PlausibilityJudged {}

extension ACK: PlausibilityJudged {}

extension ACN: PlausibilityJudged {}
