#ifndef CPANGOMATCH_H
#define CPANGOMATCH_H

/* How many of Pango's font-matching threads this process ran on the calling thread instead
 * (see pango_match.c): a test hook, and proof that the override is linked in. */
unsigned long CPangoMatch_inlined(void);

#endif
