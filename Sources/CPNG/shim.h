#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>

/* Writes an opaque image held as cairo ARGB32 rows (little-endian B,G,R,X in memory) as an
   8-bit RGB PNG. libpng reports errors by longjmp, which must never cross Swift frames, so the
   whole libpng conversation happens inside this C function. Returns 0 on success, -1 on failure
   (errno may tell why). level: zlib level 0-9; filters: 0 for none, 1 for adaptive. The file is
   flushed and fsynced before it is closed. */
static inline int CPNG_write_bgrx(const char *path, const unsigned char *pixels, int width,
                                  int height, int stride, int level, int adaptive_filters) {
  FILE *fp = fopen(path, "wb");
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
    fclose(fp);
    return -1;
  }
  png_init_io(png, fp);
  png_set_compression_level(png, level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, adaptive_filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  png_set_bgr(png);
  png_set_filler(png, 0, PNG_FILLER_AFTER);
  for (int y = 0; y < height; y++) {
    png_write_row(png, (png_const_bytep)(pixels + (size_t)y * (size_t)stride));
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  if (fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
    fclose(fp);
    return -1;
  }
  return fclose(fp) == 0 ? 0 : -1;
}
