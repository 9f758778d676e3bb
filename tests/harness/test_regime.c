/* test_regime.c: the analysis behind amgs-regime (bench/grid/grid.h) on cases whose answers are
 * known by hand: null(J_F^T) of an isostatic column and of a disk squeezed between two
 * collinear contacts (one self-stress state, eigenvalue exactly E in A_FF), the spectral
 * radii of Gauss-Seidel and SOR on consistently ordered matrices (Young's formulas), the
 * predicted ratio on a long chain and on a captured stack, the rigid form of an instance
 * (q projected onto range(J)), the linear model from the start (sweep counts of GS, SOR and
 * amgs-I on A_FF from the warm start's error: by hand on two uncoupled rows, and against the
 * solvers' own counts on a captured stack), and the median-with-spread claims of the report
 * kit.
 */
#include "grid.h"
#include "prob.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* a problem from dense J (m x n, row-major), Minv = I, E on every row (0: none) and q */
static void make(lcp_problem *P, int m, int n, const double *J, double E, const double *q)
{
    lcp_problem_init(P);
    int ti[64], tj[64], k = 0;
    double tx[64];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (J[i * n + j] != 0) {
                ti[k] = i;
                tj[k] = j;
                tx[k++] = J[i * n + j];
            }
    lcp_csr_from_triplets(&P->J, m, n, k, ti, tj, tx);
    for (int j = 0; j < n; j++) ti[j] = tj[j] = j, tx[j] = 1.0;
    lcp_csr_from_triplets(&P->Minv, n, n, n, ti, tj, tx);
    lcp_problem_alloc_vectors(P, m);
    P->n = n;
    if (E > 0) {
        P->E = malloc((size_t)m * sizeof(double));
        for (int i = 0; i < m; i++) P->E[i] = E;
    }
    lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A);
    memcpy(P->q, q, (size_t)m * sizeof(double));
    char msg[256];
    lcp_problem_check(P, msg, sizeof msg);
}

/* tridiagonal (2, -1) of order n, column-major */
static double *tridiag(int n)
{
    double *S = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        S[(size_t)i * n + i] = 2;
        if (i + 1 < n) S[(size_t)i * n + i + 1] = S[(size_t)(i + 1) * n + i] = -1;
    }
    return S;
}

