#ifndef TELLTALE_CPOSIX_SHIM_H
#define TELLTALE_CPOSIX_SHIM_H
// The C library as the gateway uses it, for the desktop build and for the Pi build alike. Embedded Swift has no
// Glibc module, so this header is the one way in; Sources/Platform is the one Swift funnel over it.
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

// errno is a macro over a thread-local, and open, fcntl and ioctl are variadic: neither reaches Swift as it is.
static inline int cposix_errno(void) { return errno; }
static inline void cposix_set_errno(int code) { errno = code; }
static inline int cposix_open(const char *path, int flags, unsigned int mode) { return open(path, flags, mode); }
static inline int cposix_fcntl(int fd, int command, int argument) { return fcntl(fd, command, argument); }
static inline int cposix_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
// SIG_IGN is a cast macro that Swift cannot import.
static inline void cposix_ignore(int signal_number) { signal(signal_number, SIG_IGN); }
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
// A child that has ended: its exit status (128 + the signal for one killed), or -1 while it runs.
static inline int cposix_reap(int pid) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
#endif
