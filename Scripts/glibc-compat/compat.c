/* What the release binary's static parts (the Swift runtime and FoundationEssentials, built on
 * glibc 2.36; libstdc++ from GCC 12) take from glibc past 2.31, the floor the release is linked
 * for (Scripts/glibc-sysroot.sh, docs/release.md). Linked into the release executable only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc 2.32: libstdc++ skips atomic reference counts while this is non-zero. Zero: always
 * atomic, which is right whether or not threads are running. */
char __libc_single_threaded = 0;

/* Fills `bytes` from /dev/urandom: glibc's arc4random falls back to it where the kernel has no
 * getrandom (before Linux 3.17, or a seccomp filter that answers ENOSYS, as some container
 * runtimes' older profiles do). 0 when it could. */
static int fbauth_urandom(unsigned char *bytes, size_t count) {
    int fd;
    do {
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -1;
    while (count > 0) {
        ssize_t got = read(fd, bytes, count);
        if (got > 0) {
            bytes += got;
            count -= (size_t)got;
        } else if (got == 0 || errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    close(fd);
    return 0;
}

/* Where nothing gives randomness: glibc's arc4random ends the process with this message too. */
static void fbauth_no_entropy(void) {
    static const char message[] = "Fatal glibc error: cannot get entropy for arc4random\n";
    (void)!write(2, message, sizeof message - 1);
    abort();
}

/* glibc 2.36: a random word from the kernel's generator (getrandom(2), Linux 3.17), as glibc's
 * own arc4random does; it blocks only until the generator is first seeded at boot. */
uint32_t arc4random(void) {
    static int no_getrandom;
    uint32_t value;
    unsigned char *bytes = (unsigned char *)&value;
    size_t filled = 0;
    while (!no_getrandom && filled < sizeof value) {
        long got = syscall(SYS_getrandom, bytes + filled, sizeof value - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno == ENOSYS) {
            no_getrandom = 1;  /* asked once; a race to set it sets the same value */
        } else if (got < 0 && errno != EINTR) {
            fbauth_no_entropy();
        }
    }
    if (filled < sizeof value && fbauth_urandom(bytes + filled, sizeof value - filled) != 0) fbauth_no_entropy();
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
