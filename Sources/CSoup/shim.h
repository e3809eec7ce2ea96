#include <libsoup/soup.h>
#include <gio/gio.h>
#include <glib-unix.h>

/* Variadic constructors and g_signal_connect (a macro) are not visible to Swift; these static
 * inline shims stand in for them, each typed for the one signal it connects. */
static inline SoupServer *CSoup_server_new(void) {
  return soup_server_new("server-header", "fonti-batch", NULL);
}

typedef void (*CSoup_message_callback)(SoupServerMessage *message, gpointer data);

/* "finished": the answer went out, or the connection closed before it could. */
static inline gulong CSoup_on_finished(
    SoupServerMessage *message, CSoup_message_callback callback, gpointer data) {
  return g_signal_connect_data(message, "finished", G_CALLBACK(callback), data, NULL, 0);
}

typedef void (*CSoup_monitor_callback)(
    GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data);

static inline gulong CSoup_on_changed(
    GFileMonitor *monitor, CSoup_monitor_callback callback, gpointer data) {
  return g_signal_connect_data(monitor, "changed", G_CALLBACK(callback), data, NULL, 0);
}
