/* Pango's font matching, on the thread that asks for it.
 *
 * Pango 1.50 (PangoFcFontMap) starts two threads for every font pattern it has not seen:
 * "[pango] FcFontSetMatch" and "[pango] FcFontSetSort", each running one fontconfig call
 * whose result the caller then waits for as soon as it lays out text. fonti-batch gives
 * every item a font map of its own (a family costs the same whatever is installed), so every
 * item's five or so patterns are new: about eleven threads a family, each created, scheduled,
 * given a stack and torn down for a few microseconds of work. On the everyday run of 252
 * families that makes 2,700 threads, a tenth of the run's wall time.
 *
 * This definition of g_thread_new, in the executable, comes before GLib's for every library
 * of the process (ELF symbol interposition). Those two threads run their function here, on
 * the calling thread, and hand back a reference to the calling thread, which Pango only
 * unrefs. It is safe because Pango holds no lock when it starts them (pango_fc_patterns_new
 * creates the pattern's mutex and condition, starts the threads, then records the pattern)
 * and each function only computes, stores its result under the pattern's mutex and signals.
 * Every other thread, Pango's "[pango] FcInit" among them (started with a lock held), is
 * GLib's as before. A Pango whose threads have other names is left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <glib.h>

#include "CPangoMatch.h"

static unsigned long inlined;

static int runs_inline(const gchar *name) {
  return name != NULL && (strcmp(name, "[pango] FcFontSetMatch") == 0 ||
                          strcmp(name, "[pango] FcFontSetSort") == 0);
}

GThread *g_thread_new(const gchar *name, GThreadFunc func, gpointer data) {
  if (runs_inline(name)) {
    __atomic_add_fetch(&inlined, 1, __ATOMIC_RELAXED);
    func(data);
    return g_thread_ref(g_thread_self());
  }
  static GThread *(*glib)(const gchar *, GThreadFunc, gpointer);
  GThread *(*next)(const gchar *, GThreadFunc, gpointer) =
      __atomic_load_n(&glib, __ATOMIC_ACQUIRE);
  if (next == NULL) {
    next = (GThread * (*)(const gchar *, GThreadFunc, gpointer)) dlsym(RTLD_NEXT, "g_thread_new");
    if (next == NULL) g_error("g_thread_new: GLib's own cannot be found: %s", dlerror());
    __atomic_store_n(&glib, next, __ATOMIC_RELEASE);
  }
  return next(name, func, data);
}

unsigned long CPangoMatch_inlined(void) { return __atomic_load_n(&inlined, __ATOMIC_RELAXED); }
