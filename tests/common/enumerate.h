/* enumerate.h: the exhaustive enumeration of active sets the pivoting tests compare
 * against (tests/reference/test_ref.c, tests/library/test_dantzig.c).  For every assignment
 * of the rows to {lower, upper, free} (2^m for the standard LCP, 3^m when an upper bound is finite) solve
 * A_FF z_F = -(q_F + A_FB z_B) in the least-squares minimum-norm sense (LAPACKE_dgelsd, so
 * singular A_FF are allowed) and keep it when it is consistent and complementary (1e-9
 * max(1, |q|_inf)).  Cost O(3^m m^3): m <= 12.  Friction coupling (findex) is not applied. */
#ifndef LCP_TEST_ENUMERATE_H
#define LCP_TEST_ENUMERATE_H

#include "lcp.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exhaustive enumeration of active sets.  Returns the number of solutions found (the first
 * one in z); states per row: 2 (lo/free) or 3 when any upper bound is finite. */
static inline int enumerate(const lcp_problem *P, double *z)
{
    int m = P->m, nsol = 0, three = 0;
    for (int i = 0; i < m; i++)
        if (isfinite(P->hi[i])) three = 1;
    int base = three ? 3 : 2;
    long total = 1;
    for (int i = 0; i < m; i++) total *= base;
    double *Ad = calloc((size_t)(m * m), sizeof(double));
    double *M = malloc(sizeof(double) * (size_t)(m * m + 1));
    double *b = malloc(sizeof(double) * (size_t)(m + 1)), *zt = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)m), *sv = malloc(sizeof(double) * (size_t)(m + 1));
    int *F = malloc(sizeof(int) * (size_t)(m + 1)), *s = malloc(sizeof(int) * (size_t)m);
    for (int i = 0; i < m; i++)
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) Ad[i * m + P->A.j[k]] = P->A.x[k];
    double qs = 1.0;
    for (int i = 0; i < m; i++) qs = fmax(qs, fabs(P->q[i]));
    for (long c = 0; c < total; c++) {
        long cc = c;
        int nf = 0, okp = 1;
        for (int i = 0; i < m; i++) {
            s[i] = (int)(cc % base); /* 0 lo, 1 free, 2 hi */
            cc /= base;
            if (s[i] == 0 && !isfinite(P->lo[i])) okp = 0;
            if (s[i] == 2 && !isfinite(P->hi[i])) okp = 0;
            if (s[i] == 1) F[nf++] = i;
            zt[i] = s[i] == 0 ? P->lo[i] : (s[i] == 2 ? P->hi[i] : 0.0);
        }
        if (!okp) continue;
        if (nf > 0) {
            for (int a = 0; a < nf; a++) {
                double r = P->q[F[a]];
                for (int j = 0; j < m; j++)
                    if (s[j] != 1) r += Ad[F[a] * m + j] * zt[j];
                b[a] = -r;
                for (int c2 = 0; c2 < nf; c2++) M[c2 * nf + a] = Ad[F[a] * m + F[c2]];
            }
            lapack_int rank;
            if (LAPACKE_dgelsd(LAPACK_COL_MAJOR, nf, nf, 1, M, nf, b, nf, sv, 1e-12, &rank) != 0)
                continue;
            for (int a = 0; a < nf; a++) zt[F[a]] = b[a];
        }
        for (int i = 0; i < m; i++) {
            double r = P->q[i];
            for (int j = 0; j < m; j++) r += Ad[i * m + j] * zt[j];
            w[i] = r;
        }
        double tol = 1e-9 * qs;
        for (int i = 0; i < m && okp; i++) {
            if (s[i] == 1)
                okp = fabs(w[i]) <= tol && zt[i] >= P->lo[i] - tol && zt[i] <= P->hi[i] + tol;
            else if (s[i] == 0) okp = w[i] >= -tol;
            else okp = w[i] <= tol;
        }
        if (!okp) continue;
        if (nsol == 0) memcpy(z, zt, sizeof(double) * (size_t)m);
        nsol++;
    }
    free(Ad);
    free(M);
    free(b);
    free(zt);
    free(w);
    free(sv);
    free(F);
    free(s);
    return nsol;
}

#endif
