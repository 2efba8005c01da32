#ifndef TELLTALE_CPOSIX_SHIM_H
#define TELLTALE_CPOSIX_SHIM_H

// The 64-bit file calls (readdir64, stat64) declared beside the plain ones, the plain types left as they are: a 32-bit
// Pi (armhf) reading a folder whose inode numbers pass 2^32 must not be told it is empty (EOVERFLOW).
#ifndef _LARGEFILE64_SOURCE
#define _LARGEFILE64_SOURCE 1
#endif
// The C library as the gateway uses it, for the desktop build and for the Pi build alike. Embedded Swift has no
// Glibc module, so this header is the one way in; Sources/Platform is the one Swift funnel over it.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <dirent.h>
#include <malloc.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/gpio.h>
#include <linux/can.h>
#include <linux/can/raw.h>
#include <net/if.h>

// errno is a macro over a thread-local, and open, fcntl and ioctl are variadic: neither reaches Swift as it is.
static inline int cposix_errno(void) { return errno; }
static inline void cposix_set_errno(int code) { errno = code; }
static inline int cposix_open(const char *path, int flags, unsigned int mode) { return open(path, flags, mode); }
static inline int cposix_fcntl(int fd, int command, int argument) { return fcntl(fd, command, argument); }
static inline int cposix_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
// SocketCAN: a raw CAN socket on one interface (its index looked up by name), error frames asked for, non-blocking.
// The descriptor, or -1 with errno set. struct ifreq and sockaddr_can are unions Swift cannot fill portably.
static inline int cposix_can_open(const char *interface) {
    int fd = socket(PF_CAN, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, CAN_RAW);
    if (fd < 0) return -1;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    strncpy(request.ifr_name, interface, IFNAMSIZ - 1);
    can_err_mask_t errors = CAN_ERR_MASK;
    struct sockaddr_can address;
    memset(&address, 0, sizeof address);
    address.can_family = AF_CAN;
    if (ioctl(fd, SIOCGIFINDEX, &request) < 0
        || setsockopt(fd, SOL_CAN_RAW, CAN_RAW_ERR_FILTER, &errors, sizeof errors) < 0
        || (address.can_ifindex = request.ifr_ifindex,
            bind(fd, (struct sockaddr *)&address, sizeof address) < 0)) {
        int code = errno;
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
}
// SIG_IGN is a cast macro that Swift cannot import.
static inline void cposix_ignore(int signal_number) { signal(signal_number, SIG_IGN); }

// Gives the heap's free pages back to the kernel (after a large answer was built and freed).
static inline void cposix_trim_heap(void) { malloc_trim(0); }

// The next name in a folder (readdir64, whatever the width of the inode numbers), or NULL at its end.
static inline const char *cposix_next_name(DIR *dir) {
    struct dirent64 *entry = readdir64(dir);
    return entry ? entry->d_name : NULL;
}

// A file's size in bytes (stat64), or -1 when there is none.
static inline long long cposix_file_size(const char *path) {
    struct stat64 info;
    return stat64(path, &info) == 0 ? (long long)info.st_size : -1;
}

// A flag set by one thread and read by another (a test stopping the gateway it runs), with the ordering C11 gives.
static inline void cposix_flag_raise(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }
static inline int cposix_flag_read(int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }
// ppoll(2) is declared only under _GNU_SOURCE. The loop wants its nanosecond timeout: poll's milliseconds, rounded
// up so as not to wake early, made every tick up to a millisecond late (0.7 ms at the median).
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);
static inline int cposix_ppoll(struct pollfd *fds, nfds_t count, long seconds, long nanoseconds) {
    struct timespec timeout = {seconds, nanoseconds};
    return ppoll(fds, count, &timeout, NULL);
}
// A child process with its standard streams on /dev/null (the voice's espeak-ng): posix_spawnp, so the loop never
// forks its own memory. Returns the pid, or -1 with errno set.
static inline int cposix_spawn(char *const argv[]) {
    extern char **environ;
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    for (int fd = 0; fd <= 2; fd++) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
    pid_t pid;
    int failed = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed != 0) { errno = failed; return -1; }
    return pid;
}
// The same with standard output and error appended to `log` (a helper whose words the gateway reads once it ends:
// the weather import), standard input on /dev/null.
static inline int cposix_spawn_logging(char *const argv[], const char *log) {
    extern char **environ;
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int failed = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed != 0) { errno = failed; return -1; }
    return pid;
}
// mmap's MAP_FAILED is a cast macro that Swift cannot import.
// Read at random (a forecast is read a point at a time): no read-ahead, and the file's pages dropped from the cache
// first (a file just written sits there in large folios, which a fault maps whole: 2 MB of a 3 MB grid for the few
// kilobytes a forecast at the boat reads), so only the pages touched become resident.
static inline void *cposix_map_readonly(int fd, size_t length) {
    void *address = mmap(NULL, length, PROT_READ, MAP_SHARED, fd, 0);
    if (address == MAP_FAILED) return NULL;
    (void)madvise(address, length, MADV_RANDOM);
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    return address;
}
// A child that has ended: its exit status (128 + the signal for one killed), or -1 while it runs.
static inline int cposix_reap(int pid) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
// A GPIO line as an input with both edges reported (the character device's v2 interface): a button wired from the
// line to ground, pulled up, debounced by the kernel. Returns the line's event descriptor (non-blocking), or -1 with
// errno set. The struct and its ioctl stay here, so the Swift side never lays out a kernel structure.
static inline int cposix_gpio_line(const char *chip, unsigned int line, unsigned int debounce_us, const char *consumer) {
    int chip_fd = open(chip, O_RDONLY | O_CLOEXEC);
    if (chip_fd < 0) return -1;
    struct gpio_v2_line_request request;
    memset(&request, 0, sizeof request);
    request.offsets[0] = line;
    request.num_lines = 1;
    strncpy(request.consumer, consumer, sizeof request.consumer - 1);
    request.config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING
        | GPIO_V2_LINE_FLAG_BIAS_PULL_UP;
    if (debounce_us > 0) {
        request.config.num_attrs = 1;
        request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
        request.config.attrs[0].attr.debounce_period_us = debounce_us;
        request.config.attrs[0].mask = 1;
    }
    int failed = ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &request);
    int saved = errno;
    close(chip_fd);
    if (failed < 0) { errno = saved; return -1; }
    fcntl(request.fd, F_SETFL, fcntl(request.fd, F_GETFL) | O_NONBLOCK);
    return request.fd;
}
// One edge from a line's descriptor: 1 with its kernel time and whether it rose, 0 when none is waiting, -1 with
// errno set on an error (a short read is EIO).
static inline int cposix_gpio_event(int fd, unsigned long long *timestamp_ns, int *rising) {
    struct gpio_v2_line_event event;
    ssize_t got = read(fd, &event, sizeof event);
    if (got < 0) return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
    if (got != (ssize_t)sizeof event) { errno = EIO; return -1; }
    *timestamp_ns = event.timestamp_ns;
    *rising = event.id == GPIO_V2_LINE_EVENT_RISING_EDGE;
    return 1;
}
// A serial line for NMEA 0183, opened so that nothing it receives is ever echoed back onto the bus: the line is put
// in raw mode (no echo, no line editing, 8N1, no flow control, the receiver on, modem lines ignored) by the first call
// after open(2), from a termios built here rather than read first; whatever the tty echoed or queued in the
// microseconds before is then flushed. Only then is the line locked for us alone (flock and TIOCEXCL, so that gpsd
// or a second gateway cannot take it). Returns the non-blocking descriptor, or -1 with errno set: ENOENT no device,
// EACCES/EPERM refused, ENOTTY not a serial line, EINVAL a baud rate the line cannot do, EWOULDBLOCK/EBUSY in use.
static inline speed_t cposix_baud(int baud) {
    switch (baud) {
    case 1200: return B1200; case 2400: return B2400; case 4800: return B4800; case 9600: return B9600;
    case 19200: return B19200; case 38400: return B38400; case 57600: return B57600; case 115200: return B115200;
    case 230400: return B230400; case 460800: return B460800; case 921600: return B921600;
    default: return 0;
    }
}
static inline int cposix_serial_open(const char *path, int baud) {
    speed_t speed = cposix_baud(baud);
    if (speed == 0) { errno = EINVAL; return -1; }
    int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct termios raw;
    memset(&raw, 0, sizeof raw);
    raw.c_cflag = CS8 | CREAD | CLOCAL;
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    cfsetispeed(&raw, speed);
    cfsetospeed(&raw, speed);
    int failed = tcsetattr(fd, TCSANOW, &raw);
    if (failed == 0) failed = tcflush(fd, TCIOFLUSH);
    if (failed == 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) failed = -1;
    if (failed == 0 && ioctl(fd, TIOCEXCL) != 0 && errno != ENOTTY && errno != EINVAL) failed = -1;
    if (failed != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
// Random bytes from the kernel (getrandom(2), waiting for the pool at boot): 0, or -1 with errno set.
extern long cposix_getrandom_call(void *buffer, unsigned long length, unsigned int flags) __asm__("getrandom");
static inline int cposix_random(void *buffer, unsigned long length) {
    unsigned char *bytes = (unsigned char *)buffer;
    while (length > 0) {
        long got = cposix_getrandom_call(bytes, length, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += got;
        length -= (unsigned long)got;
    }
    return 0;
}
// Starts writing a file's dirty pages to the disk without waiting for them (sync_file_range(2) with
// SYNC_FILE_RANGE_WRITE): a recording reaches the card within seconds and the loop never stalls on it.
extern int cposix_sync_file_range_call(int fd, long long offset, long long count, unsigned int flags)
    __asm__("sync_file_range");
static inline int cposix_start_writeback(int fd) { return cposix_sync_file_range_call(fd, 0, 0, 2); }
// Gives back the pages of code that startup touched and the loop never will (the configuration reader, the command
// line, the check of every setting, and in the C libraries the dynamic linker's work and whatever start-up called).
// Each executable mapping of the program's file is marked for random access (no read-ahead: a page needed again is
// read alone) and unmapped from this process (MADV_DONTNEED: code is never written, so nothing is lost; MADV_PAGEOUT
// would need write permission on the file), then the file's pages no process maps any more are dropped from the page
// cache, so that the kernel's fault-around cannot map them back beside a page that is needed. The shared libraries'
// code mappings are unmapped from this process too (their pages stay in the cache for the other processes that use
// them, so what the loop needs of them comes back 64 KB at a time). What the loop uses comes back; the rest stays
// out. Read-only data mappings are left alone (relocated data lives there). Returns the mappings released.
#include <sys/mman.h>
static inline int cposix_release_program_pages(void) {
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0) return -1;
    exe[length] = 0;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -1;
    char line[4608];
    int released = 0;
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char permissions[5];
        int path = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, permissions, &path) < 3 || path == 0) continue;
        char *name = line + path;
        name[strcspn(name, "\n")] = 0;
        if (name[0] != '/' || strcmp(permissions, "r-xp") != 0) continue;
        if (strcmp(name, exe) == 0) madvise((void *)start, end - start, MADV_RANDOM);
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) released++;
    }
    fclose(maps);
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
    return released;
}
// The size of one edge event as the kernel writes it (for tests that play a button down a pipe).
static inline int cposix_gpio_event_size(void) { return (int)sizeof(struct gpio_v2_line_event); }
// Multicast out of one interface, by its index (struct ip_mreqn), with the TTL mDNS asks for (255). 0 or -1 (errno).
static inline int cposix_multicast_out(int fd, unsigned int interface_index) {
    struct ip_mreqn request;
    memset(&request, 0, sizeof request);
    request.imr_ifindex = (int)interface_index;
    int ttl = 255;
    if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl) != 0) return -1;
    return setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &request, sizeof request);
}
#endif
