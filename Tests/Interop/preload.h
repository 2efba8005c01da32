/* What the preload shims of the interop benches share. */
#ifndef TELLTALE_PRELOAD_H
#define TELLTALE_PRELOAD_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether `fd` is open on the file the environment variable `variable` names (the shim's fake device). */
static int opened_on(int fd, const char *variable) {
    const char *path = getenv(variable);
    if (!path) return 0;
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0) return 0;
    target[n] = 0;
    return strcmp(target, path) == 0;
}
#endif
