#include <png.h>
#include <zlib.h>
#include <isa-l/igzip_lib.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One row of cairo ARGB32 pixels (native-endian 0xXXRRGGBB words) as packed R,G,B bytes. */
static inline void CPNG_bgrx_to_rgb(unsigned char *restrict rgb, const unsigned char *restrict bgrx,
                                    int width) {
  int x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* Four pixels at a time: byte-swapped and shifted, a word holds R,G,B in memory order, and
     three stores write the twelve bytes. About twice as fast as byte by byte. */
  for (; x + 4 <= width; x += 4) {
    uint32_t p[4];
    memcpy(p, bgrx + 4 * (size_t)x, sizeof p);
    uint32_t q0 = __builtin_bswap32(p[0]) >> 8, q1 = __builtin_bswap32(p[1]) >> 8;
    uint32_t q2 = __builtin_bswap32(p[2]) >> 8, q3 = __builtin_bswap32(p[3]) >> 8;
    uint32_t w[3] = {q0 | q1 << 24, q1 >> 8 | q2 << 16, q2 >> 16 | q3 << 8};
    memcpy(rgb + 3 * (size_t)x, w, sizeof w);
  }
#endif
  for (; x < width; x++) {
    uint32_t v;
    memcpy(&v, bgrx + 4 * (size_t)x, sizeof v);
    rgb[3 * x] = (unsigned char)(v >> 16);
    rgb[3 * x + 1] = (unsigned char)(v >> 8);
    rgb[3 * x + 2] = (unsigned char)v;
  }
}

/* ---- Images whose rows repeat: each run of equal rows compressed once per thread ----------

   A specimen is mostly background: about two rows in three equal the row above them, and zlib
   spends as long on those as on the text (level 1: 4.6 ms for a blank 1080 px image, 6 ms for a
   specimen). The image's zlib stream is therefore put together from raw deflate segments, as
   pigz does: rows that differ from the row above go through one deflate stream (ISA-L's, see
   below); a run of at
   least CPNG_SHORTEST_CACHED_RUN equal rows is written as segments of 2^j copies of its row,
   each compressed once per thread by zlib against that row as its dictionary and reused for
   every later run of the same row, in this image and the next. Every segment ends with a sync
   flush (byte-aligned, not final), and refers to nothing before the one row it repeats, which
   is always the last row of the data before it, so the segments join into one valid stream.
   The 2-byte zlib header and the Adler-32 of the rows (combined by zlib's adler32_combine)
   frame it. zlib and ISA-L do all the compressing; the pixels decoded are the same as ever. */

typedef struct {
  unsigned char *data;
  size_t length, capacity;
} CPNG_buffer;

static inline int CPNG_buffer_reserve(CPNG_buffer *buffer, size_t more) {
  if (buffer->capacity - buffer->length >= more) return 0;
  size_t capacity = buffer->capacity ? buffer->capacity : 65536;
  while (capacity - buffer->length < more) {
    if (capacity > SIZE_MAX / 2) return -1;
    capacity *= 2;
  }
  unsigned char *data = (unsigned char *)realloc(buffer->data, capacity);
  if (!data) return -1;
  buffer->data = data;
  buffer->capacity = capacity;
  return 0;
}

static inline int CPNG_buffer_append(CPNG_buffer *buffer, const unsigned char *bytes, size_t count) {
  if (CPNG_buffer_reserve(buffer, count) != 0) return -1;
  memcpy(buffer->data + buffer->length, bytes, count);
  buffer->length += count;
  return 0;
}

/* Deflates the stream's input with `flush`, appending all the output to `buffer`. */
static inline int CPNG_deflate_into(z_stream *z, CPNG_buffer *buffer, int flush) {
  for (;;) {
    if (CPNG_buffer_reserve(buffer, 16384) != 0) return -1;
    size_t room = buffer->capacity - buffer->length;
    if (room > UINT32_MAX) room = UINT32_MAX;
    z->next_out = buffer->data + buffer->length;
    z->avail_out = (uInt)room;
    int rc = deflate(z, flush);
    buffer->length += room - z->avail_out;
    if (rc == Z_STREAM_END) return 0;
    if (rc != Z_OK && rc != Z_BUF_ERROR) return -1;
    if (z->avail_in == 0 && z->avail_out != 0) return 0;
  }
}

enum { CPNG_SHORTEST_CACHED_RUN = 16, CPNG_CACHED_ROWS = 4, CPNG_RUN_SEGMENTS = 31 };

