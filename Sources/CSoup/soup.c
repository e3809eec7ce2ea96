#include "CSoup.h"

#include <dlfcn.h>
#include <pthread.h>

/* The functions used, as libsoup 3 declares them (libsoup-3.0/libsoup/soup-server.h,
 * soup-server-message.h, soup-message-headers.h, soup-message-body.h); its headers are not
 * included, so that nothing here links the library. */
typedef struct _SoupMessageHeaders SoupMessageHeaders;
typedef struct {
  const char *data;
  goffset length;
} SoupMessageBody;
enum { SOUP_MEMORY_COPY = 2 };       /* SoupMemoryUse */
enum { SOUP_ENCODING_CHUNKED = 4 };  /* SoupEncoding */

static struct {
  CSoupServer *(*server_new)(const char *first, ...);
  void (*add_handler)(CSoupServer *, const char *, CSoup_handler, gpointer, GDestroyNotify);
  void (*add_early_handler)(
      CSoupServer *, const char *, CSoup_handler, gpointer, GDestroyNotify);
  GSocket *(*get_socket)(CSoupMessage *);
  gboolean (*listen_socket)(CSoupServer *, GSocket *, int, GError **);
  void (*disconnect)(CSoupServer *);
  const char *(*get_method)(CSoupMessage *);
  SoupMessageHeaders *(*request_headers)(CSoupMessage *);
  SoupMessageHeaders *(*response_headers)(CSoupMessage *);
  SoupMessageBody *(*request_body)(CSoupMessage *);
  SoupMessageBody *(*response_body)(CSoupMessage *);
  const char *(*headers_get_one)(SoupMessageHeaders *, const char *);
  void (*headers_replace)(SoupMessageHeaders *, const char *, const char *);
  void (*headers_set_encoding)(SoupMessageHeaders *, int);
  void (*pause)(CSoupMessage *);
  void (*unpause)(CSoupMessage *);
  void (*set_status)(CSoupMessage *, guint, const char *);
  void (*set_response)(CSoupMessage *, const char *, int, const char *, gsize);
  void (*body_append)(SoupMessageBody *, int, gconstpointer, gsize);
  void (*body_set_accumulate)(SoupMessageBody *, gboolean);
} soup;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;

static void load(void) {
  void *library = dlopen("libsoup-3.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    failure = why != NULL ? why : "libsoup-3.0.so.0 cannot be loaded";
    return;
  }
#define CSOUP_SYMBOL(field, name)                  \
  {                                                \
    void *address = dlsym(library, name);          \
    if (address == NULL) {                         \
      failure = "libsoup 3 lacks " name;           \
      return;                                      \
    }                                              \
    *(void **)&soup.field = address;               \
  }
  CSOUP_SYMBOL(server_new, "soup_server_new")
  CSOUP_SYMBOL(add_handler, "soup_server_add_handler")
  CSOUP_SYMBOL(add_early_handler, "soup_server_add_early_handler")
  CSOUP_SYMBOL(get_socket, "soup_server_message_get_socket")
  CSOUP_SYMBOL(listen_socket, "soup_server_listen_socket")
  CSOUP_SYMBOL(disconnect, "soup_server_disconnect")
  CSOUP_SYMBOL(get_method, "soup_server_message_get_method")
  CSOUP_SYMBOL(request_headers, "soup_server_message_get_request_headers")
  CSOUP_SYMBOL(response_headers, "soup_server_message_get_response_headers")
  CSOUP_SYMBOL(request_body, "soup_server_message_get_request_body")
  CSOUP_SYMBOL(response_body, "soup_server_message_get_response_body")
  CSOUP_SYMBOL(headers_get_one, "soup_message_headers_get_one")
  CSOUP_SYMBOL(headers_replace, "soup_message_headers_replace")
  CSOUP_SYMBOL(headers_set_encoding, "soup_message_headers_set_encoding")
  CSOUP_SYMBOL(pause, "soup_server_message_pause")
  CSOUP_SYMBOL(unpause, "soup_server_message_unpause")
  CSOUP_SYMBOL(set_status, "soup_server_message_set_status")
  CSOUP_SYMBOL(set_response, "soup_server_message_set_response")
  CSOUP_SYMBOL(body_append, "soup_message_body_append")
  CSOUP_SYMBOL(body_set_accumulate, "soup_message_body_set_accumulate")
#undef CSOUP_SYMBOL
}

const char *CSoup_load_failure(void) {
  pthread_once(&once, load);
  return failure;
}

CSoupServer *CSoup_server_new(void) {
  return soup.server_new("server-header", "fonti-batch", NULL);
}

void CSoup_server_add_handler(CSoupServer *server, CSoup_handler handler, gpointer data) {
  soup.add_handler(server, NULL, handler, data, NULL);
}

void CSoup_server_add_early_handler(
    CSoupServer *server, CSoup_handler handler, gpointer data) {
  soup.add_early_handler(server, NULL, handler, data, NULL);
}

void CSoup_discard_body(CSoupMessage *message) {
  soup.body_set_accumulate(soup.request_body(message), FALSE);
}

int CSoup_socket_fd(CSoupMessage *message) {
  GSocket *socket = soup.get_socket(message);
  return socket != NULL ? g_socket_get_fd(socket) : -1;
}

gboolean CSoup_server_listen_socket(CSoupServer *server, GSocket *socket, GError **error) {
  return soup.listen_socket(server, socket, 0, error);
}

void CSoup_server_disconnect(CSoupServer *server) { soup.disconnect(server); }

const char *CSoup_method(CSoupMessage *message) { return soup.get_method(message); }

const char *CSoup_request_header(CSoupMessage *message, const char *name) {
  return soup.headers_get_one(soup.request_headers(message), name);
}

const char *CSoup_request_body(CSoupMessage *message, gsize *length) {
  SoupMessageBody *body = soup.request_body(message);
  *length = body != NULL && body->data != NULL && body->length > 0 ? (gsize)body->length : 0;
  return *length > 0 ? body->data : NULL;
}

void CSoup_pause(CSoupMessage *message) { soup.pause(message); }

void CSoup_unpause(CSoupMessage *message) { soup.unpause(message); }

void CSoup_set_status(CSoupMessage *message, guint status, const char *reason) {
  soup.set_status(message, status, reason);
}

void CSoup_set_header(CSoupMessage *message, const char *name, const char *value) {
  soup.headers_replace(soup.response_headers(message), name, value);
}

void CSoup_set_response(
    CSoupMessage *message, const char *type, const void *body, gsize length) {
  soup.set_response(message, type, SOUP_MEMORY_COPY, (const char *)body, length);
}

void CSoup_set_chunked(CSoupMessage *message) {
  soup.headers_set_encoding(soup.response_headers(message), SOUP_ENCODING_CHUNKED);
}

void CSoup_append(CSoupMessage *message, const void *data, gsize length) {
  soup.body_append(soup.response_body(message), SOUP_MEMORY_COPY, data, length);
}
