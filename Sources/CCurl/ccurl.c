// libcurl through dlopen. The option numbers are libcurl's stable ABI (curl/curl.h:
// CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000).
#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_POSTFIELDS = 10015, OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_CUSTOMREQUEST = 10036,
    OPT_POST = 47, OPT_FOLLOWLOCATION = 52, OPT_HTTPGET = 80, OPT_NOSIGNAL = 99,
    OPT_ACCEPT_ENCODING = 10102, OPT_HEADERFUNCTION = 20079, OPT_TIMEOUT_MS = 155,
    OPT_POSTFIELDSIZE_LARGE = 30120, OPT_MAXFILESIZE_LARGE = 30117, OPT_PROTOCOLS = 181,
    INFO_RESPONSE_CODE = 0x200002, GLOBAL_DEFAULT = 3, CURLE_WRITE_ERROR = 23,
    PROTO_HTTP_HTTPS = 3,
};

typedef void *(*easy_init_fn)(void);
typedef int (*easy_setopt_fn)(void *, int, ...);
typedef int (*easy_perform_fn)(void *);
typedef int (*easy_getinfo_fn)(void *, int, ...);
typedef void (*easy_cleanup_fn)(void *);
typedef void *(*slist_append_fn)(void *, const char *);
typedef void (*slist_free_all_fn)(void *);
typedef const char *(*easy_strerror_fn)(int);
typedef int (*global_init_fn)(long);

static struct {
    easy_init_fn easy_init;
    easy_setopt_fn easy_setopt;
    easy_perform_fn easy_perform;
    easy_getinfo_fn easy_getinfo;
    easy_cleanup_fn easy_cleanup;
    slist_append_fn slist_append;
    slist_free_all_fn slist_free_all;
    easy_strerror_fn easy_strerror;
    char failure[200];
    int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libcurl.4.dylib", "libcurl.dylib"};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so"};
#endif
    void *library = NULL;
    // The first name's failure is the one to report: the usual library, and why it did not load.
    char first_failure[120] = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        const char *why = library == NULL ? dlerror() : NULL;
        if (i == 0 && why != NULL) snprintf(first_failure, sizeof first_failure, "%s", why);
    }
    if (library == NULL) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl is not installed (%s); install libcurl4 (Debian, Ubuntu) or libcurl (Fedora)", first_failure);
        return;
    }
    curl.easy_init = (easy_init_fn)dlsym(library, "curl_easy_init");
    curl.easy_setopt = (easy_setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.easy_perform = (easy_perform_fn)dlsym(library, "curl_easy_perform");
    curl.easy_getinfo = (easy_getinfo_fn)dlsym(library, "curl_easy_getinfo");
    curl.easy_cleanup = (easy_cleanup_fn)dlsym(library, "curl_easy_cleanup");
    curl.slist_append = (slist_append_fn)dlsym(library, "curl_slist_append");
    curl.slist_free_all = (slist_free_all_fn)dlsym(library, "curl_slist_free_all");
    curl.easy_strerror = (easy_strerror_fn)dlsym(library, "curl_easy_strerror");
    global_init_fn global_init = (global_init_fn)dlsym(library, "curl_global_init");
    if (!curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo || !curl.easy_cleanup
        || !curl.slist_append || !curl.slist_free_all || !curl.easy_strerror || !global_init) {
        snprintf(curl.failure, sizeof curl.failure, "the installed libcurl lacks the easy interface");
        return;
    }
    // Once, before any thread uses libcurl (it is not thread-safe itself).
    if (global_init(GLOBAL_DEFAULT) != 0) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl failed to initialize");
        return;
    }
    curl.loaded = 1;
}

typedef struct buffer {
    char *bytes;
    size_t length;
    size_t limit;
    int over;
} buffer;

static size_t append(char *data, size_t size, size_t count, void *context) {
    buffer *target = context;
    size_t length = size * count;
    if (target->length + length > target->limit) {
        target->over = 1;
        return 0;  // libcurl stops with CURLE_WRITE_ERROR
    }
    char *grown = realloc(target->bytes, target->length + length + 1);
    if (grown == NULL) return 0;
    memcpy(grown + target->length, data, length);
    target->bytes = grown;
    target->length += length;
    target->bytes[target->length] = 0;
    return length;
}

int ccurl_perform(const ccurl_request *request, ccurl_response *response) {
    memset(response, 0, sizeof *response);
    pthread_once(&load_once, load);
    if (!curl.loaded) {
        snprintf(response->error, sizeof response->error, "%s", curl.failure);
        return response->code = CCURL_UNAVAILABLE;
    }
    void *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(response->error, sizeof response->error, "libcurl could not start a transfer");
        return response->code = CCURL_UNAVAILABLE;
    }
    buffer body = {NULL, 0, request->max_body, 0};
    buffer headers = {NULL, 0, 256 * 1024, 0};
    void *header_list = curl.slist_append(NULL, "Expect:");  // no 100-continue round trip
    for (size_t i = 0; i < request->header_count; i++) header_list = curl.slist_append(header_list, request->headers[i]);

    curl.easy_setopt(handle, OPT_URL, request->url);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)PROTO_HTTP_HTTPS);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, request->timeout_ms);
    curl.easy_setopt(handle, OPT_ACCEPT_ENCODING, "");  // every encoding libcurl decodes
    curl.easy_setopt(handle, OPT_MAXFILESIZE_LARGE, (long long)request->max_body);
    curl.easy_setopt(handle, OPT_HTTPHEADER, header_list);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, response->error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, append);
    curl.easy_setopt(handle, OPT_WRITEDATA, &body);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, append);
    curl.easy_setopt(handle, OPT_HEADERDATA, &headers);
    if (strcmp(request->method, "GET") == 0) {
        curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    } else {
        if (strcmp(request->method, "POST") != 0) curl.easy_setopt(handle, OPT_CUSTOMREQUEST, request->method);
        curl.easy_setopt(handle, OPT_POST, 1L);
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE_LARGE, (long long)request->body_length);
        curl.easy_setopt(handle, OPT_POSTFIELDS, request->body_length > 0 ? request->body : "");
    }

    response->code = curl.easy_perform(handle);
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &response->status);
    if (response->code != 0 && response->error[0] == 0) {
        snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(response->code));
    }
    // CURLE_FILESIZE_EXCEEDED (63) comes from a Content-Length over the limit.
    response->too_large = body.over || response->code == 63;
    response->body = body.bytes;
    response->body_length = body.length;
    response->headers = headers.bytes;
    response->headers_length = headers.length;
    curl.slist_free_all(header_list);
    curl.easy_cleanup(handle);
    return response->code;
}

void ccurl_response_free(ccurl_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}