/* One row's run segments: segment[j] holds 2^j copies of the row, compressed against it. */
typedef struct {
  unsigned char *row; /* filter byte + R,G,B; NULL: an empty entry */
  size_t length;
  int level;
  unsigned long used; /* for evicting the least recently used entry */
  CPNG_buffer segment[CPNG_RUN_SEGMENTS];
  uLong adler[CPNG_RUN_SEGMENTS]; /* Adler-32 of each segment's uncompressed bytes */
} CPNG_run_rows;

typedef struct {
  CPNG_run_rows entry[CPNG_CACHED_ROWS];
  unsigned long clock;
} CPNG_run_cache;

/* This thread's cache: a worker draws its specimens one after the other on one thread. */
static inline CPNG_run_cache *CPNG_thread_run_cache(void) {
  static __thread CPNG_run_cache cache;
  return &cache;
}

static inline void CPNG_run_rows_clear(CPNG_run_rows *rows) {
  free(rows->row);
  for (int j = 0; j < CPNG_RUN_SEGMENTS; j++) free(rows->segment[j].data);
  memset(rows, 0, sizeof *rows);
}

/* The cache entry of `row`, made (evicting the least recently used) when missing; NULL when out
   of memory. */
static inline CPNG_run_rows *CPNG_run_rows_for(const unsigned char *row, size_t length, int level) {
  CPNG_run_cache *cache = CPNG_thread_run_cache();
  CPNG_run_rows *found = NULL, *oldest = &cache->entry[0];
  for (int i = 0; i < CPNG_CACHED_ROWS && !found; i++) {
    CPNG_run_rows *rows = &cache->entry[i];
    if (rows->row && rows->length == length && rows->level == level &&
        memcmp(rows->row, row, length) == 0)
      found = rows;
    else if (!rows->row || (oldest->row && rows->used < oldest->used))
      oldest = rows;
  }
  if (!found) {
    CPNG_run_rows_clear(oldest);
    oldest->row = (unsigned char *)malloc(length);
    if (!oldest->row) return NULL;
    memcpy(oldest->row, row, length);
    oldest->length = length;
    oldest->level = level;
    found = oldest;
  }
  found->used = ++cache->clock;
  return found;
}

/* Appends segment j of `rows` (2^j copies of its row) to `out`, compressing it on first use. */
static inline int CPNG_append_run_segment(CPNG_run_rows *rows, int j, CPNG_buffer *out,
                                          uLong *adler) {
  CPNG_buffer *segment = &rows->segment[j];
  if (!segment->data) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, rows->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    int failed = deflateSetDictionary(&z, rows->row, (uInt)rows->length) != Z_OK;
    uLong one = adler32(1, rows->row, (uInt)rows->length), sum = 1;
    for (size_t i = 0; !failed && i < ((size_t)1 << j); i++) {
      z.next_in = rows->row;
      z.avail_in = (uInt)rows->length;
      failed = CPNG_deflate_into(&z, segment, Z_NO_FLUSH) != 0;
      sum = adler32_combine(sum, one, (z_off_t)rows->length);
    }
    if (!failed) failed = CPNG_deflate_into(&z, segment, Z_SYNC_FLUSH) != 0;
    deflateEnd(&z);
    if (failed) {
      free(segment->data);
      memset(segment, 0, sizeof *segment);
      return -1;
    }
    rows->adler[j] = sum;
  }
  if (CPNG_buffer_append(out, segment->data, segment->length) != 0) return -1;
  *adler = adler32_combine(*adler, rows->adler[j], (z_off_t)(rows->length << j));
  return 0;
}

/* ---- The rows that do not repeat: ISA-L's deflate ------------------------------------------

   The rows that differ from the row above (a specimen's text, about 400 of 1080) go through
   ISA-L's igzip at its level 1 rather than zlib's: 1.0 ms an image instead of 2.8 for the same
   rows, 2 % more bytes. Its Adler-32 is vectorised too (0.1 ms an image against zlib's 0.5).
   igzip's output depends only on its input, level and flush points, never on how the output
   buffer is sized; it is the same on every x86-64 processor with SSE4.2 (docs/performance.md).
   The stream's state (about 260 KiB with its level buffer) is made once per thread and reused. */

typedef struct {
  struct isal_zstream stream;
  unsigned char level_buffer[ISAL_DEF_LVL1_DEFAULT];
} CPNG_isal;

