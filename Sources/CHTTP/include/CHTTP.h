#ifndef MSGC_CHTTP_H
#define MSGC_CHTTP_H

#include <stddef.h>

/// One HTTP exchange as msgc apply needs it: the status, the header block of the final
/// response and its body, or why there was none.
typedef struct {
    /// The HTTP status; 0 when no response came.
    long status;
    /// The final response's header lines as received (CR LF separated), without the status line.
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    /// Why no response came, when `status` is 0.
    char error[256];
    /// 1 when asking again cannot help: the server's certificate was refused, the URL or its
    /// scheme is not one msgc can use.
    int permanent;
} msgc_http_response;

/// Loads libcurl (libcurl.so.4, else libcurl-gnutls.so.4) the first time it is called and
/// initialises it. Returns 0 when it is ready; otherwise -1 with the reason in `error`.
/// libcurl is loaded here rather than linked, so that the commands that never talk to a
/// server do not load it and the thirty libraries it needs at every start.
int msgc_http_load(char *error, size_t error_size);

/// Sends one request on a connection of its own (closed afterwards) and waits for the answer.
/// `headers` are complete `Name: value` lines. `body` may be NULL. Only http and https are
/// allowed, redirects are not followed, and the certificate of an https server is verified
/// against the system's authorities. Returns 0 when a response came (any status), -1 otherwise
/// with the reason in `response->error`. msgc_http_load must have succeeded first.
int msgc_http_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                      const void *body, size_t body_length, long timeout_seconds, msgc_http_response *response);

/// Frees what msgc_http_perform allocated in `response`.
void msgc_http_response_free(msgc_http_response *response);

#endif
