// Counts the guest addresses of a qemu-user `-d exec,nochain` trace read from a pipe (Tests/Pi/loop_profile.py), in
// two phases: start-up, then the loop from when the file PREFIX.loop appears. Writes PREFIX.1 and PREFIX.2, one
// "address count" line each in hexadecimal and decimal. A trace runs at some 100 MB a second: Python cannot keep up.
//   loop_trace FIFO PREFIX
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOTS (1u << 22)
static unsigned long long keys[2][SLOTS];
static unsigned long long counts[2][SLOTS];

static void add(int phase, unsigned long long key) {
    unsigned long long slot = (key * 0x9E3779B97F4A7C15ull) >> 42;
    for (;;) {
        slot &= SLOTS - 1;
        if (keys[phase][slot] == key) { counts[phase][slot]++; return; }
        if (keys[phase][slot] == 0) { keys[phase][slot] = key; counts[phase][slot] = 1; return; }
        slot++;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "loop_trace FIFO PREFIX\n"); return 64; }
    FILE *trace = fopen(argv[1], "r");
    if (trace == NULL) { perror(argv[1]); return 66; }
    char flag[4096], name[4096];
    snprintf(flag, sizeof flag, "%s.loop", argv[2]);
    static char line[1 << 16];
    setvbuf(trace, NULL, _IOFBF, 1 << 22);
    int phase = 0;
    unsigned long long lines = 0;
    // "Trace 0: 0xHOST [CS-BASE/GUEST-PC/FLAGS/CFLAGS] symbol": the guest's address follows the first slash.
    while (fgets(line, sizeof line, trace) != NULL) {
        char *slash = strchr(line, '/');
        if (slash == NULL) continue;
        add(phase, strtoull(slash + 1, NULL, 16));
        if ((++lines & 0xFFFFF) == 0 && phase == 0 && access(flag, F_OK) == 0) phase = 1;
    }
    for (int p = 0; p < 2; p++) {
        snprintf(name, sizeof name, "%s.%d", argv[2], p + 1);
        FILE *out = fopen(name, "w");
        if (out == NULL) { perror(name); return 73; }
        for (unsigned i = 0; i < SLOTS; i++)
            if (keys[p][i] != 0) fprintf(out, "%llx %llu\n", keys[p][i], counts[p][i]);
        fclose(out);
    }
    fprintf(stderr, "loop_trace: %llu blocks traced\n", lines);
    return 0;
}
