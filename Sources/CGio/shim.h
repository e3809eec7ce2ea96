#include <gio/gio.h>
#include <glib-unix.h>

/* g_signal_connect is a macro, not visible to Swift; these static inline shims stand in for
 * it, each typed for the one signal it connects. */
typedef void (*CGio_object_callback)(gpointer object, gpointer data);

/* libsoup's server message "finished": the answer went out, or the connection closed first. */
static inline gulong CGio_on_finished(
    gpointer message, CGio_object_callback callback, gpointer data) {
  return g_signal_connect_data(message, "finished", G_CALLBACK(callback), data, NULL, 0);
}

typedef void (*CGio_monitor_callback)(
    GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data);

static inline gulong CGio_on_changed(
    GFileMonitor *monitor, CGio_monitor_callback callback, gpointer data) {
  return g_signal_connect_data(monitor, "changed", G_CALLBACK(callback), data, NULL, 0);
}
