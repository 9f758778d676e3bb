/* lcp_alloc.h: the one allocation wrapper of lcpbench, used by liblcp, problems/ and bench/.
 *
 * The wrapper lives in liblcp (csr.c) with hidden visibility: it is not part of the public
 * API (lcp.h), and the shared library does not export it.  problems/ and bench/ link the
 * static archive, which reaches it, so every allocation of the library, the scenes and the
 * harness goes through these functions, and in the test-only build (-DLCP_TCOV, below)
 * through one counter that can refuse the k-th allocation wherever it happens.  Memory made
 * here is released with lcp_free; memory made by others (getline, open_memstream, glob,
 * FCLIB's readers, CHOLMOD outside its hooks) is released by their own means.
 */
#ifndef LCP_ALLOC_H
#define LCP_ALLOC_H

#include <stddef.h>

void *lcp_malloc(size_t n, size_t size);  /* n x size bytes; NULL on overflow or failure */
void *lcp_calloc(size_t n, size_t size);  /* zeroed; NULL on overflow or failure */
/* Resize p (NULL: allocate) to n x size bytes.  NULL on overflow or failure, p then left
 * allocated and unchanged. */
void *lcp_realloc(void *p, size_t n, size_t size);
char *lcp_strdup(const char *s);          /* a copy of s; NULL on failure */
void lcp_free(void *p);                   /* accepts NULL */

#ifdef LCP_TCOV
/* Test-only allocation failure (the -DLCP_TCOV build of the library, see csr.c): after
 * lcp_tcov_arm(k) the k-th allocation and every later one fail (k <= 0: none). */
void lcp_tcov_arm(long k);
long lcp_tcov_count(void);   /* allocations asked for since the last arm */
long lcp_tcov_failed(void);  /* of them refused */
long lcp_tcov_live(void);    /* allocations not yet freed */
int lcp_tcov_refuse(void);   /* count one allocation made elsewhere; 1: refuse it */
void *lcp_tcov_malloc(size_t size);              /* the hooks given to CHOLMOD */
void *lcp_tcov_calloc(size_t n, size_t size);
void *lcp_tcov_realloc(void *p, size_t size);
void lcp_tcov_free(void *p);
#endif

#endif /* LCP_ALLOC_H */
