#!/usr/bin/env python3
"""RMS heel and pitch error of x-io's Fusion AHRS (PyPI imufusion, default settings) on a sea-state trace made by
`telltale-bench attitude --trace FILE`. Prints one line; used by Benchmarks/attitude.sh.

The trace is in Telltale's body frame (x forward, y starboard, z down; specific force in m/s^2; deg/s). Fusion's
default convention is NWU with sensors x forward, y left, z up, so the axes go in as (x, -y, -z), the accelerometer
in g. Fusion's roll is then positive starboard down as Telltale's heel, and its pitch is positive bow down, so it is
negated to compare with Telltale's pitch (bow up positive).
"""
import sys

import imufusion
import numpy

path = sys.argv[1]
settle = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
data = numpy.genfromtxt(path, delimiter=",", skip_header=1)
time, accel, gyro, heel, pitch = data[:, 0], data[:, 1:4], data[:, 4:7], data[:, 7], data[:, 8]
flip = numpy.array([1.0, -1.0, -1.0])
ahrs = imufusion.Ahrs()
# The trace is sampled at a fixed rate; Fusion 1.3 takes the sample period once.
ahrs.set_sample_period(float(time[1] - time[0]))
estimates = numpy.empty((len(time), 2))
for index in range(len(time)):
    ahrs.update_no_magnetometer(gyro[index] * flip, accel[index] * flip / 9.80665)
    euler = imufusion.quaternion_to_euler(ahrs.get_quaternion())
    estimates[index] = (euler[0], -euler[1])
mask = time >= settle
heel_rms = numpy.sqrt(numpy.mean((estimates[mask, 0] - heel[mask]) ** 2))
pitch_rms = numpy.sqrt(numpy.mean((estimates[mask, 1] - pitch[mask]) ** 2))
print(f"fusion: RMS heel error {heel_rms:.3f} deg, pitch {pitch_rms:.3f} deg after {settle:.0f} s")