/* This thread's igzip state, ready for a new raw deflate stream at level 1; NULL when out of
   memory. */
static inline struct isal_zstream *CPNG_isal_stream(void) {
  static __thread CPNG_isal *state;
  if (!state) state = (CPNG_isal *)malloc(sizeof *state);
  if (!state) return NULL;
  struct isal_zstream *z = &state->stream;
  isal_deflate_init(z);
  z->level = 1;
  z->level_buf = state->level_buffer;
  z->level_buf_size = sizeof state->level_buffer;
  z->gzip_flag = IGZIP_DEFLATE;
  return z;
}

/* Deflates the stream's input with `flush` (NO_FLUSH, SYNC_FLUSH; with end_of_stream set, the
   final block), appending all the output to `buffer`. */
static inline int CPNG_isal_deflate_into(struct isal_zstream *z, CPNG_buffer *buffer, int flush) {
  z->flush = (uint16_t)flush;
  for (;;) {
    if (CPNG_buffer_reserve(buffer, 65536) != 0) return -1;
    size_t room = buffer->capacity - buffer->length;
    if (room > UINT32_MAX) room = UINT32_MAX;
    z->next_out = buffer->data + buffer->length;
    z->avail_out = (uint32_t)room;
    int rc = isal_deflate(z);
    buffer->length += room - z->avail_out;
    if (rc != COMP_OK) return -1;
    if (z->avail_in == 0 && z->avail_out != 0) return 0;
  }
}

/* The zlib stream of an image's rows for PNG filter 0 (none): each row a zero byte then R,G,B,
   from cairo ARGB32 rows. `level`: zlib's, for the runs of equal rows. Returns 0, or -1 when out
   of memory or compression fails. */
static inline int CPNG_compress_rows(const unsigned char *pixels, int width, int height,
                                     int stride, int level, CPNG_buffer *out) {
  size_t length = (size_t)width * 3 + 1, source_length = (size_t)width * 4;
  if (length > UINT32_MAX / 2) return -1;
  unsigned char *row = (unsigned char *)malloc(length);
  struct isal_zstream *z = CPNG_isal_stream();
  if (!row || !z) {
    free(row);
    return -1;
  }
  static const unsigned char header[2] = {0x78, 0x01}; /* deflate, 32 KiB window, "fastest" */
  int failed = CPNG_buffer_append(out, header, sizeof header) != 0;
  uLong adler = 1;
  int stale = 0; /* the stream's history misses the runs written since its last row */
  row[0] = 0;
  for (int y = 0; !failed && y < height;) {
    const unsigned char *source = pixels + (size_t)y * (size_t)stride;
    int run = 0; /* rows from y on equal to row y - 1, which `row` holds */
    while (y > 0 && y + run < height &&
           memcmp(source + (size_t)run * (size_t)stride, source - stride, source_length) == 0)
      run++;
    if (run >= CPNG_SHORTEST_CACHED_RUN) {
      failed = CPNG_isal_deflate_into(z, out, SYNC_FLUSH) != 0;
      CPNG_run_rows *rows = failed ? NULL : CPNG_run_rows_for(row, length, level);
      failed = !rows;
      for (int j = CPNG_RUN_SEGMENTS - 1; !failed && j >= 0; j--)
        if ((unsigned)run & (1u << j)) failed = CPNG_append_run_segment(rows, j, out, &adler) != 0;
      y += run;
      stale = 1;
      continue;
    }
    if (stale) {
      /* Start again from the last row: the stream must not refer to data it did not write.
         (isal_deflate_reset keeps the level and its buffer.) */
      isal_deflate_reset(z);
      failed = isal_deflate_set_dict(z, row, (uint32_t)length) != COMP_OK;
      stale = 0;
    }
    int count = run > 0 ? run : 1;
    for (int i = 0; !failed && i < count; i++, y++) {
      if (run == 0) CPNG_bgrx_to_rgb(row + 1, pixels + (size_t)y * (size_t)stride, width);
      adler = isal_adler32((uint32_t)adler, row, length);
      z->next_in = row;
      z->avail_in = (uint32_t)length;
      failed = CPNG_isal_deflate_into(z, out, NO_FLUSH) != 0;
    }
  }
  z->end_of_stream = 1;
  if (!failed) failed = CPNG_isal_deflate_into(z, out, NO_FLUSH) != 0;
  free(row);
  unsigned char trailer[4] = {(unsigned char)(adler >> 24), (unsigned char)(adler >> 16),
                              (unsigned char)(adler >> 8), (unsigned char)adler};
  if (!failed) failed = CPNG_buffer_append(out, trailer, sizeof trailer) != 0;
  return failed ? -1 : 0;
}

