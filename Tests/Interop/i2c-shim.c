/* A preload shim for the I2C test bench: an ICM-20948 behind the real I2C_RDWR ioctl, with the kernel's own
 * struct i2c_msg and struct i2c_rdwr_ioctl_data from <linux/i2c.h> and <linux/i2c-dev.h>, so the gateway's
 * hand-laid structures are checked against the C definitions. Descriptors opened on $FAKE_I2C_PATH (a plain file)
 * answer as an adapter with one chip at $FAKE_I2C_ADDRESS: four register banks chosen through REG_BANK_SEL (0x7f),
 * WHO_AM_I 0xea, and a data block that reads a boat at rest heeled $FAKE_I2C_HEEL degrees to starboard with the
 * chip mounted components up (chip y to port, z up), scaled by the accelerometer range the driver configured.
 * Other addresses do not acknowledge (ENXIO). Every write is appended to $FAKE_I2C_LOG as "W aa rr vv".
 * Used only by Tests/Interop/i2c-check.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "preload.h"

static unsigned char banks[4][128];
static unsigned char bank;
static unsigned char pointer;
static int initialised;

static int is_fake(int fd) { return opened_on(fd, "FAKE_I2C_PATH"); }

static void put16(unsigned char *at, int value) {
    at[0] = (unsigned char)((value >> 8) & 0xff);
    at[1] = (unsigned char)(value & 0xff);
}

/* The data block (bank 0, 0x2d..0x3a), from the accelerometer range in bank 2's ACCEL_CONFIG. */
static void refresh(void) {
    double heel = getenv("FAKE_I2C_HEEL") ? atof(getenv("FAKE_I2C_HEEL")) : 0;
    int range = (banks[2][0x14] >> 1) & 3;
    double per_g = 16384.0 / (1 << range);
    double phi = heel * M_PI / 180;
    put16(&banks[0][0x2d], 0);
    put16(&banks[0][0x2f], (int)lround(sin(phi) * per_g));
    put16(&banks[0][0x31], (int)lround(cos(phi) * per_g));
    put16(&banks[0][0x33], 0);
    put16(&banks[0][0x35], 0);
    put16(&banks[0][0x37], 0);
    put16(&banks[0][0x39], 1356); /* 25 °C */
}

static void write_register(unsigned char address, unsigned char reg, unsigned char value) {
    const char *log = getenv("FAKE_I2C_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "W %02x %02x %02x\n", address, reg, value);
            fclose(f);
        }
    }
    if (reg == 0x7f) {
        bank = (value >> 4) & 3;
        return;
    }
    if (bank == 0 && reg == 0x06 && (value & 0x80)) { /* DEVICE_RESET */
        memset(banks, 0, sizeof banks);
        banks[0][0x00] = 0xea;
        banks[0][0x06] = 0x41;
        bank = 0;
        return;
    }
    banks[bank][reg & 0x7f] = value;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    static int (*real_ioctl)(int, unsigned long, ...);
    if (!real_ioctl) real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    if (request != I2C_RDWR || !is_fake(fd)) return real_ioctl(fd, request, argument);
    if (!initialised) {
        banks[0][0x00] = 0xea;
        initialised = 1;
    }
    unsigned chip = getenv("FAKE_I2C_ADDRESS") ? (unsigned)strtoul(getenv("FAKE_I2C_ADDRESS"), 0, 0) : 0x68;
    struct i2c_rdwr_ioctl_data *data = argument;
    if (!data || data->nmsgs < 1 || data->nmsgs > 2) {
        errno = EINVAL;
        return -1;
    }
    for (unsigned i = 0; i < data->nmsgs; i++) {
        struct i2c_msg *m = &data->msgs[i];
        if (m->addr != chip) {
            errno = ENXIO;
            return -1;
        }
        if (m->flags & I2C_M_RD) {
            refresh();
            for (unsigned k = 0; k < m->len; k++) m->buf[k] = banks[bank][(pointer + k) & 0x7f];
            pointer = (unsigned char)(pointer + m->len);
        } else if (m->len >= 1) {
            pointer = m->buf[0];
            for (unsigned k = 1; k < m->len; k++) write_register((unsigned char)m->addr, (unsigned char)(pointer + k - 1), m->buf[k]);
        }
    }
    return (int)data->nmsgs;
}
