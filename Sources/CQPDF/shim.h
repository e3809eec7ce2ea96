#include <qpdf/qpdf-c.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/* qpdf's C API, loaded when first asked for rather than linked: only the step that finishes a
   PDF catalogue uses qpdf, and linking it (with gnutls, nettle, gmp, p11-kit… behind it) cost
   every process of a run about 5 ms of CPU and 4 MiB of memory at start. The header still
   gives every function its type. */
struct CQPDF_functions {
  __typeof__(&qpdf_init) _Nonnull qpdf_init;
  __typeof__(&qpdf_cleanup) _Nonnull qpdf_cleanup;
  __typeof__(&qpdf_silence_errors) _Nonnull qpdf_silence_errors;
  __typeof__(&qpdf_set_suppress_warnings) _Nonnull qpdf_set_suppress_warnings;
  __typeof__(&qpdf_set_attempt_recovery) _Nonnull qpdf_set_attempt_recovery;
  __typeof__(&qpdf_read) _Nonnull qpdf_read;
  __typeof__(&qpdf_read_memory) _Nonnull qpdf_read_memory;
  __typeof__(&qpdf_has_error) _Nonnull qpdf_has_error;
  __typeof__(&qpdf_get_error) _Nonnull qpdf_get_error;
  __typeof__(&qpdf_get_error_full_text) _Nonnull qpdf_get_error_full_text;
  __typeof__(&qpdf_more_warnings) _Nonnull qpdf_more_warnings;
  __typeof__(&qpdf_next_warning) _Nonnull qpdf_next_warning;
  __typeof__(&qpdf_get_num_pages) _Nonnull qpdf_get_num_pages;
  __typeof__(&qpdf_get_page_n) _Nonnull qpdf_get_page_n;
  __typeof__(&qpdf_get_root) _Nonnull qpdf_get_root;
  __typeof__(&qpdf_get_info_key) _Nonnull qpdf_get_info_key;
  __typeof__(&qpdf_set_info_key) _Nonnull qpdf_set_info_key;
  __typeof__(&qpdf_oh_get_key) _Nonnull qpdf_oh_get_key;
  __typeof__(&qpdf_oh_has_key) _Nonnull qpdf_oh_has_key;
  __typeof__(&qpdf_oh_remove_key) _Nonnull qpdf_oh_remove_key;
  __typeof__(&qpdf_oh_release) _Nonnull qpdf_oh_release;
  __typeof__(&qpdf_oh_is_array) _Nonnull qpdf_oh_is_array;
  __typeof__(&qpdf_oh_is_dictionary) _Nonnull qpdf_oh_is_dictionary;
  __typeof__(&qpdf_oh_is_dictionary_of_type) _Nonnull qpdf_oh_is_dictionary_of_type;
  __typeof__(&qpdf_oh_is_string) _Nonnull qpdf_oh_is_string;
  __typeof__(&qpdf_oh_get_array_n_items) _Nonnull qpdf_oh_get_array_n_items;
  __typeof__(&qpdf_oh_get_array_item) _Nonnull qpdf_oh_get_array_item;
  __typeof__(&qpdf_oh_get_numeric_value) _Nonnull qpdf_oh_get_numeric_value;
  __typeof__(&qpdf_oh_get_utf8_value) _Nonnull qpdf_oh_get_utf8_value;
  __typeof__(&qpdf_oh_replace_key) _Nonnull qpdf_oh_replace_key;
  __typeof__(&qpdf_oh_new_unicode_string) _Nonnull qpdf_oh_new_unicode_string;
  __typeof__(&qpdf_oh_new_bool) _Nonnull qpdf_oh_new_bool;
  __typeof__(&qpdf_oh_new_dictionary) _Nonnull qpdf_oh_new_dictionary;
  __typeof__(&qpdf_oh_get_name) _Nonnull qpdf_oh_get_name;
  __typeof__(&qpdf_oh_is_name) _Nonnull qpdf_oh_is_name;
  __typeof__(&qpdf_init_write) _Nonnull qpdf_init_write;
  __typeof__(&qpdf_write) _Nonnull qpdf_write;
  __typeof__(&qpdf_set_object_stream_mode) _Nonnull qpdf_set_object_stream_mode;
  __typeof__(&qpdf_set_stream_data_mode) _Nonnull qpdf_set_stream_data_mode;
  __typeof__(&qpdf_set_compress_streams) _Nonnull qpdf_set_compress_streams;
  __typeof__(&qpdf_set_preserve_unreferenced_objects) _Nonnull qpdf_set_preserve_unreferenced_objects;
  __typeof__(&qpdf_set_suppress_original_object_IDs) _Nonnull qpdf_set_suppress_original_object_IDs;
  __typeof__(&qpdf_set_deterministic_ID) _Nonnull qpdf_set_deterministic_ID;
  __typeof__(&qpdf_check_pdf) _Nonnull qpdf_check_pdf;
};

