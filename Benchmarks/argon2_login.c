/* A login's hash on arm64: libsodium's Argon2id with the shore's parameters (3 passes over 64 MiB), timed. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
int main(void) {
    void *lib = dlopen("libsodium.so.23", RTLD_NOW);
    if (!lib) { printf("no libsodium: %s\n", dlerror()); return 1; }
    int (*init)(void) = dlsym(lib, "sodium_init");
    int (*hash)(char *, const char *, unsigned long long, unsigned long long, size_t, int) =
        dlsym(lib, "crypto_pwhash_str_alg");
    int (*verify)(const char *, const char *, unsigned long long) = dlsym(lib, "crypto_pwhash_str_verify");
    if (init() < 0) return 1;
    char out[128];
    const char *password = "cargo-owner-55555";
    struct timespec a, b;
    for (int i = 0; i < 3; i++) {
        clock_gettime(CLOCK_MONOTONIC, &a);
        if (hash(out, password, strlen(password), 3, 64u << 20, 2) != 0) { printf("hash failed\n"); return 1; }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double made = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int ok = verify(out, password, strlen(password)) == 0;
        clock_gettime(CLOCK_MONOTONIC, &b);
        double checked = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
        printf("argon2id t=3 m=64MiB: made in %.3f s, checked in %.3f s (%s) %.30s\n", made, checked,
               ok ? "ok" : "FAIL", out);
    }
    return 0;
}
