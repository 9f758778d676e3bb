/* fclib_check.c: the FCLIB side of the convert tests, through libfclib itself.
 *   fclib_check local FILE    writes a hand-made local problem (one 2D contact):
 *                             W = [2 0; 0 1], q = [-1; 0.5], mu = 0.3
 *                             => z = (0.5, -0.15): w_n = 0, w_t = 0.35 >= 0 at the lower bound
 *   fclib_check global FILE   writes a global problem (one 2D contact): M = 2 I, H = I,
 *                             f = [-1; 1], w = 0, mu = 0.3, so A = I/2, q = [-0.5; 0.5]
 *                             => z = (1, -0.3): w_n = 0, w_t = 0.35 >= 0 at the lower bound
 *   fclib_check compare FILE INSTANCE
 *                             reads FILE with libfclib and checks, number for number, that W,
 *                             q and mu are the instance's A, q and friction bounds (rows in
 *                             the same order; the instance written by `lcpbench convert').
 * Exit 0 when it holds; one line on stderr otherwise. */
#include "lcp.h"

#include <fclib.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fclib_matrix *dense(int m, int n, const double *a) /* compressed columns */
{
    struct fclib_matrix *M = calloc(1, sizeof *M);
    M->m = m;
    M->n = n;
    M->nz = -1;
    M->p = calloc((size_t)n + 1, sizeof *M->p);
    M->i = malloc((size_t)m * n * sizeof *M->i);
    M->x = malloc((size_t)m * n * sizeof *M->x);
    int e = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++)
            if (a[i * n + j] != 0) {
                M->i[e] = i;
                M->x[e++] = a[i * n + j];
            }
        M->p[j + 1] = e;
    }
    M->nzmax = e;
    return M;
}

static void drop(struct fclib_matrix *M)
{
    if (!M) return;
    free(M->p);
    free(M->i);
    free(M->x);
    free(M);
}

static struct fclib_info info = {(char *)"lcpbench test", (char *)"hand-made", (char *)"-"};

static int write_local(const char *path)
{
    double W[] = {2, 0, 0, 1}, q[] = {-1, 0.5}, mu[] = {0.3};
    struct fclib_local L = {0};
    L.W = dense(2, 2, W);
    L.q = q;
    L.mu = mu;
    L.spacedim = 2;
    L.info = &info;
    int ok = fclib_write_local(&L, path);
    drop(L.W);
    return !ok;
}

static int write_global(const char *path)
{
    double M[] = {2, 0, 0, 2}, H[] = {1, 0, 0, 1}, f[] = {-1, 1}, w[] = {0, 0}, mu[] = {0.3};
    struct fclib_global G = {0};
    G.M = dense(2, 2, M);
    G.H = dense(2, 2, H);
    G.f = f;
    G.w = w;
    G.mu = mu;
    G.spacedim = 2;
    G.info = &info;
    int ok = fclib_write_global(&G, path);
    drop(G.M);
    drop(G.H);
    return !ok;
}

static int compare(const char *path, const char *dir)
{
    lcp_problem P;
    char msg[4400];
    lcp_problem_init(&P);
    if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    struct fclib_local *L = fclib_read_local(path);
    int m = P.m, bad = !L || !L->W || L->W->m != m || L->W->n != m || L->W->nz != -1;
    double *a = calloc((size_t)m * m, sizeof *a);
    for (int j = 0; !bad && j < m; j++)
        for (int k = L->W->p[j]; k < L->W->p[j + 1]; k++)
            a[(size_t)L->W->i[k] * m + j] = L->W->x[k];
    for (int i = 0; !bad && i < m; i++) {
        for (int k = P.A.p[i]; k < P.A.p[i + 1]; k++) a[(size_t)i * m + P.A.j[k]] -= P.A.x[k];
        if (L->q[i] != P.q[i]) bad = 2;
        if (P.findex && P.findex[i] >= 0 && L->mu[i / L->spacedim] != P.hi[i]) bad = 3;
    }
    for (size_t e = 0; !bad && e < (size_t)m * m; e++)
        if (a[e] != 0) bad = 4;
    if (bad) fprintf(stderr, "%s and %s differ (%d)\n", path, dir, bad);
    free(a);
    if (L) fclib_delete_local(L); /* the contents; the struct is ours */
    free(L);
    lcp_problem_free(&P);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "local")) return write_local(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "global")) return write_global(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "compare")) return compare(argv[2], argv[3]);
    fprintf(stderr, "usage: fclib_check local|global FILE | compare FILE INSTANCE\n");
    return 2;
}
