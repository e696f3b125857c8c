// One HTTP exchange through the system's libcurl, loaded with dlopen on first use, so that a
// command that makes no request never loads it and no curl headers are needed to build.
#ifndef FBAUTH_CCURL_H
#define FBAUTH_CCURL_H

#include <stddef.h>

typedef struct ccurl_request {
    const char *url;
    /// "GET", "POST", or another method sent as is.
    const char *method;
    /// "Name: value" lines.
    const char *const *headers;
    size_t header_count;
    const void *body;
    size_t body_length;
    long timeout_ms;
    /// Larger answers (after content decoding) are abandoned and reported with too_large.
    size_t max_body;
} ccurl_request;

typedef struct ccurl_response {
    long status;
    /// Every header line received, for all responses of the exchange (e.g. a proxy's).
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    int too_large;
    /// libcurl's CURLcode; 0 when the exchange completed.
    int code;
    /// libcurl's description of a failure.
    char error[256];
} ccurl_response;

/// Result of ccurl_perform when libcurl cannot be loaded (response->error says why).
#define CCURL_UNAVAILABLE (-1)

/// Performs the exchange; returns response->code. Free the response with ccurl_response_free.
int ccurl_perform(const ccurl_request *request, ccurl_response *response);
void ccurl_response_free(ccurl_response *response);

#endif