int main(void)
{
    /* isostatic column of three disks (x, y, theta each) on the floor: rows floor-0, 0-1, 1-2 */
    {
        double J[27] = {0, 1, 0, 0, 0, 0, 0, 0, 0,   /* floor pushes disk 0 up */
                        0, -1, 0, 0, 1, 0, 0, 0, 0,  /* 0 below 1 */
                        0, 0, 0, 0, -1, 0, 0, 1, 0}; /* 1 below 2 */
        double q[3] = {-3, -2, -1}, z[3] = {3, 2, 1};
        lcp_problem P;
        make(&P, 3, 9, J, 1e-4, q);
        int F[3], nf = bench_active_rows(&P, z, F);
        ok(nf == 3, "column: the three loaded rows are active (%d)", nf);
        int nn = bench_null_dim(&P, F, nf);
        ok(nn == 0, "column: null(J_F^T) = 0, no self-stress state (%d)", nn);
        lcp_problem_free(&P);
    }
    /* a disk squeezed between the floor (normal +y) and a ceiling (normal -y): rows [0 1 0]
     * and [0 -1 0], one self-stress state (1, 1), A = [[1+E, -1], [-1, 1+E]] */
    {
        const double E = 3.7e-4;
        double J[6] = {0, 1, 0, 0, -1, 0}, q[2] = {-1.5, 0.5}, z[2] = {2, 1};
        lcp_problem P;
        make(&P, 2, 3, J, E, q);
        int F[2], nf = bench_active_rows(&P, z, F);
        int nn = bench_null_dim(&P, F, nf);
        ok(nf == 2 && nn == 1, "squeezed disk: 2 active rows, 1 self-stress state (%d, %d)", nf,
           nn);
        double S[4];
        bench_dense_sub(&P, F, nf, S);
        double lmin = bench_sym_min_eig(S, 2);
        ok(fabs(lmin - E) <= 1e-15, "squeezed disk: the self-stress state's eigenvalue of A_FF "
                                    "is E (%.17g vs %.17g)", lmin, E);
        /* GS on [[1+E, -1], [-1, 1+E]]: rho = 1/(1+E)^2 (2x2: mu^2 with mu = 1/(1+E)) */
        double rho = bench_sor_radius(S, 2, NULL, 0), want = 1 / ((1 + E) * (1 + E));
        ok(fabs(rho - want) <= 1e-12, "squeezed disk: rho_GS = 1/(1+E)^2 = %.12f (%.12f)", want,
           rho);
        /* Young on this consistently ordered 2x2 (Jacobi mu = 1/(1+E)): SOR(4/3) gives
         * rho = ((omega mu + sqrt(omega^2 mu^2 - 4 (omega - 1)))/2)^2 = 1 - 4E + O(E^2), so
         * the predicted ratio is 2E/4E = 1/2: one isolated self-stress loop keeps the gain */
        bench_regime R;
        int arc = bench_regime_analyse(&P, z, 0.5, 0, &R);
        double mu = 1 / (1 + E), w = 4.0 / 3;
        double s0 = (w * mu + sqrt(w * w * mu * mu - 4 * (w - 1))) / 2;
        ok(arc == 0 && R.nnull == 1 && fabs(R.rho_gs - want) <= 1e-12 &&
               fabs(R.rho_sor - s0 * s0) <= 1e-9 && fabs(R.pred_d - 0.5) < 0.01,
           "squeezed disk: rho_GS %.9f, rho_SOR(4/3) %.9f (Young: %.9f), predicted %.4f",
           R.rho_gs, R.rho_sor, s0 * s0, R.pred_d);
        /* the rigid form: E dropped, q = (-1.5, 0.5) projected on range(J) = span (1, -1) */
        double moved;
        char msg[256];
        int rc = bench_problem_rigid(&P, &moved, msg, sizeof msg);
        ok(rc == 0 && P.E == NULL && fabs(P.q[0] + 1.0) < 1e-14 && fabs(P.q[1] - 1.0) < 1e-14,
           "rigid form: q projected onto range(J) = (-1, 1) (%.17g, %.17g)", P.q[0], P.q[1]);
        double a[4];
        bench_dense_sub(&P, F, 2, a);
        ok(a[0] == 1 && a[1] == -1 && a[3] == 1, "rigid form: A = J Minv J^T without E");
        /* E = 0: the self-stress state is an eigenvalue-1 mode of G, left out of rho */
        arc = bench_regime_analyse(&P, z, 0.5, 1, &R);
        ok(arc == 0 && R.nnull == 1 && R.rho_gs < 1e-12,
           "rigid squeezed disk: with the self-stress mode left out, GS converges at once "
           "(rho %.3g)", R.rho_gs);
        lcp_problem_free(&P);
    }
    /* Young: 2x2 [[2, 1], [1, 2]]: Jacobi mu = 1/2, rho_GS = mu^2 = 1/4; SOR(4/3) with
     * omega above omega_opt = 1.0718: rho = omega - 1 = 1/3 */
    {
        double S[4] = {2, 1, 1, 2}, om[2] = {4.0 / 3, 4.0 / 3};
        double g = bench_sor_radius(S, 2, NULL, 0), s = bench_sor_radius(S, 2, om, 0);
        ok(fabs(g - 0.25) < 1e-14, "2x2: rho_GS = 1/4 (%.17g)", g);
        ok(fabs(s - 1.0 / 3) < 1e-7, "2x2: rho_SOR(4/3) = 1/3 (%.17g)", s);
        double *T = tridiag(3);
        double om3[3] = {4.0 / 3, 4.0 / 3, 4.0 / 3};
        g = bench_sor_radius(T, 3, NULL, 0);
        s = bench_sor_radius(T, 3, om3, 0);
        ok(fabs(g - 0.5) < 1e-14, "3x3 tridiag(-1, 2, -1): rho_GS = cos^2(pi/4) = 1/2 (%.17g)",
           g);
        ok(fabs(s - 1.0 / 3) < 1e-7, "3x3: rho_SOR(4/3) = omega - 1 = 1/3 (%.17g)", s);
        double r = bench_rate_ratio(g, s);
        ok(fabs(r - log(0.5) / log(1.0 / 3)) < 1e-6, "3x3: predicted ratio log(1/2)/log(1/3) = "
                                                      "0.631 (%.6f)", r);
        free(T);
    }
    /* a long chain (tridiagonal, n = 50): mu = cos(pi/51); GS mu^2; SOR(4/3) below omega_opt:
     * sqrt(rho) = (omega mu + sqrt(omega^2 mu^2 - 4 (omega - 1)))/2; the ratio is about 1/2 */
    {
        int n = 50;
        double *T = tridiag(n), *om = malloc((size_t)n * sizeof(double)), w = 4.0 / 3;
        for (int i = 0; i < n; i++) om[i] = w;
        double mu = cos(PI / (n + 1)), s0 = (w * mu + sqrt(w * w * mu * mu - 4 * (w - 1))) / 2;
        double g = bench_sor_radius(T, n, NULL, 0), s = bench_sor_radius(T, n, om, 0);
        ok(fabs(g - mu * mu) < 1e-10, "chain of 50: rho_GS = cos^2(pi/51) (%.12f vs %.12f)", g,
           mu * mu);
        ok(fabs(s - s0 * s0) < 1e-6, "chain of 50: rho_SOR(4/3) by Young's formula (%.9f vs "
                                     "%.9f)", s, s0 * s0);
        double r = bench_rate_ratio(g, s);
        ok(r > 0.48 && r < 0.52, "chain of 50: predicted amgs-D/PGS ratio %.4f is about 1/2", r);
        /* radii within the resolution of 1: rounding, no prediction; just outside it: one */
        ok(isnan(bench_rate_ratio(1 - 2e-12, 1 - 3e-12)) && isnan(bench_rate_ratio(g, 1 - 1e-9)) &&
               isnan(bench_rate_ratio(1 - 1e-9, s)),
           "a radius within 1e-8 of 1 predicts nothing (%g, %g)", bench_rate_ratio(1 - 2e-12, 1 - 3e-12),
           bench_rate_ratio(g, 1 - 1e-9));
        double rr = bench_rate_ratio(1 - 2e-8, 1 - 4e-8);
        ok(fabs(rr - 0.5) < 1e-6, "radii 2e-8 and 4e-8 below 1: ratio 1/2 (%.9f)", rr);
        free(T);
        free(om);
    }
    /* the linear model from the start on two uncoupled rows A = diag(2, 3), e0 = (1, 0):
     * GS is exact in one sweep; SOR(4/3) maps e to -e/3, so it needs the first k with
     * 2 / 3^k <= 1e-6, k = 14; amgs-I (beta_I = 2.5, omega_0 = 4/4.5) maps e to e/9, k = 7 */
    {
        double J[4] = {sqrt(2.0), 0, 0, sqrt(3.0)}, q[2] = {-2, -3}, z[2] = {1, 1};
        double z0[2] = {2, 1};
        lcp_problem P;
        make(&P, 2, 2, J, 0, q);
        bench_regime R;
        int arc = bench_regime_analyse(&P, z, 0.5, 0, &R);
        int lrc = bench_regime_linear(&P, z, z0, 0.5, 1e-6, 1000, &R);
        ok(arc == 0 && lrc == 0 && R.nf == 2 && fabs(R.lin_r0 - 2) < 1e-12,
           "diagonal: 2 active rows, starting residual ||A_FF e0|| = 2 (%.17g)", R.lin_r0);
        ok(R.lin_gs == 1 && R.lin_sor == 14 && R.lin_i == 7,
           "diagonal: linear sweeps GS 1, SOR(4/3) 14, amgs-I 7 (%ld, %ld, %ld)", R.lin_gs,
           R.lin_sor, R.lin_i);
        ok(fabs(R.pred_lin_d - 14) < 1e-12 && fabs(R.pred_lin_i - 7) < 1e-12,
           "diagonal: predicted from the start 14 and 7 (%g, %g)", R.pred_lin_d, R.pred_lin_i);
        lrc = bench_regime_linear(&P, z, z, 0.5, 1e-6, 1000, &R);
        ok(lrc == 0 && R.lin_gs == 0 && R.lin_sor == 0 && isnan(R.pred_lin_d),
           "diagonal: started at the solution: 0 sweeps, no ratio");
        lcp_problem_free(&P);
    }
    /* a captured stack of 10 disks: isostatic, predicted 0.5 */
    {
        const char *kv[3] = {"n=10", "mu=0", "iters=200"};
        int step = 20;
        lcp_problem P;
        char msg[1024] = "";
        int rc = prob_capture_steps("stack", 3, kv, NULL, 0, 1, &step, &P, msg, sizeof msg);
        ok(rc == 0, "stack of 10: captured step 20 in memory %s", msg);
        if (rc == 0) {
            double *z = calloc((size_t)P.m, sizeof(double));
            lcp_options o;
            lcp_info info;
            lcp_options_default(&o);
            lcp_solve(lcp_solver_find("ldlt-ref"), &P, &o, z, &info);
            bench_regime R;
            bench_regime_analyse(&P, z, 0.5, 0, &R);
            ok(R.nf == 10 && R.nnull == 0, "stack of 10: 10 active rows, no self-stress state "
                                           "(%d, %d)", R.nf, R.nnull);
            ok(R.pred_d > 0.45 && R.pred_d < 0.55, "stack of 10: predicted ratio %.3f about 1/2",
               R.pred_d);
            ok(R.pred_i > 0.95 && R.pred_i < 1.05, "stack of 10: amgs-I predicted %.3f about 1",
               R.pred_i);
            /* the whole stack is active and stays so: the linear model's counts are the
             * solvers' own from the same warm start */
            int lrc = bench_regime_linear(&P, z, P.z0, 0.5, 1e-6, 100000, &R);
            int it[2] = {-1, -1};
            for (int s = 0; s < 2; s++) {
                lcp_options so;
                lcp_options_default(&so);
                so.tol = 1e-6;
                so.max_iter = 100000;
                so.warm = 1;
                if (s) so.beta = 0.5, so.gamma = 1;
                double *zs = calloc((size_t)P.m, sizeof(double));
                memcpy(zs, P.z0, (size_t)P.m * sizeof(double));
                if (lcp_solve(lcp_solver_find(s ? "amgs-D" : "pgs"), &P, &so, zs, &info) == LCP_OK)
                    it[s] = info.iterations;
                free(zs);
            }
            ok(lrc == 0 && R.lin_gs > 0 && labs(R.lin_gs - it[0]) <= 1 &&
                   labs(R.lin_sor - it[1]) <= 1,
               "stack of 10: linear model GS %ld, SOR %ld sweeps; PGS %d, amgs-D %d", R.lin_gs,
               R.lin_sor, it[0], it[1]);
            lcp_problem Q;
            ok(prob_problem_copy(&P, &Q) == LCP_OK && Q.m == P.m && Q.A.p[Q.m] == P.A.p[P.m] &&
                   !memcmp(Q.q, P.q, (size_t)P.m * sizeof(double)) && Q.z0 && Q.J.p,
               "problem copy: sizes, q, z0 and factors");
            lcp_problem_free(&Q);
            free(z);
            lcp_problem_free(&P);
        }
    }
    /* the kit: a verdict on the median of several instances, qualified by the spread */
    {
        static const bench_claim_def dx[3] = {{.id = "x", .b = {{0.4, 0.6}}},
                                              {.id = "y", .b = {{0.4, 0.6}}},
                                              {.id = "z", .b = {{0, 1}}}};
        bench_claim c, d, e;
        bench_claims_init(&c, &dx[0], 1);
        bench_claims_init(&d, &dx[1], 1);
        bench_claims_init(&e, &dx[2], 1);
        double v[5] = {0.5, 0.45, NAN, 0.7, 0.55};
        bench_claim_spread(&c, "pool", v, 5, "%.2f");
        ok(bench_claim_verdict(&c) == BENCH_QUALIFIED && c.nqual == 1 &&
               strstr(c.numbers, "median 0.53 [0.45, 0.70] (4)"),
           "spread: median 0.525 held, qualified by 0.70 outside the band (%s)", c.numbers);
        double u[3] = {0.9, 0.95, 0.5};
        bench_claim_spread(&d, "pool", u, 3, "%.2f");
        ok(bench_claim_verdict(&d) == BENCH_NOT_HELD, "spread: median 0.90 outside: did not "
                                                      "hold");
        bench_claim_spread(&e, "pool", u, 0, "%.2f");
        ok(bench_claim_verdict(&e) == BENCH_NOT_TESTED, "spread: no value: not tested");
    }
    return tap_done();
}
