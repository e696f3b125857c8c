/* Calls the release's arc4random shim (Scripts/glibc-compat/compat.c) three times and prints
 * the words; with an argument, under a seccomp filter that answers getrandom(2) with ENOSYS
 * ("enosys": a kernel before 3.17, or an old container profile) or EPERM ("eperm"). Issue 56:
 * the shim trapped on ENOSYS, where glibc's own arc4random reads /dev/urandom. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
uint32_t arc4random(void);
int main(int argc, char **argv) {
    if (argc > 1) {
        struct sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (strcmp(argv[1], "enosys") == 0 ? ENOSYS : EPERM)),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) return 3;
    }
    uint32_t a = arc4random(), b = arc4random(), c = arc4random();
    printf("%08x %08x %08x\n", a, b, c);
    return 0;
}
