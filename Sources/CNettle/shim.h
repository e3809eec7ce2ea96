/* Nettle's SHA-256: the checksums of manifest.json and the fingerprints of what each output
   is made from. Debian's build picks the CPU's SHA instructions at run time where it has them. */
#include <nettle/sha2.h>
