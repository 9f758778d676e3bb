/* io_internal.h: what the files of the instance reader and writer share, and nothing else
 * of liblcp sees:
 *   decimal.c   a decimal token to the correctly rounded double (lcp_fast_decimal);
 *   io.c        the instance folder and its Matrix Market files.
 */
#ifndef LCP_IO_INTERNAL_H
#define LCP_IO_INTERNAL_H

#include "lcp.h"

#include <stddef.h>

/* ---- decimal.c ------------------------------------------------------------------------ */
/* The decimal token [+-]digits[.digits][(e|E)[+-]digits] at s (the text ends at end) to the
 * correctly rounded double *v, *endp after it: 1, or 0 to leave the token to strtod (more
 * than 19 significant digits, an exponent out of the exact range, inf, nan, hex). */
int lcp_fast_decimal(const char *s, const char *end, const char **endp, double *v);

#endif /* LCP_IO_INTERNAL_H */