/* The loaded functions and why loading failed. Kept as a function's static (the Swift compiler
   emits those of the functions it calls, and no variable of a header). */
struct CQPDF_state {
  pthread_once_t once;
  struct CQPDF_functions functions;
  const char *failure;
};

static inline struct CQPDF_state *CQPDF_state(void) {
  static struct CQPDF_state state = {PTHREAD_ONCE_INIT};
  return &state;
}

static void CQPDF_load_once(void) {
  struct CQPDF_state *state = CQPDF_state();
  /* The library this build was compiled against (the name its -dev package links to), then
     any, by its development name. */
  void *library = dlopen("libqpdf.so.29", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) library = dlopen("libqpdf.so", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    state->failure = why != NULL ? why : "libqpdf.so.29 cannot be loaded";
    return;
  }
#define CQPDF_SYMBOL(name)                                                      \
  {                                                                             \
    void *address = dlsym(library, "qpdf_" #name);                             \
    if (address == NULL) {                                                     \
      state->failure = "libqpdf lacks qpdf_" #name;                             \
      return;                                                                  \
    }                                                                          \
    *(void **)&state->functions.qpdf_##name = address;                                    \
  }
  CQPDF_SYMBOL(init)
  CQPDF_SYMBOL(cleanup)
  CQPDF_SYMBOL(silence_errors)
  CQPDF_SYMBOL(set_suppress_warnings)
  CQPDF_SYMBOL(set_attempt_recovery)
  CQPDF_SYMBOL(read)
  CQPDF_SYMBOL(read_memory)
  CQPDF_SYMBOL(has_error)
  CQPDF_SYMBOL(get_error)
  CQPDF_SYMBOL(get_error_full_text)
  CQPDF_SYMBOL(more_warnings)
  CQPDF_SYMBOL(next_warning)
  CQPDF_SYMBOL(get_num_pages)
  CQPDF_SYMBOL(get_page_n)
  CQPDF_SYMBOL(get_root)
  CQPDF_SYMBOL(get_info_key)
  CQPDF_SYMBOL(set_info_key)
  CQPDF_SYMBOL(oh_get_key)
  CQPDF_SYMBOL(oh_has_key)
  CQPDF_SYMBOL(oh_remove_key)
  CQPDF_SYMBOL(oh_release)
  CQPDF_SYMBOL(oh_is_array)
  CQPDF_SYMBOL(oh_is_dictionary)
  CQPDF_SYMBOL(oh_is_dictionary_of_type)
  CQPDF_SYMBOL(oh_is_string)
  CQPDF_SYMBOL(oh_get_array_n_items)
  CQPDF_SYMBOL(oh_get_array_item)
  CQPDF_SYMBOL(oh_get_numeric_value)
  CQPDF_SYMBOL(oh_get_utf8_value)
  CQPDF_SYMBOL(oh_replace_key)
  CQPDF_SYMBOL(oh_new_unicode_string)
  CQPDF_SYMBOL(oh_new_bool)
  CQPDF_SYMBOL(oh_new_dictionary)
  CQPDF_SYMBOL(oh_get_name)
  CQPDF_SYMBOL(oh_is_name)
  CQPDF_SYMBOL(init_write)
  CQPDF_SYMBOL(write)
  CQPDF_SYMBOL(set_object_stream_mode)
  CQPDF_SYMBOL(set_stream_data_mode)
  CQPDF_SYMBOL(set_compress_streams)
  CQPDF_SYMBOL(set_preserve_unreferenced_objects)
  CQPDF_SYMBOL(set_suppress_original_object_IDs)
  CQPDF_SYMBOL(set_deterministic_ID)
  CQPDF_SYMBOL(check_pdf)
#undef CQPDF_SYMBOL
}

/* qpdf's functions, loaded once (thread-safe); NULL when the library cannot be loaded, with
   the reason in CQPDF_load_failure(). */
static inline const struct CQPDF_functions *CQPDF_functions(void) {
  struct CQPDF_state *state = CQPDF_state();
  pthread_once(&state->once, CQPDF_load_once);
  return state->failure == NULL ? &state->functions : NULL;
}

static inline const char *CQPDF_load_failure(void) {
  struct CQPDF_state *state = CQPDF_state();
  pthread_once(&state->once, CQPDF_load_once);
  return state->failure;
}
