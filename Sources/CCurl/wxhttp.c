#include "wxhttp.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The few libcurl symbols and constants wx uses. These values are part of libcurl's stable
 * ABI (curl/curl.h: CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000;
 * CURLINFO_STRING 0x100000, CURLINFO_LONG 0x200000), so no -dev package is needed to build.
 */
enum {
  OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
  OPT_USERAGENT = 10018, OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20, OPT_HEADERDATA = 10029,
  OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68, OPT_HEADERFUNCTION = 20079, OPT_NOSIGNAL = 99,
  OPT_ACCEPT_ENCODING = 10102, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
  OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182, OPT_HTTPGET = 80,
  INFO_RESPONSE_CODE = 0x200000 + 2, INFO_CONTENT_TYPE = 0x100000 + 18, INFO_EFFECTIVE_URL = 0x100000 + 1,
  INFO_REDIRECT_COUNT = 0x200000 + 20,
  PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_DEFAULT = 3, CURL_ERROR_SIZE = 256
};

typedef void CURL;
static int (*p_global_init)(long);
static CURL *(*p_easy_init)(void);
static void (*p_easy_cleanup)(CURL *);
static int (*p_easy_setopt)(CURL *, int, ...);
static int (*p_easy_perform)(CURL *);
static int (*p_easy_getinfo)(CURL *, int, ...);
static const char *(*p_easy_strerror)(int);
static void (*p_easy_reset)(CURL *);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int load_ok;

static void load(void) {
  const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", NULL};
  void *h = NULL;
  for (int i = 0; names[i] && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(load_error, sizeof load_error, "libcurl is not installed (%s)", dlerror());
    return;
  }
#define SYM(var, name) do { *(void **)(&var) = dlsym(h, name); if (!var) { \
    snprintf(load_error, sizeof load_error, "libcurl lacks %s", name); return; } } while (0)
  SYM(p_global_init, "curl_global_init");
  SYM(p_easy_init, "curl_easy_init");
  SYM(p_easy_cleanup, "curl_easy_cleanup");
  SYM(p_easy_setopt, "curl_easy_setopt");
  SYM(p_easy_perform, "curl_easy_perform");
  SYM(p_easy_getinfo, "curl_easy_getinfo");
  SYM(p_easy_strerror, "curl_easy_strerror");
  SYM(p_easy_reset, "curl_easy_reset");
#undef SYM
  if (p_global_init(GLOBAL_DEFAULT) != 0) {
    snprintf(load_error, sizeof load_error, "libcurl failed to initialise");
    return;
  }
  load_ok = 1;
}

int wx_http_load(char *err, size_t errlen) {
  pthread_once(&load_once, load);
  if (!load_ok && err && errlen) snprintf(err, errlen, "%s", load_error);
  return load_ok ? 0 : -1;
}

void *wx_http_session_new(void) {
  if (wx_http_load(NULL, 0) != 0) return NULL;
  return p_easy_init();
}

void wx_http_session_free(void *session) {
  if (session && load_ok) p_easy_cleanup(session);
}

typedef struct {
  wx_http_response *out;
  size_t cap;
  size_t max;
  size_t received; /* body bytes so far, kept or handed on: the cap counts these */
  CURL *curl;
  wx_http_body_fn fn; /* NULL: collect the body into out->body */
  void *ctx;
} sink;

static void copy_header_value(char *dst, size_t dstlen, const char *v, size_t len);

static size_t on_body(char *ptr, size_t size, size_t n, void *userdata) {
  sink *s = userdata;
  size_t len = size * n;
  /* Counted whether or not the server sent a Content-Length (or lied in it). */
  if (s->received + len > s->max) {
    s->out->too_large = 1;
    return 0; /* aborts the transfer with CURLE_WRITE_ERROR */
  }
  s->received += len;
  if (s->fn) {
    if (s->received == len) { /* first chunk: the status and type of the final response */
      p_easy_getinfo(s->curl, INFO_RESPONSE_CODE, &s->out->status);
      char *ct = NULL;
      if (p_easy_getinfo(s->curl, INFO_CONTENT_TYPE, &ct) == 0 && ct)
        copy_header_value(s->out->content_type, sizeof s->out->content_type, ct, strlen(ct));
    }
    if (s->fn(s->ctx, (const unsigned char *)ptr, len, s->out->status, s->out->content_type) != 0) {
      s->out->stopped = 1;
      return 0;
    }
    return len;
  }
  if (s->out->body_len + len > s->cap) {
    size_t cap = s->cap ? s->cap : 65536;
    while (cap < s->out->body_len + len) cap *= 2;
    unsigned char *b = realloc(s->out->body, cap);
    if (!b) return 0;
    s->out->body = b;
    s->cap = cap;
  }
  memcpy(s->out->body + s->out->body_len, ptr, len);
  s->out->body_len += len;
  return len;
}

