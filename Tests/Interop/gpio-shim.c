/* A preload shim for the race button's bench: a GPIO chip behind the real GPIO_V2_GET_LINE_IOCTL, checked against
 * the kernel's own struct gpio_v2_line_request from <linux/gpio.h>. A descriptor opened on $FAKE_GPIO_CHIP (a plain
 * file) answers as a chip whose line $FAKE_GPIO_LINE may be requested: the request must ask for one line, as an
 * input with both edges and a pull-up, with a debounce period; it is written to $FAKE_GPIO_LOG as
 * "line L flags F debounce D consumer C", and its event descriptor is the FIFO $FAKE_GPIO_EVENTS, down which the
 * bench writes struct gpio_v2_line_event records as the kernel would. Anything else is EINVAL.
 * Used only by Tests/Interop/gpio-check.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "preload.h"

static int is_fake(int fd) { return opened_on(fd, "FAKE_GPIO_CHIP"); }

static int request_line(struct gpio_v2_line_request *request) {
    const char *line = getenv("FAKE_GPIO_LINE");
    const __u64 wanted = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING
        | GPIO_V2_LINE_FLAG_BIAS_PULL_UP;
    unsigned debounce = 0;
    for (unsigned i = 0; i < request->config.num_attrs && i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++) {
        if (request->config.attrs[i].attr.id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE && (request->config.attrs[i].mask & 1))
            debounce = request->config.attrs[i].attr.debounce_period_us;
    }
    FILE *log = getenv("FAKE_GPIO_LOG") ? fopen(getenv("FAKE_GPIO_LOG"), "a") : NULL;
    if (log) {
        fprintf(log, "line %u flags 0x%llx debounce %u consumer %s lines %u\n", request->offsets[0],
                (unsigned long long)request->config.flags, debounce, request->consumer, request->num_lines);
        fclose(log);
    }
    if (request->num_lines != 1 || !line || request->offsets[0] != (unsigned)atoi(line)
        || request->config.flags != wanted || debounce == 0) {
        errno = EINVAL;
        return -1;
    }
    int fd = open(getenv("FAKE_GPIO_EVENTS"), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    request->fd = fd;
    return 0;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    if (request == GPIO_V2_GET_LINE_IOCTL && is_fake(fd)) return request_line(argument);
    static int (*real)(int, unsigned long, ...);
    if (!real) real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return real(fd, request, argument);
}
