/* Median wall time of several commands measured round-robin: one run of each in turn, ROUNDS
   times, so that a machine getting slower or faster during the benchmark moves every command
   alike and their ratios stay fair (hyperfine runs one command's runs back to back).

     interleave ROUNDS -- COMMAND [ARG...] [-- COMMAND [ARG...]]...

   Prints each command's median in milliseconds, one per line, in the order given. stdout of
   the commands goes to /dev/null; a command that fails stops the benchmark. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    int rounds = argc > 2 ? atoi(argv[1]) : 0;
    if (rounds < 1 || strcmp(argv[2], "--") != 0) {
        fprintf(stderr, "usage: interleave ROUNDS -- COMMAND [ARG...] [-- COMMAND [ARG...]]...\n");
        return 2;
    }
    /* Each "--" ends the previous command's argv (replaced by NULL) and starts the next. */
    char **commands[argc];
    int count = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") != 0) continue;
        argv[i] = NULL;
        if (i + 1 < argc && strcmp(argv[i + 1], "--") != 0) commands[count++] = &argv[i + 1];
    }
    double *times = calloc((size_t)count * (size_t)rounds, sizeof *times);
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    for (int round = 0; round < rounds; round++) {
        for (int c = 0; c < count; c++) {
            pid_t pid;
            int status;
            double start = now_ms();
            if (posix_spawnp(&pid, commands[c][0], &quiet, NULL, commands[c], environ) != 0) {
                perror(commands[c][0]);
                return 1;
            }
            waitpid(pid, &status, 0);
            times[c * rounds + round] = now_ms() - start;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "interleave: %s failed\n", commands[c][0]);
                return 1;
            }
        }
    }
    for (int c = 0; c < count; c++) {
        qsort(&times[c * rounds], (size_t)rounds, sizeof *times, ascending);
        printf("%.3f\n", times[c * rounds + rounds / 2]);
    }
    return 0;
}