/* Writes an opaque image held as cairo ARGB32 rows (native-endian 0xXXRRGGBB words) as an
   8-bit RGB PNG to the open stream fp, which it leaves open. libpng reports errors by longjmp,
   which must never cross Swift frames, so the whole libpng conversation happens inside this C
   function. Returns 0 on success, -1 on failure (errno may tell why). level: zlib level 0-9;
   filters: 0 for none (the rows compressed by CPNG_compress_rows, written as the IDAT chunk), 1
   for adaptive (libpng filters and compresses each row). */
static inline int CPNG_write_bgrx_stream(FILE *fp, const unsigned char *pixels, int width,
                                         int height, int stride, int level,
                                         int adaptive_filters) {
  /* Compressed before libpng starts: nothing below setjmp assigns it. */
  CPNG_buffer idat = {NULL, 0, 0};
  if (!adaptive_filters && CPNG_compress_rows(pixels, width, height, stride, level, &idat) != 0) {
    free(idat.data);
    errno = ENOMEM;
    return -1;
  }
  /* volatile: assigned between setjmp and a longjmp back to it. */
  unsigned char *volatile row = NULL;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    free(idat.data);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    free(idat.data);
    return -1;
  }
  png_init_io(png, fp);
  png_set_compression_level(png, level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, adaptive_filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  if (!adaptive_filters) {
    /* IDAT chunks of at most 1 MiB, then IEND: libpng frames them and writes their CRCs. */
    for (size_t at = 0; at < idat.length; at += (size_t)1 << 20) {
      size_t count = idat.length - at < (size_t)1 << 20 ? idat.length - at : (size_t)1 << 20;
      png_write_chunk(png, (png_const_bytep) "IDAT", idat.data + at, count);
    }
    png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
  } else {
    /* B,G,R,X → R,G,B here rather than by libpng's png_set_bgr + png_set_filler, whose per-row
       transforms cost about a sixth of the whole write; the bytes are the same. */
    row = (unsigned char *)malloc((size_t)width * 3);
    if (!row) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) {
      CPNG_bgrx_to_rgb(row, pixels + (size_t)y * (size_t)stride, width);
      png_write_row(png, row);
    }
    png_write_end(png, info);
  }
  png_destroy_write_struct(&png, &info);
  free(row);
  row = NULL;
  free(idat.data);
  return fflush(fp) == 0 ? 0 : -1;
}

/* CPNG_write_bgrx_stream to a new file at path (never through a planted link: it must not
   exist). The file is flushed, and fsynced before it is closed when sync is non-zero (a run's
   parent process fsyncs the files its workers write, so that the workers never wait for the
   disk). */
static inline int CPNG_write_bgrx(const char *path, const unsigned char *pixels, int width,
                                  int height, int stride, int level, int adaptive_filters,
                                  int sync) {
  /* x: a new file only; e: close-on-exec. */
  FILE *fp = fopen(path, "wbxe");
  if (!fp) return -1;
  if (CPNG_write_bgrx_stream(fp, pixels, width, height, stride, level, adaptive_filters) != 0 ||
      (sync && fsync(fileno(fp)) != 0)) {
    int saved = errno;
    fclose(fp);
    errno = saved;
    return -1;
  }
  return fclose(fp) == 0 ? 0 : -1;
}

/* CPNG_write_bgrx_stream into memory: on success *bytes (for the caller to free) holds *length
   bytes. */
static inline int CPNG_encode_bgrx(const unsigned char *pixels, int width, int height, int stride,
                                   int level, int adaptive_filters, unsigned char **bytes,
                                   size_t *length) {
  char *buffer = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&buffer, &size);
  if (!fp) return -1;
  int failed =
      CPNG_write_bgrx_stream(fp, pixels, width, height, stride, level, adaptive_filters) != 0;
  /* The buffer and its size are final once the stream is closed. */
  if (fclose(fp) != 0) failed = 1;
  if (failed) {
    free(buffer);
    return -1;
  }
  *bytes = (unsigned char *)buffer;
  *length = size;
  return 0;
}
