#ifndef CSOUP_H
#define CSOUP_H

#include <glib.h>
#include <gio/gio.h>

/* libsoup 3's HTTP server, loaded when `serve` first asks for it rather than linked: linked,
 * libsoup and the libraries behind it (sqlite, krb5, nghttp2, psl, brotli…) cost every process
 * of a run about 2.5 ms of CPU and 2.4 MiB of memory at start. GLib and GIO are loaded by Pango
 * anyway. These wrappers are the part of libsoup's API `serve` uses, with its types opaque. */

typedef struct _SoupServer CSoupServer;
typedef struct _SoupServerMessage CSoupMessage;
typedef void (*CSoup_handler)(
    CSoupServer *server, CSoupMessage *message, const char *path, GHashTable *query,
    gpointer data);

/* Loads libsoup (once, thread-safe); NULL when it is loaded, else why not. */
const char *CSoup_load_failure(void);

CSoupServer *CSoup_server_new(void);
void CSoup_server_add_handler(CSoupServer *server, CSoup_handler handler, gpointer data);
/* Called when a request's headers are read, before its body: an answer set here is sent
 * without the body being read. */
void CSoup_server_add_early_handler(
    CSoupServer *server, CSoup_handler handler, gpointer data);
gboolean CSoup_server_listen_socket(CSoupServer *server, GSocket *socket, GError **error);
void CSoup_server_disconnect(CSoupServer *server);

const char *CSoup_method(CSoupMessage *message);
const char *CSoup_request_header(CSoupMessage *message, const char *name);
/* The request's body, collected whole by libsoup; its length in `length`. */
const char *CSoup_request_body(CSoupMessage *message, gsize *length);
/* The request's body is read and dropped as it comes, not kept (called before it is read). */
void CSoup_discard_body(CSoupMessage *message);
/* The descriptor of the request's connection, or -1. */
int CSoup_socket_fd(CSoupMessage *message);
void CSoup_pause(CSoupMessage *message);
void CSoup_unpause(CSoupMessage *message);
void CSoup_set_status(CSoupMessage *message, guint status, const char *reason);
void CSoup_set_header(CSoupMessage *message, const char *name, const char *value);
/* The whole answer: its type and a copy of its bytes. */
void CSoup_set_response(
    CSoupMessage *message, const char *type, const void *body, gsize length);
/* A chunked answer, written as `CSoup_append` adds to it. */
void CSoup_set_chunked(CSoupMessage *message);
void CSoup_append(CSoupMessage *message, const void *data, gsize length);

#endif
