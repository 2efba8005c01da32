#ifndef TELLTALE_CGPS_SHIM_H
#define TELLTALE_CGPS_SHIM_H
// gpsd's client library, opened with dlopen(3) when a gpsd input first connects rather than linked: libgps brings
// libstdc++, libsystemd, libdbus and theirs (1.7 MB resident on a Pi), which a gateway without a gpsd input should
// not carry. Its header still gives the layout of struct gps_data_t and the WATCH_ and _SET constants.
#include <dlfcn.h>
#include <gps.h>
#include <stdbool.h>
#include <stddef.h>

struct cgps_library {
    void *handle;
    int (*open)(const char *, const char *, struct gps_data_t *);
    int (*stream)(struct gps_data_t *, unsigned int, void *);
    int (*close)(struct gps_data_t *);
    bool (*waiting)(const struct gps_data_t *, int);
    int (*read)(struct gps_data_t *, char *, int);
};

static inline struct cgps_library *cgps_library(void) {
    static struct cgps_library library;
    return &library;
}

// Opens libgps once; NULL when it is there, else why not (dlerror's words).
static inline const char *cgps_load(void) {
    struct cgps_library *library = cgps_library();
    if (library->handle != NULL) return NULL;
    static const char *const names[] = { "libgps.so.28", "libgps.so.30", "libgps.so.29", "libgps.so" };
    void *handle = NULL;
    for (size_t i = 0; handle == NULL && i < sizeof names / sizeof names[0]; i++) {
        handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) return dlerror();
    library->open = (int (*)(const char *, const char *, struct gps_data_t *))dlsym(handle, "gps_open");
    library->stream = (int (*)(struct gps_data_t *, unsigned int, void *))dlsym(handle, "gps_stream");
    library->close = (int (*)(struct gps_data_t *))dlsym(handle, "gps_close");
    library->waiting = (bool (*)(const struct gps_data_t *, int))dlsym(handle, "gps_waiting");
    library->read = (int (*)(struct gps_data_t *, char *, int))dlsym(handle, "gps_read");
    if (!library->open || !library->stream || !library->close || !library->waiting || !library->read) {
        dlclose(handle);
        return "libgps lacks gps_open, gps_stream, gps_close, gps_waiting or gps_read";
    }
    library->handle = handle;
    return NULL;
}

static inline int cgps_open(const char *host, const char *port, struct gps_data_t *data) {
    return cgps_library()->open(host, port, data);
}
static inline int cgps_stream(struct gps_data_t *data, unsigned int flags) {
    return cgps_library()->stream(data, flags, NULL);
}
static inline int cgps_close(struct gps_data_t *data) { return cgps_library()->close(data); }
static inline bool cgps_waiting(const struct gps_data_t *data) { return cgps_library()->waiting(data, 0); }
static inline int cgps_read(struct gps_data_t *data) { return cgps_library()->read(data, NULL, 0); }
#endif
