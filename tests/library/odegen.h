/* odegen.h: the random problems of ODE's own Dantzig test (dTestSolveLCP in ODE's lcp.cpp),
 * with the tests' seeded generator: A = A2 A2^T with A2 uniform in [-1, 1] (n x n), x uniform
 * in [-1, 1], b = A x + U(-0.1, 0.1) (q = -b), the first nub rows unbounded, the others with
 * lo in [-1.01, -0.01] and hi in [0.01, 1.01].  Used by tests/library/test_dantzig.c and by the
 * differential test tests/library/diff_odelcp.cpp (so written in the common subset of C and C++).
 * Cost O(n^3). */
#ifndef LCP_TEST_ODEGEN_H
#define LCP_TEST_ODEGEN_H

#include "lcp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* uniform in [0, 1): splitmix64 (testprob.h's tp_unif; that header is C only) */
static inline double odegen_unif(uint64_t *s)
{
    uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return (double)((x ^ (x >> 31)) >> 11) * 0x1.0p-53;
}

static inline int odegen(lcp_problem *P, int n, int nub, uint64_t seed)
{
    uint64_t s = seed;
    size_t nn = (size_t)n * (size_t)n;
    double *A2 = (double *)malloc(nn * sizeof(double)), *A = (double *)malloc(nn * sizeof(double));
    double *x = (double *)malloc((size_t)n * sizeof(double));
    int *ti = (int *)malloc(nn * sizeof(int)), *tj = (int *)malloc(nn * sizeof(int));
    int rc = !A2 || !A || !x || !ti || !tj;
    lcp_problem_init(P);
    for (size_t k = 0; !rc && k < nn; k++) A2[k] = 2.0 * odegen_unif(&s) - 1.0;
    for (int i = 0; !rc && i < n; i++)
        for (int j = 0; j <= i; j++) {                           /* A = A2 A2^T */
            double t = 0.0;
            for (int k = 0; k < n; k++) t += A2[(size_t)i * n + k] * A2[(size_t)j * n + k];
            A[(size_t)i * n + j] = A[(size_t)j * n + i] = t;
        }
    for (int i = 0; !rc && i < n; i++) x[i] = 2.0 * odegen_unif(&s) - 1.0;
    for (size_t k = 0; !rc && k < nn; k++) {
        ti[k] = (int)(k / (size_t)n);
        tj[k] = (int)(k % (size_t)n);
    }
    if (!rc) rc = lcp_csr_from_triplets(&P->A, n, n, (int)nn, ti, tj, A) != LCP_OK ||
                  lcp_problem_alloc_vectors(P, n) != LCP_OK;
    for (int i = 0; !rc && i < n; i++) {
        double b = 0.0;
        for (int j = 0; j < n; j++) b += A[(size_t)i * n + j] * x[j];
        b += 0.2 * odegen_unif(&s) - 0.1;                            /* b = A x + U(-0.1, 0.1) */
        P->q[i] = -b;
        if (i < nub) {
            P->lo[i] = -INFINITY;
            P->hi[i] = INFINITY;
        } else {
            P->lo[i] = -odegen_unif(&s) - 0.01;
            P->hi[i] = odegen_unif(&s) + 0.01;
        }
    }
    free(A2);
    free(A);
    free(x);
    free(ti);
    free(tj);
    char msg[256];
    if (!rc && lcp_problem_check(P, msg, sizeof msg) != LCP_OK) rc = 1;
    return rc ? -1 : 0;
}

#endif
