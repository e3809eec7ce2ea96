#include <png.h>
#include <zlib.h>
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

/* Writes an opaque image held as cairo ARGB32 rows (native-endian 0xXXRRGGBB words) as an
   8-bit RGB PNG. libpng reports errors by longjmp, which must never cross Swift frames, so the
   whole libpng conversation happens inside this C function. Returns 0 on success, -1 on failure
   (errno may tell why). level: zlib level 0-9; filters: 0 for none, 1 for adaptive. The file is
   flushed, and fsynced before it is closed when sync is non-zero (a run's parent process fsyncs
   the files its workers write, so that the workers never wait for the disk). */
static inline int CPNG_write_bgrx(const char *path, const unsigned char *pixels, int width,
                                  int height, int stride, int level, int adaptive_filters,
                                  int sync) {
  /* volatile: assigned between setjmp and a longjmp back to it. */
  unsigned char *volatile row = NULL;
  /* x: a new file only (never through a planted link); e: close-on-exec. */
  FILE *fp = fopen(path, "wbxe");
  if (!fp) return -1;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    fclose(fp);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    fclose(fp);
    return -1;
  }
  png_init_io(png, fp);
  png_set_compression_level(png, level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, adaptive_filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  /* B,G,R,X → R,G,B here rather than by libpng's png_set_bgr + png_set_filler, whose per-row
     transforms cost about a sixth of the whole write; the bytes are the same. */
  row = (unsigned char *)malloc((size_t)width * 3);
  if (!row) png_error(png, "out of memory");
  for (int y = 0; y < height; y++) {
    CPNG_bgrx_to_rgb(row, pixels + (size_t)y * (size_t)stride, width);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(row);
  row = NULL;
  if (fflush(fp) != 0 || (sync && fsync(fileno(fp)) != 0)) {
    fclose(fp);
    return -1;
  }
  return fclose(fp) == 0 ? 0 : -1;
}
