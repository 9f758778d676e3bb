/* test_peers.c: every peer solver in the registry (the names with a peer prefix: siconos-,
 * ode-, bullet-) on hand-checked small problems, against known solutions and ldlt-ref:
 *   - A = [2 1; 1 2], q = [-5; -6]: z = [4/3; 7/3] (both rows active);
 *   - 8 random positive definite LCPs (A = B B^T + I, m = 12, q with a known solution z*);
 *   - the non-symmetric P-matrix [2 1 0; 0 2 1; 1 0 3], q = -1: z = (4, 5, 3)/13, for the
 *     peers that take non-symmetric A (the others refuse it with needs-symmetric);
 *   - a boxed row is refused (unsupported) by the peers without box support;
 *   - lcp_prepare once + two solves = lcp_solve, bit for bit (the setup is reusable).
 * Direct (pivoting) peers must hit z to 1e-10; iterative ones must reach the harness's
 * ||r||_2 <= 1e-6 with tol 1e-10 and 20000 iterations on the positive definite problems.
 * With no peer built in, the plan is "1..0 # SKIP". */
#include "lcp.h"
#include "lcp_peers.h"
#include "tap.h"
#include "testprob.h"

#include <stdlib.h>
#include <string.h>

static int is_peer(const char *n)
{
    return !strncmp(n, "siconos-", 8) || !strncmp(n, "ode-", 4) || !strncmp(n, "bullet-", 7);
}

static double zdist(const double *a, const double *b, int m)
{
    double d = 0;
    for (int i = 0; i < m; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* solve P with s; 1 when the answer is right: z within ztol of zstar when direct, else the
 * harness residual within 1e-6 */
static int solve_ok(const lcp_solver *s, const lcp_problem *P, const double *zstar,
                    double *z, lcp_status *st)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-10;
    o.max_iter = 20000;
    lcp_info info;
    *st = lcp_solve(s, P, &o, z, &info);
    if (*st < 0) return 0;
    double *w = malloc((size_t)P->m * sizeof *w);
    lcp_residuals R;
    lcp_residual(P, z, w, &R);
    free(w);
    if (s->needs & LCP_DIRECT) return *st == LCP_OK && zdist(z, zstar, P->m) <= 1e-10;
    return R.r2 <= 1e-6;
}

int main(void)
{
    int n;
    const lcp_solver *all = lcp_peer_solvers(&n), *ref = lcp_solver_find("ldlt-ref");
    int npeer = 0;
    for (int k = 0; k < n; k++) npeer += is_peer(all[k].name);
    if (!npeer) {
        printf("1..0 # SKIP no peer library built in (meson -Dpeers=enabled with "
               "libsiconos-numerics-dev)\n");
        return 0;
    }
    /* the problems */
    lcp_problem two, nonsym, boxed, rnd[8];
    double A2[] = {2, 1, 1, 2}, q2[] = {-5, -6}, z2[] = {4.0 / 3.0, 7.0 / 3.0};
    double A3[] = {2, 1, 0, 0, 2, 1, 1, 0, 3}, q3[] = {-1, -1, -1};
    double z3[] = {4.0 / 13.0, 5.0 / 13.0, 3.0 / 13.0}, hi2[] = {1, INFINITY};
    int bad = tp_dense(&two, 2, A2, q2, NULL, NULL, NULL) | tp_dense(&nonsym, 3, A3, q3, NULL,
                                                                       NULL, NULL) |
              tp_dense(&boxed, 2, A2, q2, NULL, hi2, NULL);
    enum { M = 12 };
    double zr[8][M];
    uint64_t seed = 7;
    for (int r = 0; r < 8; r++) {
        double B[M * M], A[M * M], q[M];
        for (int e = 0; e < M * M; e++) B[e] = tp_unif(&seed) - 0.5;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++) {
                double s = i == j ? 1.0 : 0.0;
                for (int k = 0; k < M; k++) s += B[i * M + k] * B[j * M + k];
                A[i * M + j] = s;
            }
        for (int i = 0; i < M; i++) q[i] = 0;
        bad |= tp_dense(&rnd[r], M, A, q, NULL, NULL, NULL);
        tp_known(&rnd[r], zr[r], 100 + (uint64_t)r);
    }
    if (bad) {
        printf("not ok 1 - test problems built\n1..1\n");
        return 1;
    }
    double z[M], z1[M];
    lcp_status st;
    {
        int good = 1;
        for (int r = 0; r < 8; r++) good &= solve_ok(ref, &rnd[r], zr[r], z, &st);
        ok(good, "ldlt-ref solves the 8 random positive definite LCPs exactly (the yardstick)");
    }
    for (int k = 0; k < n; k++) {
        const lcp_solver *s = &all[k];
        if (!is_peer(s->name)) continue;
        int enumer = !strcmp(s->name, "siconos-enum");
        int right = solve_ok(s, &two, z2, z, &st);
        ok(right, "%s/2x2: z = (4/3, 7/3) (%s)", s->name, lcp_status_str(st));
        int good = 1, r;
        for (r = 0; r < 8 && good; r++) good = solve_ok(s, &rnd[r], zr[r], z, &st);
        ok(good, "%s/random-spd-12: known z* %s (8 problems; %s)", s->name,
           s->needs & LCP_DIRECT ? "to 1e-10" : "to ||r||_2 <= 1e-6", good ? "all" :
           lcp_status_str(st));
        if (s->needs & LCP_NEEDS_SYMMETRIC) {
            lcp_info info;
            lcp_options o;
            lcp_options_default(&o);
            ok(lcp_solve(s, &nonsym, &o, z, &info) == LCP_ERR_NEEDS_SYMMETRIC,
               "%s/nonsym-3: refused with needs-symmetric", s->name);
        } else {
            right = solve_ok(s, &nonsym, z3, z, &st);
            ok(right, "%s/nonsym-3: z = (4, 5, 3)/13 (%s)", s->name, lcp_status_str(st));
        }
        if (!(s->needs & LCP_SUPPORTS_BOX)) {
            lcp_info info;
            lcp_options o;
            lcp_options_default(&o);
            ok(lcp_solve(s, &boxed, &o, z, &info) == LCP_ERR_UNSUPPORTED,
               "%s/boxed: a finite upper bound is refused (unsupported)", s->name);
        }
        if (s->setup && !enumer) {
            lcp_options o;
            lcp_options_default(&o);
            o.tol = 1e-10;
            lcp_info info;
            void *data = NULL;
            lcp_status a = lcp_solve(s, &rnd[0], &o, z, &info), b = LCP_ERR_ARG, c = LCP_ERR_ARG;
            if (lcp_prepare(s, &rnd[0], &o, &data) == LCP_OK) {
                o.prepared = data;
                b = lcp_solve(s, &rnd[0], &o, z1, &info);
                int same = !memcmp(z, z1, sizeof z);
                c = lcp_solve(s, &rnd[0], &o, z1, &info);
                same &= !memcmp(z, z1, sizeof z);
                lcp_unprepare(s, data);
                ok(same && a == b && b == c,
                   "%s/prepare: one setup, two solves = lcp_solve bit for bit", s->name);
            } else {
                ok(0, "%s/prepare: setup failed", s->name);
            }
        }
    }
    lcp_problem_free(&two);
    lcp_problem_free(&nonsym);
    lcp_problem_free(&boxed);
    for (int r = 0; r < 8; r++) lcp_problem_free(&rnd[r]);
    return tap_done();
}
