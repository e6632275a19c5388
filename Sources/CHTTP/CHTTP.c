#define CURL_DISABLE_TYPECHECK 1
#define CURL_DISABLE_DEPRECATION 1
#include "CHTTP.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl's functions, found in the library when it is loaded.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && load_error[0] == 0) {
        snprintf(load_error, sizeof load_error, "libcurl has no %s", name);
    }
    return symbol;
}

static void load(void) {
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};
    void *library = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_error, sizeof load_error,
                 "cannot load libcurl (libcurl.so.4): install it (Debian: libcurl4) to talk to Apple");
        return;
    }
    *(void **)&curl.global_init = find(library, "curl_global_init");
    *(void **)&curl.easy_init = find(library, "curl_easy_init");
    *(void **)&curl.easy_setopt = find(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = find(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = find(library, "curl_easy_getinfo");
    *(void **)&curl.easy_cleanup = find(library, "curl_easy_cleanup");
    *(void **)&curl.easy_strerror = find(library, "curl_easy_strerror");
    *(void **)&curl.slist_append = find(library, "curl_slist_append");
    *(void **)&curl.slist_free_all = find(library, "curl_slist_free_all");
    if (load_error[0] != 0) return;
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl did not start: %s", curl.easy_strerror(code));
    }
}

int msgc_http_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (load_error[0] == 0) return 0;
    snprintf(error, error_size, "%s", load_error);
    return -1;
}

// A growing buffer for what the server sends, refused beyond `limit` bytes.
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflowed;
} buffer;

static int append(buffer *target, const char *bytes, size_t count) {
    if (count > target->limit - target->length) {
        target->overflowed = 1;
        return -1;
    }
    if (target->length + count > target->capacity) {
        size_t capacity = target->capacity == 0 ? 4096 : target->capacity;
        while (capacity < target->length + count) capacity *= 2;
        char *grown = realloc(target->bytes, capacity);
        if (grown == NULL) return -1;
        target->bytes = grown;
        target->capacity = capacity;
    }
    memcpy(target->bytes + target->length, bytes, count);
    target->length += count;
    return 0;
}

static size_t receive_body(char *bytes, size_t size, size_t count, void *context) {
    return append(context, bytes, size * count) == 0 ? size * count : 0;
}

// Keeps the header lines of the last response only: a `100 Continue` or any other interim
// response starts again at its status line, which is not kept.
static size_t receive_header(char *bytes, size_t size, size_t count, void *context) {
    buffer *headers = context;
    size_t length = size * count;
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) {
        headers->length = 0;
        return length;
    }
    return append(headers, bytes, length) == 0 ? length : 0;
}

int msgc_http_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                      const void *body, size_t body_length, long timeout_seconds, msgc_http_response *response) {
    memset(response, 0, sizeof *response);
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(response->error, sizeof response->error, "libcurl could not make a request");
        return -1;
    }
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl.slist_append(list, headers[index]);
    // No `Expect: 100-continue` before large bodies: Apple answers at once.
    list = curl.slist_append(list, "Expect:");

    buffer received = {.limit = 64u << 20};
    buffer header_lines = {.limit = 1u << 20};
    curl.easy_setopt(handle, CURLOPT_URL, url);
    if (curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_UNKNOWN_OPTION) {
        curl.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    // The applier's lanes call this from several threads: no signals for timeouts.
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_FORBID_REUSE, 1L);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, 30L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, receive_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &received);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, receive_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &header_lines);
    if (body != NULL) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    } else if (strcmp(method, "GET") == 0) {
        curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    } else {
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    }

    CURLcode code = curl.easy_perform(handle);
    int result = 0;
    if (code == CURLE_OK) {
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
        response->body = received.bytes;
        response->body_length = received.length;
        response->headers = header_lines.bytes;
        response->headers_length = header_lines.length;
    } else {
        if (received.overflowed || header_lines.overflowed) {
            snprintf(response->error, sizeof response->error, "the answer was larger than msgc accepts (64 MiB)");
        } else {
            snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(code));
        }
        response->permanent = code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE ||
                              code == CURLE_SSL_CERTPROBLEM || code == CURLE_UNSUPPORTED_PROTOCOL ||
                              code == CURLE_URL_MALFORMAT;
        free(received.bytes);
        free(header_lines.bytes);
        response->status = 0;
        result = -1;
    }
    curl.slist_free_all(list);
    curl.easy_cleanup(handle);
    return result;
}

void msgc_http_response_free(msgc_http_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}
