#ifndef WX_HTTP_H
#define WX_HTTP_H
/*
 * A small HTTP GET over libcurl, which is loaded with dlopen() on first use.
 *
 * Why: linking libcurl (or FoundationNetworking) into wx makes every command pay for
 * loading it and its TLS stack at start-up, and wx's read commands must start in a few
 * milliseconds. Only `wx sync` needs the network, so only it loads libcurl.
 */
#include <stddef.h>

typedef struct wx_http_response {
  long status;               /* HTTP status, 0 when no response arrived */
  int curl_code;             /* CURLcode, 0 when the transfer completed */
  int too_large;             /* 1 when the body went past max_bytes (transfer aborted) */
  int stopped;               /* 1 when the body function asked to stop (transfer aborted) */
  char content_type[128];    /* Content-Type header, "" when absent */
  char retry_after[64];      /* Retry-After header, "" when absent */
  char error[256];           /* libcurl's error text for curl_code */
  long redirects;            /* redirects followed (or attempted: see last_url) */
  char last_url[1024];       /* with redirects > 0: the URL of the last one, possibly refused */
  char location[1024];       /* Location header of the last header block, "" when absent */
  unsigned char *body;       /* malloc'd body; free with wx_http_response_free */
  size_t body_len;
} wx_http_response;

/* Loads libcurl once. Returns 0 on success, -1 with a message in err otherwise. */
int wx_http_load(char *err, size_t errlen);

/* One session = one libcurl easy handle (reused connections). Not thread-safe: one per thread/task. */
void *wx_http_session_new(void);
void wx_http_session_free(void *session);

/*
 * Takes one chunk of a response body as it arrives, with the response's status and
 * Content-Type; returns 0 to go on, anything else to stop the transfer.
 */
typedef int (*wx_http_body_fn)(void *ctx, const unsigned char *data, size_t len, long status,
                               const char *content_type);

/*
 * GET url. Only http and https are allowed, also for redirects (at most 5 followed).
 * timeout_ms bounds the whole transfer; a server that stops sending for min(timeout, 10 s) is cut off.
 * The body goes to fn(ctx, ...) chunk by chunk when fn is not NULL, else into out->body; either
 * way more than max_bytes of it aborts the transfer (too_large), with or without a Content-Length.
 * Returns 0 when a response was received (any status), -1 when the transfer failed (see curl_code/error).
 */
int wx_http_get(void *session, const char *url, long timeout_ms, size_t max_bytes,
                const char *user_agent, wx_http_response *out, wx_http_body_fn fn, void *ctx);

void wx_http_response_free(wx_http_response *r);

#endif
