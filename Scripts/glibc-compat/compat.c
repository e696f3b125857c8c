/* What the release binary's static parts (the Swift runtime and FoundationEssentials, built on
 * glibc 2.36; libstdc++ from GCC 12) take from glibc past 2.31, the floor the release is linked
 * for (Scripts/glibc-sysroot.sh, docs/release.md). Linked into the release executable only.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc 2.32: libstdc++ skips atomic reference counts while this is non-zero. Zero: always
 * atomic, which is right whether or not threads are running. */
char __libc_single_threaded = 0;

/* glibc 2.36: a random word from the kernel's generator (getrandom(2), Linux 3.17), as glibc's
 * own arc4random does; it blocks only until the generator is first seeded at boot. */
uint32_t arc4random(void) {
    uint32_t value;
    unsigned char *bytes = (unsigned char *)&value;
    size_t filled = 0;
    while (filled < sizeof value) {
        long got = syscall(SYS_getrandom, bytes + filled, sizeof value - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno != EINTR) {
            /* No getrandom (a kernel before 3.17): glibc aborts here too. */
            __builtin_trap();
        }
    }
    return value;
}

/* glibc 2.29 gave exp, exp2, log and log2 new versions (the same results, without the old
 * SVID error handling). Bound to the old versions, the floor is glibc 2.27 rather than 2.29:
 * RHEL 8 (2.28) and Ubuntu 18.04 (2.27) too. */
#if defined(__x86_64__)
#define FBAUTH_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define FBAUTH_GLIBC_BASE "GLIBC_2.17"
#endif
#ifdef FBAUTH_GLIBC_BASE
#define FBAUTH_OLD_VERSION(name)                                              \
    extern double fbauth_old_##name(double);                                  \
    __asm__(".symver fbauth_old_" #name "," #name "@" FBAUTH_GLIBC_BASE);     \
    double name(double x) { return fbauth_old_##name(x); }
FBAUTH_OLD_VERSION(exp)
FBAUTH_OLD_VERSION(exp2)
FBAUTH_OLD_VERSION(log)
FBAUTH_OLD_VERSION(log2)
#endif