static void copy_header_value(char *dst, size_t dstlen, const char *v, size_t len) {
  while (len && (*v == ' ' || *v == '\t')) { v++; len--; }
  while (len && (v[len - 1] == '\r' || v[len - 1] == '\n' || v[len - 1] == ' ')) len--;
  if (len >= dstlen) len = dstlen - 1;
  memcpy(dst, v, len);
  dst[len] = 0;
}

static size_t on_header(char *buf, size_t size, size_t n, void *userdata) {
  wx_http_response *out = userdata;
  size_t len = size * n;
  /* A new status line (after a redirect) starts a new header block. */
  if (len >= 5 && strncmp(buf, "HTTP/", 5) == 0) {
    out->retry_after[0] = 0;
    out->location[0] = 0;
  } else if (len > 9 && strncasecmp(buf, "location:", 9) == 0) {
    /* Kept as sent: a target libcurl cannot even parse is still named in the error. */
    copy_header_value(out->location, sizeof out->location, buf + 9, len - 9);
  } else if (len > 12 && strncasecmp(buf, "retry-after:", 12) == 0) {
    copy_header_value(out->retry_after, sizeof out->retry_after, buf + 12, len - 12);
  }
  return len;
}

int wx_http_get(void *session, const char *url, long timeout_ms, size_t max_bytes,
                const char *user_agent, wx_http_response *out, wx_http_body_fn fn, void *ctx) {
  memset(out, 0, sizeof *out);
  if (!session) {
    out->curl_code = -1;
    snprintf(out->error, sizeof out->error, "%s", load_error[0] ? load_error : "libcurl unavailable");
    return -1;
  }
  CURL *c = session;
  char errbuf[CURL_ERROR_SIZE] = {0};
  sink s = {out, 0, max_bytes, 0, c, fn, ctx};
  long low_speed_time = timeout_ms / 1000 < 10 ? timeout_ms / 1000 : 10;
  if (low_speed_time < 1) low_speed_time = 1;

  p_easy_reset(c);
  p_easy_setopt(c, OPT_URL, url);
  p_easy_setopt(c, OPT_HTTPGET, 1L);
  p_easy_setopt(c, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
  p_easy_setopt(c, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
  p_easy_setopt(c, OPT_FOLLOWLOCATION, 1L);
  p_easy_setopt(c, OPT_MAXREDIRS, 5L);
  p_easy_setopt(c, OPT_NOSIGNAL, 1L);
  p_easy_setopt(c, OPT_TIMEOUT_MS, timeout_ms);
  p_easy_setopt(c, OPT_CONNECTTIMEOUT_MS, timeout_ms);
  p_easy_setopt(c, OPT_LOW_SPEED_LIMIT, 1L);
  p_easy_setopt(c, OPT_LOW_SPEED_TIME, low_speed_time);
  p_easy_setopt(c, OPT_ACCEPT_ENCODING, "");
  p_easy_setopt(c, OPT_USERAGENT, user_agent);
  p_easy_setopt(c, OPT_ERRORBUFFER, errbuf);
  p_easy_setopt(c, OPT_WRITEFUNCTION, on_body);
  p_easy_setopt(c, OPT_WRITEDATA, &s);
  p_easy_setopt(c, OPT_HEADERFUNCTION, on_header);
  p_easy_setopt(c, OPT_HEADERDATA, out);

  int rc = p_easy_perform(c);
  long status = 0;
  p_easy_getinfo(c, INFO_RESPONSE_CODE, &status);
  out->status = status;
  char *ct = NULL;
  if (p_easy_getinfo(c, INFO_CONTENT_TYPE, &ct) == 0 && ct)
    copy_header_value(out->content_type, sizeof out->content_type, ct, strlen(ct));
  long redirects = 0;
  if (p_easy_getinfo(c, INFO_REDIRECT_COUNT, &redirects) == 0) out->redirects = redirects;
  char *last = NULL;
  if (redirects > 0 && p_easy_getinfo(c, INFO_EFFECTIVE_URL, &last) == 0 && last)
    snprintf(out->last_url, sizeof out->last_url, "%s", last);
  /* The error buffer points into this frame: detach it before returning. */
  p_easy_setopt(c, OPT_ERRORBUFFER, (char *)NULL);
  if (rc != 0) {
    out->curl_code = rc;
    snprintf(out->error, sizeof out->error, "%s", errbuf[0] ? errbuf : p_easy_strerror(rc));
    return -1;
  }
  return 0;
}

void wx_http_response_free(wx_http_response *r) {
  if (r && r->body) {
    free(r->body);
    r->body = NULL;
    r->body_len = 0;
  }
}
