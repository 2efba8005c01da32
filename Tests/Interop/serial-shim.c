/* A preload shim for the serial test bench: pseudo-terminals have no modem lines, so the modem-line ioctls that
 * libserialport makes when it opens a port fail on them. Where such an ioctl fails, answer as a real UART with
 * DSR, CTS and carrier up would. Everything else goes to the real ioctl. Used only by Tests/Interop/serial-check.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/serial.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <termios.h>

int ioctl(int fd, unsigned long request, ...) {
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    static int (*real_ioctl)(int, unsigned long, ...);
    if (!real_ioctl) real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    int result = real_ioctl(fd, request, argument);
    int modem_line = request == TIOCMGET || request == TIOCMSET || request == TIOCMBIS || request == TIOCMBIC
                     || request == TIOCGSERIAL || request == TIOCSSERIAL;
    if (result < 0 && modem_line) {
        if (request == TIOCMGET && argument) *(int *)argument = TIOCM_DSR | TIOCM_CTS | TIOCM_CAR;
        errno = 0;
        return 0;
    }
    return result;
}
