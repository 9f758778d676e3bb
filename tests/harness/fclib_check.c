/* fclib_check.c: the FCLIB side of the convert tests, through libfclib itself.
 *   fclib_check local FILE    writes a hand-made local problem (one 2D contact):
 *                             W = [2 0; 0 1], q = [-1; 0.5], mu = 0.3
 *                             => z = (0.5, -0.15): w_n = 0, w_t = 0.35 >= 0 at the lower bound
 *   fclib_check global FILE   writes a global problem (one 2D contact): M = 2 I, H = I,
 *                             f = [-1; 1], w = 0, mu = 0.3, so A = I/2, q = [-0.5; 0.5]
 *                             => z = (1, -0.3): w_n = 0, w_t = 0.35 >= 0 at the lower bound
 *   fclib_check cone FILE     writes a local problem of two 3D contacts with different mu,
 *                             a guess and the solution r of its Coulomb cone problem:
 *                             W = I (6 x 6), q = (-1, -1, -1, -2, 1, 0), mu = (0.5, 0.3);
 *                             contact 0 slides along (1, 1): r = (1, s, s), s = 0.5/sqrt(2)
 *                             (|r_T| = mu r_N, u_N = 0, u_T = -(1 - s)(1, 1) against r_T),
 *                             contact 1 along t1: r = (2, -0.6, 0).  Its box-friction LCP
 *                             (|z_t1|, |z_t2| <= mu z_N apart) has z = (1, 0.5, 0.5, 2, -0.6, 0)
 *                             instead: the cone's solution is not the box LCP's (zdiff 0.146)
 *   fclib_check mixed FILE    writes a local problem of one 2D contact and one free row
 *                             (the mixed part: V = 0, R = [1], s = [-2]) with its solution,
 *                             r = (1, -0.3) on the contact (W = I, q = (-1, 0.5), mu = 0.3)
 *                             and l = (2) on the free row: zref-cone.mtx = (1, -0.3, 2)
 *   fclib_check solution FILE prints FILE's solution r, one number a line, or `none'
 *   fclib_check compare FILE INSTANCE
 *                             reads FILE with libfclib and checks, number for number, that W,
 *                             q and mu are the instance's A, q and friction bounds (rows in
 *                             the same order; the instance written by `lcpbench convert').
 * Exit 0 when it holds; one line on stderr otherwise. */
#include "lcp.h"

#include <fclib.h>
#include <hdf5.h>

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

static int write_cone(const char *path)
{
    double W[36] = {0}, q[] = {-1, -1, -1, -2, 1, 0}, mu[] = {0.5, 0.3};
    double s = 0.5 / sqrt(2.0), r[] = {1, s, s, 2, -0.6, 0}, r0[] = {1, 0, 0, 1, 0, 0};
    for (int i = 0; i < 6; i++) W[i * 6 + i] = 1;
    struct fclib_local L = {0};
    struct fclib_solution sol = {0}, guess = {0};
    L.W = dense(6, 6, W);
    L.q = q;
    L.mu = mu;
    L.spacedim = 3;
    L.info = &info;
    sol.r = r;
    guess.r = r0;
    int ok = fclib_write_local(&L, path) && fclib_write_solution(&sol, path) &&
             fclib_write_guesses(1, &guess, path);
    drop(L.W);
    return !ok;
}

static int write_mixed(const char *path)
{
    double W[] = {1, 0, 0, 1}, V[] = {0, 0}, R[] = {1}, q[] = {-1, 0.5}, sv[] = {-2};
    double mu[] = {0.3}, r[] = {1, -0.3}, l[] = {2};
    struct fclib_local L = {0};
    struct fclib_solution sol = {0};
    L.W = dense(2, 2, W);
    L.V = dense(2, 1, V);
    L.R = dense(1, 1, R);
    L.q = q;
    L.s = sv;
    L.mu = mu;
    L.spacedim = 2;
    L.info = &info;
    sol.r = r;
    sol.l = l;
    int ok = fclib_write_local(&L, path) && fclib_write_solution(&sol, path);
    drop(L.W);
    drop(L.V);
    drop(L.R);
    return !ok;
}

static int print_solution(const char *path)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        fprintf(stderr, "%s: HDF5 cannot open it\n", path);
        return 1;
    }
    int has = H5Lexists(f, "solution", H5P_DEFAULT) > 0;
    H5Fclose(f);
    if (!has) { /* libfclib ends the process when asked for an absent group */
        printf("none\n");
        return 0;
    }
    struct fclib_local *L = fclib_read_local(path);
    struct fclib_solution *s = fclib_read_solution(path);
    int bad = !L || !L->W || !s || !s->r;
    for (int i = 0; !bad && i < L->W->m; i++) printf("%.17g\n", s->r[i]);
    if (s) fclib_delete_solutions(s, 1);
    if (L) fclib_delete_local(L);
    free(L);
    if (bad) fprintf(stderr, "%s: libfclib cannot read its solution\n", path);
    return bad;
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
    if (argc == 3 && !strcmp(argv[1], "cone")) return write_cone(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "mixed")) return write_mixed(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "solution")) return print_solution(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "compare")) return compare(argv[2], argv[3]);
    fprintf(stderr, "usage: fclib_check local|global|cone|mixed|solution FILE | compare FILE "
                    "INSTANCE\n");
    return 2;
}
