/* The C library's parts that Glibc's Swift module leaves out. */
#include <malloc.h>
