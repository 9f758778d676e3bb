/* testprob.h: small problems for the tests, built in memory (random matrices are fine in
 * unit tests; the scenes give the real ones).
 *
 * tp_contact(): a contact-like problem with factors: nb bodies of d dof (d = 3 in 2D, 6 in
 *   3D), nc contacts between two distinct bodies, each with one normal row and `fr' friction
 *   rows (lo = -mu, hi = mu, findex = the normal row), random J rows on the two bodies'
 *   dof, Minv block diagonal (mass and a symmetric inertia block), E = eps > 0 so A is
 *   positive definite: A = J Minv J^T + diag(E).
 * tp_known(): overwrite q so that a chosen z* is the solution: rows at lo get w* > 0, rows at
 *   hi get w* < 0, free rows w* = 0; q = w* - A z*.  Only for problems without findex.
 * tp_dense(): a problem from a dense row-major matrix, no factors.
 * tp_folder_name(): the last name of a folder path (an instance's name), trailing slashes
 *   dropped.
 */
#ifndef LCP_TESTPROB_H
#define LCP_TESTPROB_H

#include "lcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t tp_next(uint64_t *s)
{
    uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static inline double tp_unif(uint64_t *s) { return (double)(tp_next(s) >> 11) * 0x1.0p-53; }

static inline int tp_contact(lcp_problem *P, int d, int nb, int nc, int fr, double mu,
                             double eps, uint64_t seed)
{
    uint64_t s = seed;
    int rows_per = 1 + fr, m = nc * rows_per, n = nb * d;
    int nzJ = m * 2 * d, nzM = nb * d * d;
    int *ti = malloc(sizeof(int) * (size_t)(nzJ + nzM)), *tj = malloc(sizeof(int) * (size_t)(nzJ + nzM));
    double *tx = malloc(sizeof(double) * (size_t)(nzJ + nzM));
    int t = 0, rc = 0;
    lcp_problem_init(P);
    for (int c = 0; c < nc; c++) {
        int b1 = (int)(tp_next(&s) % (uint64_t)nb), b2 = (int)(tp_next(&s) % (uint64_t)(nb - 1));
        if (b2 >= b1) b2++;
        for (int r = 0; r < rows_per; r++)
            for (int k = 0; k < 2 * d; k++) {
                ti[t] = c * rows_per + r;
                tj[t] = (k < d ? b1 : b2) * d + k % d;
                tx[t++] = 2.0 * tp_unif(&s) - 1.0;
            }
    }
    rc |= lcp_csr_from_triplets(&P->J, m, n, t, ti, tj, tx);
    t = 0;
    for (int b = 0; b < nb; b++) {
        double mass = 0.5 + tp_unif(&s);
        double off = 0.1 * (tp_unif(&s) - 0.5);
        for (int a = 0; a < d; a++)
            for (int c = 0; c < d; c++) {
                double v = 0.0;
                if (a == c) v = a < (d == 3 ? 2 : 3) ? 1.0 / mass : 2.0 / mass;
                else if (a >= (d == 3 ? 2 : 3) && c >= (d == 3 ? 2 : 3)) v = off;
                if (v == 0.0) continue;
                ti[t] = b * d + a;
                tj[t] = b * d + c;
                tx[t++] = v;
            }
    }
    rc |= lcp_csr_from_triplets(&P->Minv, n, n, t, ti, tj, tx);
    free(ti);
    free(tj);
    free(tx);
    P->n = n;
    rc |= lcp_problem_alloc_vectors(P, m);
    if (rc) return -1;
    P->E = malloc(sizeof(double) * (size_t)m);
    if (!P->E) return -1;
    for (int i = 0; i < m; i++) P->E[i] = eps;
    if (fr > 0) {
        P->findex = malloc(sizeof(int) * (size_t)m);
        if (!P->findex) return -1;
    }
    for (int c = 0; c < nc; c++)
        for (int r = 0; r < rows_per; r++) {
            int i = c * rows_per + r;
            if (r > 0) {
                P->lo[i] = -mu;
                P->hi[i] = mu;
            }
            if (P->findex) P->findex[i] = r == 0 ? -1 : c * rows_per;
        }
    if (lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A) != LCP_OK) return -1;
    for (int i = 0; i < m; i++) P->q[i] = 2.0 * tp_unif(&s) - 1.2;   /* mostly approaching */
    char msg[256];
    return lcp_problem_check(P, msg, sizeof msg) == LCP_OK ? 0 : -1;
}

/* q = w* - A z*; state: 0 at lo (w* > 0), 1 at hi (w* < 0, needs finite hi), 2 free */
static inline void tp_known(lcp_problem *P, double *zstar, uint64_t seed)
{
    uint64_t s = seed;
    double *w = malloc(sizeof(double) * (size_t)(P->m > 0 ? P->m : 1));
    for (int i = 0; i < P->m; i++) {
        int state = (int)(tp_next(&s) % 3);
        if (state == 1 && !isfinite(P->hi[i])) state = 2;
        if (state == 2 && !isfinite(P->lo[i]) && !isfinite(P->hi[i])) state = 2;
        if (state == 0 && !isfinite(P->lo[i])) state = 2;
        double lo = isfinite(P->lo[i]) ? P->lo[i] : -1.0;
        double hi = isfinite(P->hi[i]) ? P->hi[i] : lo + 2.0;
        if (state == 0) {
            zstar[i] = P->lo[i];
            w[i] = 0.1 + tp_unif(&s);
        } else if (state == 1) {
            zstar[i] = P->hi[i];
            w[i] = -0.1 - tp_unif(&s);
        } else {
            zstar[i] = lo + (0.1 + 0.8 * tp_unif(&s)) * (hi - lo);
            w[i] = 0.0;
        }
    }
    lcp_csr_matvec(&P->A, zstar, P->q);
    for (int i = 0; i < P->m; i++) P->q[i] = w[i] - P->q[i];
    free(w);
}

static inline int tp_dense(lcp_problem *P, int m, const double *A, const double *q,
                           const double *lo, const double *hi, const int *findex)
{
    int *ti = malloc(sizeof(int) * (size_t)(m * m + 1)), *tj = malloc(sizeof(int) * (size_t)(m * m + 1));
    double *tx = malloc(sizeof(double) * (size_t)(m * m + 1));
    int t = 0, rc = 0;
    lcp_problem_init(P);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            if (A[i * m + j] != 0.0) {
                ti[t] = i;
                tj[t] = j;
                tx[t++] = A[i * m + j];
            }
    rc |= lcp_csr_from_triplets(&P->A, m, m, t, ti, tj, tx);
    free(ti);
    free(tj);
    free(tx);
    rc |= lcp_problem_alloc_vectors(P, m);
    if (rc) return -1;
    memcpy(P->q, q, sizeof(double) * (size_t)m);
    if (lo) memcpy(P->lo, lo, sizeof(double) * (size_t)m);
    if (hi) memcpy(P->hi, hi, sizeof(double) * (size_t)m);
    if (findex) {
        P->findex = malloc(sizeof(int) * (size_t)m);
        memcpy(P->findex, findex, sizeof(int) * (size_t)m);
    }
    char msg[256];
    return lcp_problem_check(P, msg, sizeof msg) < 0 ? -1 : 0;
}

/* the last name of PATH, copied into BUF (LEN bytes) with its trailing slashes dropped */
static inline const char *tp_folder_name(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/') buf[--n] = 0;
    const char *s = strrchr(buf, '/');
    return s ? s + 1 : buf;
}

#endif
