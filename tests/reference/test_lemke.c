/* test_lemke.c: `lemke-ref' (Lemke's method, reference/lemke_ref.c) and ldlt-ref's use of it
 * for non-symmetric A.  One named TAP line per property (lemke/...).
 *
 * - non-symmetric P-matrix LCPs (m <= 8, many seeds): the unique solution by enumeration of
 *   the 2^m complementary bases, and lemke-ref's answer within 1e-10 of it;
 * - infeasible LCPs with copositive-plus M: ray termination (no-solution-found), the ray
 *   checked point by point (feasible, complementary for t >= 0) and its direction a Farkas
 *   certificate (y >= 0, M^T y <= 0, q^T y < 0);
 * - degenerate LCPs (q with ties and zeros, integer matrices) where the lexicographic rule
 *   decides, still the enumerated answer;
 * - boxed non-symmetric problems (known answer) and friction coupling (findex) through
 *   ldlt-ref's rounds; ldlt-ref dispatching to Lemke when A is not symmetric;
 * - the size cap;
 * - the sparse basis (lemke_lcp_sparse): the same path, pivot for pivot, as the dense one.
 * `test_lemke --bench M' times a dense non-symmetric M-row LCP (the benchmark).
 */
#include "lemke_ref.h"
#include "ldlt_ref.h"
#include "tap.h"
#include "testprob.h"

#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double inf_norm(const double *v, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(v[i]));
    return s;
}

/* A random non-symmetric P-matrix: kind 0: B B^T + 0.2 I + K (K skew: the symmetric part
 * is positive definite); kind 1: lower triangular with diagonal in [0.5, 1.5] and large
 * off-diagonal entries (a P-matrix whose symmetric part is indefinite). */
static void mk_pmatrix(int m, int kind, uint64_t *s, double *M)
{
    if (kind == 0) {
        double *B = malloc(sizeof(double) * (size_t)(m * m));
        for (int k = 0; k < m * m; k++) B[k] = 2.0 * tp_unif(s) - 1.0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j <= i; j++) {
                double v = 0.0;
                for (int k = 0; k < m; k++) v += B[i * m + k] * B[j * m + k];
                double kk = i == j ? 0.0 : 4.0 * (2.0 * tp_unif(s) - 1.0);
                M[i * m + j] = v + kk + (i == j ? 0.2 : 0.0);
                M[j * m + i] = v - kk + (i == j ? 0.2 : 0.0);
            }
        free(B);
    } else {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++)
                M[i * m + j] = j < i ? 6.0 * (2.0 * tp_unif(s) - 1.0)
                                     : (j == i ? 0.5 + tp_unif(s) : 0.0);
    }
}

/* All complementary bases of a dense LCP: the number of distinct solutions, the first in
 * z. */
static int enumerate(int m, const double *M, const double *q, double *z)
{
    int nsol = 0, F[16];
    double S[256], b[16], x[16];
    lapack_int ipiv[16];
    for (unsigned mask = 0; mask < (1u << m); mask++) {
        int nf = 0;
        for (int i = 0; i < m; i++)
            if (mask & (1u << i)) F[nf++] = i;
        for (int a = 0; a < nf; a++) {
            for (int c = 0; c < nf; c++) S[a * nf + c] = M[F[a] * m + F[c]];
            b[a] = -q[F[a]];
        }
        if (nf > 0 && LAPACKE_dgesv(LAPACK_ROW_MAJOR, nf, 1, S, nf, ipiv, b, 1) != 0) continue;
        double zz[16] = {0};
        int okk = 1;
        for (int a = 0; a < nf; a++) {
            zz[F[a]] = x[a] = b[a];
            if (b[a] < -1e-12) okk = 0;
        }
        for (int i = 0; okk && i < m; i++) {
            double w = q[i];
            for (int j = 0; j < m; j++) w += M[i * m + j] * zz[j];
            if (!(mask & (1u << i)) && w < -1e-12) okk = 0;
        }
        if (!okk) continue;
        double d = 0.0;                             /* degenerate: one z, several bases */
        for (int i = 0; nsol > 0 && i < m; i++) d = fmax(d, fabs(zz[i] - z[i]));
        if (nsol > 0 && d <= 1e-12 * (1.0 + inf_norm(z, m))) continue;
        if (nsol == 0) memcpy(z, zz, sizeof(double) * (size_t)m);
        nsol++;
    }
    return nsol;
}

/* solve a dense problem with the registered lemke-ref */
static lcp_status solve_dense(int m, const double *M, const double *q, double *z,
                              lcp_info *info)
{
    lcp_problem P;
    if (tp_dense(&P, m, M, q, NULL, NULL, NULL) != 0) return LCP_ERR_ARG;
    lcp_options opt;
    lcp_options_default(&opt);
    lcp_status st = lcp_solve(lcp_solver_find("lemke-ref"), &P, &opt, z, info);
    lcp_problem_free(&P);
    return st;
}

static void test_pmatrix_enum(void)
{
    int agree = 0, total = 0, nonsym = 0;
    double worst = 0.0;
    for (int m = 1; m <= 8; m++)
        for (int seed = 0; seed < 40; seed++) {
            uint64_t s = 1000u * (uint64_t)m + (uint64_t)seed;
            double M[64], q[8], z[8], ze[8];
            mk_pmatrix(m, seed % 2, &s, M);
            for (int i = 0; i < m; i++) q[i] = 4.0 * tp_unif(&s) - 2.5;
            for (int i = 0; i < m && !nonsym; i++)
                for (int j = 0; j < m; j++) nonsym |= M[i * m + j] != M[j * m + i];
            int nsol = enumerate(m, M, q, ze);
            lcp_info info;
            lcp_status st = solve_dense(m, M, q, z, &info);
            double d = 0.0;
            for (int i = 0; i < m; i++) d = fmax(d, fabs(z[i] - ze[i]));
            d /= fmax(1.0, inf_norm(ze, m));
            total++;
            if (nsol == 1 && st == LCP_OK && d <= 1e-10) agree++;
            else
                tap_diag("m=%d seed %d: %d solutions, %s, |z - z_enum| %.3g", m, seed, nsol,
                         lcp_status_str(st), d);
            worst = fmax(worst, d);
        }
    ok(agree == total && nonsym, "lemke/p-matrix-agrees-with-enumeration (%d LCPs, m 1..8)",
       total);
    tap_diag("P-matrix LCPs: %d of %d agree, worst |z - z_enum| %.3g", agree, total, worst);
}

/* The ray: z(t), w(t) = M z(t) + q + z0(t) >= 0 and complementary at t = 0, 1, 10, 1e3, and
 * y = dz / ||dz|| a Farkas certificate.  Returns 1 when all hold. */
static int check_ray(int n, const double *M, const double *q, const lemke_ray *R, int farkas)
{
    double sc = fmax(1.0, inf_norm(q, n)), dn = fmax(inf_norm(R->dz, n), fabs(R->dz0));
    const double ts[] = {0.0, 1.0, 10.0, 1e3};
    if (!(dn > 0.0) || R->z0 + 1e-12 < 0.0 || R->dz0 < -1e-12) return 0;
    for (int k = 0; k < 4; k++) {
        double t = ts[k] / dn, z0 = R->z0 + t * R->dz0;
        for (int i = 0; i < n; i++) {
            double zi = R->z[i] + t * R->dz[i], wi = q[i] + z0, wr = R->w[i] + t * R->dw[i];
            for (int j = 0; j < n; j++) wi += M[i * n + j] * (R->z[j] + t * R->dz[j]);
            double tol = 1e-9 * (sc + fabs(zi) + fabs(wi));
            if (zi < -tol || wi < -tol || fabs(wi - wr) > tol || fabs(zi * wi) > tol * (1 + fabs(zi) + fabs(wi)))
                return 0;
        }
    }
    if (!farkas) return 1;
    double qy = 0.0;
    for (int i = 0; i < n; i++) {
        double y = R->dz[i] / dn, my = 0.0;
        if (y < -1e-12) return 0;
        for (int j = 0; j < n; j++) my += M[j * n + i] * R->dz[j] / dn; /* (M^T y)_i */
        if (my > 1e-9) return 0;
        qy += q[i] * y;
    }
    return qy < -1e-9;
}

static void test_rays(void)
{
    /* skew-symmetric (copositive-plus) and infeasible: w2 = -z1 - 1 < 0 */
    {
        const double M[] = {0, 1, -1, 0}, q[] = {-1, -1};
        double z[2], rz[2], rw[2], rdz[2], rdw[2];
        lemke_ray R = {rz, rw, rdz, rdw, 0, 0};
        lcp_status st = lemke_lcp(2, M, q, 0, z, &R, NULL);
        ok(st == LCP_ERR_NO_SOLUTION && check_ray(2, M, q, &R, 1),
           "lemke/skew-2x2-infeasible-ray-certified");
        lcp_info info;
        st = solve_dense(2, M, q, z, &info);
        ok(st == LCP_ERR_NO_SOLUTION && info.status == st &&
               strcmp(lcp_status_str(st), "no-solution-found") == 0,
           "lemke/registry-reports-no-solution-found");
    }
    /* M = -I, q = -1: not copositive, infeasible; the ray is still checked */
    {
        const double M[] = {-1, 0, 0, -1}, q[] = {-1, -1};
        double z[2], rz[2], rw[2], rdz[2], rdw[2];
        lemke_ray R = {rz, rw, rdz, rdw, 0, 0};
        lcp_status st = lemke_lcp(2, M, q, 0, z, &R, NULL);
        ok(st == LCP_ERR_NO_SOLUTION && check_ray(2, M, q, &R, 0), "lemke/minus-identity-ray");
    }
    /* random copositive-plus infeasible LCPs: M = K + P, K skew with row 0 <= 0, P = B B^T
     * with B's row 0 zero, q_0 < 0: w_0 = sum_j M_0j z_j + q_0 < 0 for every z >= 0 */
    int good = 0, total = 0;
    for (int n = 3; n <= 30; n += 3)
        for (int seed = 0; seed < 5; seed++) {
            uint64_t s = 77u * (uint64_t)n + (uint64_t)seed;
            double *M = calloc((size_t)(n * n), sizeof *M), *B = calloc((size_t)(n * n), sizeof *B);
            double *q = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n);
            double *buf = malloc(sizeof(double) * (size_t)(4 * n));
            for (int i = 1; i < n; i++)
                for (int k = 0; k < n / 2; k++) B[i * n + k] = 2.0 * tp_unif(&s) - 1.0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double v = 0.0;
                    for (int k = 0; k < n; k++) v += B[i * n + k] * B[j * n + k];
                    M[i * n + j] = v;
                }
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    double k = i == 0 ? -tp_unif(&s) : 2.0 * tp_unif(&s) - 1.0;
                    M[i * n + j] += k;
                    M[j * n + i] -= k;
                }
            for (int i = 0; i < n; i++) q[i] = 2.0 * tp_unif(&s) - 1.0;
            q[0] = -0.5 - tp_unif(&s);
            lemke_ray R = {buf, buf + n, buf + 2 * n, buf + 3 * n, 0, 0};
            lcp_status st = lemke_lcp(n, M, q, 0, z, &R, NULL);
            total++;
            if (st == LCP_ERR_NO_SOLUTION && check_ray(n, M, q, &R, 1)) good++;
            else tap_diag("copositive-plus n=%d seed %d: %s", n, seed, lcp_status_str(st));
            free(M);
            free(B);
            free(q);
            free(z);
            free(buf);
        }
    ok(good == total, "lemke/copositive-plus-infeasible-rays-certified (%d LCPs)", total);
}

/* Degenerate LCPs: q with equal entries and zeros, small integer matrices (ties in the
 * ratio test at almost every step); the lexicographic rule must decide them. */
static void test_degenerate(void)
{
    long ties = 0;
    int agree = 0, total = 0;
    for (int m = 2; m <= 8; m++)
        for (int seed = 0; seed < 30; seed++) {
            uint64_t s = 5000u + 100u * (uint64_t)m + (uint64_t)seed;
            double M[64], q[8], z[8], ze[8];
            for (int i = 0; i < m; i++)                 /* integer P-matrices */
                for (int j = 0; j < m; j++)
                    M[i * m + j] = i == j ? (double)(1 + tp_next(&s) % 2)
                                          : (j < i ? (double)((int)(tp_next(&s) % 5) - 2) : 0.0);
            if (seed % 2)
                for (int i = 0; i < m; i++)             /* or I + integer skew */
                    for (int j = 0; j < m; j++)
                        if (j > i) M[i * m + j] = -M[j * m + i];
            for (int i = 0; i < m; i++) q[i] = (double)((int)(tp_next(&s) % 3) - 1); /* -1, 0, 1 */
            q[tp_next(&s) % (uint64_t)m] = -1.0;
            int nsol = enumerate(m, M, q, ze);
            lemke_stats ls;
            lcp_status st = lemke_lcp(m, M, q, 0, z, NULL, &ls);
            ties += ls.ties;
            double d = 0.0;
            for (int i = 0; i < m; i++) d = fmax(d, fabs(z[i] - ze[i]));
            total++;
            if (nsol == 1 && st == LCP_OK && d <= 1e-12) agree++;
            else tap_diag("degenerate m=%d seed %d: %d solutions %s |dz| %.3g", m, seed, nsol,
                          lcp_status_str(st), d);
        }
    ok(agree == total && ties > 0, "lemke/degenerate-lexicographic-agrees (%d LCPs, %ld ties)",
       total, ties);
    /* all of q tied at the start (q = -1): every row a candidate for z0's first pivot */
    {
        const double M[] = {1, 0, 0, 2, 1, 0, 2, 2, 1}, q[] = {-1, -1, -1};
        double z[3], ze[3];
        lemke_stats ls;
        lcp_status st = lemke_lcp(3, M, q, 0, z, NULL, &ls);
        int nsol = enumerate(3, M, q, ze);
        ok(st == LCP_OK && nsol == 1 && fabs(z[0] - ze[0]) + fabs(z[1] - ze[1]) +
                                                 fabs(z[2] - ze[2]) <= 1e-14 && ls.ties > 0,
           "lemke/all-tied-start");
    }
}

/* Cycling examples: 3 x 3 LCPs (integer entries in [-2, 2], q in {-1, 0, 1}) on which Lemke's
 * method with the first tied row (the first five) or the last tied row (the other five)
 * leaving cycles for ever (found by a search over random degenerate problems; both rules
 * reached a 200-pivot cap).  The lexicographic rule ends each in a few pivots, on a
 * solution (checked by its residual) or on a ray (checked point by point). */
static void test_cycling(void)
{
    static const double Ms[10][9] = {
        {0, 1, 1, 2, -2, 1, -1, 1, 0},    {2, -2, 1, 0, 0, 2, -2, 1, -1},
        {1, 1, 2, 2, -1, -2, -1, -1, 2},  {0, 2, 0, 2, 1, 0, -1, -2, -2},
        {0, 2, 1, 2, -1, -2, -2, 0, 0},   {0, -2, -2, -1, -2, 1, 2, 1, 0},
        {0, 0, -1, 0, -2, 1, 2, 0, 0},    {-2, -1, -2, -1, -1, 2, -1, 1, -1},
        {1, 1, -2, 2, 0, 0, 1, -2, 1},    {-2, -2, -1, 0, 2, 1, 2, 1, 0}};
    static const double qs[10][3] = {{-1, -1, -1}, {-1, -1, -1}, {-1, -1, 0}, {-1, -1, 0},
                                     {-1, -1, 1},  {-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1},
                                     {-1, -1, -1}, {-1, -1, -1}};
    int good = 0, nsolved = 0;
    long ties = 0, maxpiv = 0;
    for (int k = 0; k < 10; k++) {
        double z[3], buf[12];
        lemke_ray R = {buf, buf + 3, buf + 6, buf + 9, 0, 0};
        lemke_stats ls;
        lcp_status st = lemke_lcp(3, Ms[k], qs[k], 200, z, &R, &ls);
        ties += ls.ties;
        maxpiv = ls.pivots > maxpiv ? ls.pivots : maxpiv;
        int okk = 0;
        if (st == LCP_OK) {
            double r = 0.0;
            for (int i = 0; i < 3; i++) {
                double w = qs[k][i];
                for (int j = 0; j < 3; j++) w += Ms[k][i * 3 + j] * z[j];
                r = fmax(r, fabs(z[i] - fmax(z[i] - w, 0.0)));
            }
            okk = r <= 1e-14;
            nsolved++;
        } else if (st == LCP_ERR_NO_SOLUTION) {
            okk = check_ray(3, Ms[k], qs[k], &R, 0);
        }
        if (okk && ls.pivots <= 10) good++;
        else tap_diag("cycling example %d: %s after %ld pivots", k, lcp_status_str(st), ls.pivots);
    }
    ok(good == 10 && ties >= 10, "lemke/cycling-examples-end-lexicographic (%d solved, %d rays, "
       "at most %ld pivots)", nsolved, 10 - nsolved, maxpiv);
}

/* A non-symmetric contact problem: A = J Minv J^T + E + N - N^T (N random on A's pattern,
 * so the symmetric part is positive definite: a P-matrix). */
static int mk_contact_nonsym(lcp_problem *P, int nb, int nc, double skew, uint64_t seed)
{
    if (tp_contact(P, 6, nb, nc, 2, 0.5, 1e-2, seed) != 0) return -1;
    uint64_t s = seed + 1;
    lcp_csr *A = &P->A;
    for (int i = 0; i < P->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k];
            if (j <= i) continue;
            double v = skew * (2.0 * tp_unif(&s) - 1.0) * fabs(A->x[k]);
            A->x[k] += v;                               /* a_ij += v, a_ji -= v */
            for (int t = A->p[j]; t < A->p[j + 1]; t++)
                if (A->j[t] == i) A->x[t] -= v;
        }
    lcp_csr_free(&P->J);
    lcp_csr_free(&P->Minv);
    free(P->E);
    P->E = NULL;
    P->n = 0;
    P->symmetric = 0;
    return 0;
}

static void test_boxed(void)
{
    lcp_problem P;
    lcp_info info;
    lcp_options opt;
    lcp_options_default(&opt);
    const lcp_solver *lk = lcp_solver_find("lemke-ref"), *ld = lcp_solver_find("ldlt-ref");
    /* boxes without coupling, known answer */
    if (mk_contact_nonsym(&P, 20, 60, 0.5, 51) != 0) {
        ok(0, "lemke/boxed-nonsym-known (setup)");
        return;
    }
    int m = P.m;
    free(P.findex);
    P.findex = NULL;
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)m);
    tp_known(&P, zs, 52);
    int nlo = 0, nhi = 0;
    for (int i = 0; i < m; i++) {
        nlo += zs[i] == P.lo[i];
        nhi += zs[i] == P.hi[i];
    }
    lcp_status st = lcp_solve(lk, &P, &opt, z, &info);
    double d = 0.0;
    for (int i = 0; i < m; i++) d = fmax(d, fabs(z[i] - zs[i]));
    ok(st == LCP_OK && d <= 1e-10 && nlo > 0 && nhi > 0, "lemke/boxed-nonsym-known-m%d", m);
    tap_diag("boxed non-symmetric m=%d: %s, |z - z*| %.3g, pivots %ld, asymmetry %.3g", m,
             lcp_status_str(st), d, info.pivots, info.asymmetry);
    st = lcp_solve(ld, &P, &opt, z, &info);             /* ldlt-ref hands it to Lemke */
    d = 0.0;
    for (int i = 0; i < m; i++) d = fmax(d, fabs(z[i] - zs[i]));
    ok(st == LCP_OK && d <= 1e-10 && info.asymmetry > opt.sym_tol && info.factorizations == 0,
       "lemke/ldlt-ref-dispatches-nonsym-m%d", m);
    lcp_problem_free(&P);
    /* friction coupling: the frozen-bound rounds of ldlt-ref around Lemke */
    if (mk_contact_nonsym(&P, 12, 40, 0.3, 61) != 0) {
        ok(0, "lemke/findex-nonsym (setup)");
        return;
    }
    m = P.m;
    ref_options ro;
    ref_options_default(&ro);
    ro.backend = REF_LEMKE;
    ro.rescue = 0;                              /* the rounds, not PGS then Newton */
    ref_stats rs;
    st = ref_solve(&P, &opt, &ro, z, &info, &rs);
    lcp_residuals R;
    lcp_residual(&P, z, w, &R);
    int sliding = 0, sticking = 0;
    for (int i = 0; i < m; i++)
        if (P.findex[i] >= 0 && z[P.findex[i]] > 0.0) {
            double h = P.hi[i] * z[P.findex[i]];
            if (fabs(fabs(z[i]) - h) <= 1e-12 * fmax(1.0, h)) sliding++;
            else sticking++;
        }
    ok(st == LCP_OK && R.rinf <= 1e-10 * fmax(1.0, inf_norm(P.q, m)) && rs.rounds >= 2 &&
           sliding > 0 && sticking > 0,
       "lemke/findex-nonsym-rounds-m%d", m);
    tap_diag("findex non-symmetric m=%d: %s, rounds %d, pivots %ld, ||r||_inf %.3g, sliding %d "
             "sticking %d", m, lcp_status_str(st), rs.rounds, info.pivots, R.rinf, sliding,
             sticking);
    /* the default: PGS then Newton before Lemke's dense rounds, the same answer */
    ro.rescue = 1;
    double *z2 = malloc(sizeof(double) * (size_t)m), dz = 0.0;
    lcp_status st2 = ref_solve(&P, &opt, &ro, z2, &info, &rs);
    for (int i = 0; i < m; i++) dz = fmax(dz, fabs(z2[i] - z[i]));
    lcp_residual(&P, z2, w, &R);
    ok(st2 == LCP_OK && info.route && strcmp(info.route, "pgs+newton") == 0 && rs.rounds == 0 &&
           R.rinf <= 1e-10 * fmax(1.0, inf_norm(P.q, m)) && dz <= 1e-9 * fmax(1.0, inf_norm(z, m)),
       "lemke/findex-nonsym-pgs-newton-m%d", m);
    tap_diag("findex non-symmetric m=%d by %s: %s, ||r||_inf %.3g, |z - z_rounds| %.3g", m,
             info.route ? info.route : "?", lcp_status_str(st2), R.rinf, dz);
    free(z2);
    free(zs);
    free(z);
    free(w);
    lcp_problem_free(&P);
}

static void test_small(void)
{
    /* the 2 x 2 non-symmetric problem ldlt-ref used to refuse: z = (1/4, 1/2) */
    const double A[] = {2, 1, 0, 2}, q[] = {-1, -1};
    lcp_problem P;
    lcp_info info;
    double z[2];
    tp_dense(&P, 2, A, q, NULL, NULL, NULL);
    lcp_options opt;
    lcp_options_default(&opt);
    lcp_status st = lcp_solve(lcp_solver_find("ldlt-ref"), &P, &opt, z, &info);
    ok(st == LCP_OK && fabs(z[0] - 0.25) <= 1e-15 && fabs(z[1] - 0.5) <= 1e-15 &&
           info.asymmetry == 0.5,
       "lemke/ldlt-ref-solves-2x2-nonsym");
    lcp_problem_free(&P);
    /* q >= 0: z = 0 without a pivot */
    const double q2[] = {1, 0};
    lemke_stats ls;
    st = lemke_lcp(2, A, q2, 0, z, NULL, &ls);
    ok(st == LCP_OK && z[0] == 0.0 && z[1] == 0.0 && ls.pivots == 0, "lemke/q-nonnegative");
    /* the size cap */
    st = lemke_lcp(LEMKE_MAX_N + 1, A, q, 0, z, NULL, NULL);
    ok(st == LCP_ERR_TOO_LARGE, "lemke/size-cap-too-large");
}

/* A dense non-symmetric m-row LCP (P-matrix, symmetric part positive definite), about half
 * the rows active; prints the time and pivots. */
static int bench(int m)
{
    uint64_t s = 4242;
    double *M = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double *q = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++) {
            double k = 2.0 * tp_unif(&s) - 1.0, sy = 0.1 * (2.0 * tp_unif(&s) - 1.0);
            M[(size_t)i * m + j] = i == j ? 2.0 + 0.1 * m * 0.1 : sy + k;
            if (i != j) M[(size_t)j * m + i] = sy - k;
        }
    for (int i = 0; i < m; i++) q[i] = 2.0 * tp_unif(&s) - 1.0;
    struct timespec t0, t1;
    lemke_stats ls;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    lcp_status st = lemke_lcp(m, M, q, 0, z, NULL, &ls);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double t = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double r = 0.0;
    int nz = 0;
    for (int i = 0; i < m; i++) {
        double w = q[i];
        for (int j = 0; j < m; j++) w += M[(size_t)i * m + j] * z[j];
        r = fmax(r, fabs(z[i] - fmax(z[i] - w, 0.0)));
        nz += z[i] > 0.0;
    }
    printf("lemke dense m=%d: %s, %.3f s, %ld pivots, %ld reinversions, %d positive z, "
           "||r||_inf %.3g\n", m, lcp_status_str(st), t, ls.pivots, ls.reinverts, nz, r);
    free(M);
    free(q);
    free(z);
    return st == LCP_OK ? 0 : 1;
}


static long sparse_refactors; /* lemke_lcp_sparse's refactorisations, all calls */

/* M (n x n, row-major) in CSC, its zeros left out; *Mp, *Mi, *Mx allocated here */
static void to_csc(int n, const double *M, int **Mp, int **Mi, double **Mx)
{
    int nz = 0;
    for (size_t k = 0; k < (size_t)n * n; k++) nz += M[k] != 0.0;
    *Mp = malloc(sizeof(int) * (size_t)(n + 1));
    *Mi = malloc(sizeof(int) * (size_t)(nz + 1));
    *Mx = malloc(sizeof(double) * (size_t)(nz + 1));
    nz = 0;
    for (int c = 0; c < n; c++) {
        (*Mp)[c] = nz;
        for (int r = 0; r < n; r++)
            if (M[(size_t)r * n + c] != 0.0) {
                (*Mi)[nz] = r;
                (*Mx)[nz++] = M[(size_t)r * n + c];
            }
    }
    (*Mp)[n] = nz;
}

/* M (n x n, zeroed by the caller) = diag in [4, 5) plus a band of 4 with a skew part (a
 * P-matrix: its symmetric part is diagonally dominant); q (when not NULL) in [-1.5, 0.5),
 * each q_i drawn after row i's band */
static void mk_banded(int n, uint64_t *s, double *M, double *q)
{
    for (int i = 0; i < n; i++) {
        M[(size_t)i * n + i] = 4.0 + tp_unif(s);
        for (int k = 1; k <= 4 && i + k < n; k++) {
            double a = tp_unif(s) - 0.5, b = 1.5 * (tp_unif(s) - 0.5);
            M[(size_t)i * n + i + k] = a + b;
            M[(size_t)(i + k) * n + i] = a - b;
        }
        if (q) q[i] = 2.0 * tp_unif(s) - 1.5;
    }
}

/* lemke_lcp_sparse (lemke_sparse.c) against lemke_lcp on one dense problem: the same status,
 * pivots and ties, and z within tol (relative to max(1, |z|)); 1 when they agree */
static int sparse_agrees(int n, const double *M, const double *q, long cap, double tol,
                         double *dz, long *piv)
{
    int *Mp, *Mi;
    double *Mx;
    to_csc(n, M, &Mp, &Mi, &Mx);
    double *z1 = malloc(sizeof(double) * (size_t)n), *z2 = malloc(sizeof(double) * (size_t)n);
    lemke_stats s1, s2;
    lcp_status a = lemke_lcp(n, M, q, cap, z1, NULL, &s1);
    lcp_status b = lemke_lcp_sparse(n, Mp, Mi, Mx, q, NULL, cap, 0.0, z2, &s2);
    double d = 0.0;
    if (a == LCP_OK && b == LCP_OK)
        for (int i = 0; i < n; i++) d = fmax(d, fabs(z1[i] - z2[i]));
    d /= fmax(1.0, inf_norm(z1, n));
    *dz = d;
    *piv = s2.pivots;
    sparse_refactors += s2.reinverts;
    int agree = a == b && s1.pivots == s2.pivots && s1.ties == s2.ties && d <= tol;
    if (!agree)
        tap_diag("sparse Lemke n=%d: dense %s %ld pivots %ld ties, sparse %s %ld pivots %ld "
                 "ties, |dz| %.3g", n, lcp_status_str(a), s1.pivots, s1.ties,
                 lcp_status_str(b), s2.pivots, s2.ties, d);
    free(Mp);
    free(Mi);
    free(Mx);
    free(z1);
    free(z2);
    return agree;
}

/* The sparse basis (lemke_sparse.c) takes Lemke's path step for step: the P-matrix and
 * degenerate families above, the cycling examples (ties and rays), and banded sparse
 * P-matrices of 200 to 600 unknowns whose paths refactor the basis many times */
static void test_sparse(void)
{
    int agree = 0, total = 0;
    double worst = 0.0, d;
    long piv, ties_seen = 0, big = 0;
    for (int m = 1; m <= 8; m++)
        for (int seed = 0; seed < 40; seed++) {
            uint64_t s = 1000u * (uint64_t)m + (uint64_t)seed;
            double M[64], q[8];
            mk_pmatrix(m, seed % 2, &s, M);
            for (int i = 0; i < m; i++) q[i] = 4.0 * tp_unif(&s) - 2.5;
            agree += sparse_agrees(m, M, q, 0, 1e-12, &d, &piv);
            worst = fmax(worst, d);
            total++;
        }
    for (int m = 2; m <= 8; m++)
        for (int seed = 0; seed < 30; seed++) {        /* degenerate: integer data, ties */
            uint64_t s = 5000u + 100u * (uint64_t)m + (uint64_t)seed;
            double M[64], q[8];
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                    M[i * m + j] = i == j ? (double)(1 + tp_next(&s) % 2)
                                          : (j < i ? (double)((int)(tp_next(&s) % 5) - 2) : 0.0);
            if (seed % 2)
                for (int i = 0; i < m; i++)
                    for (int j = 0; j < m; j++)
                        if (j > i) M[i * m + j] = -M[j * m + i];
            for (int i = 0; i < m; i++) q[i] = (double)((int)(tp_next(&s) % 3) - 1);
            q[tp_next(&s) % (uint64_t)m] = -1.0;
            lemke_stats ls;
            double zt[8];
            lemke_lcp(m, M, q, 0, zt, NULL, &ls);
            ties_seen += ls.ties;
            agree += sparse_agrees(m, M, q, 0, 1e-12, &d, &piv);
            worst = fmax(worst, d);
            total++;
        }
    ok(agree == total && ties_seen > 0, "lemke/sparse-basis-same-path-small (%d LCPs, %ld ties, "
       "worst |dz| %.2g)", total, ties_seen, worst);
    static const double Mc[9] = {0, 1, 1, 2, -2, 1, -1, 1, 0}, qc[3] = {-1, -1, -1};
    static const double Mr[4] = {-1, 0, 0, -1}, qr[2] = {-1, -1};  /* rays: no solution */
    int rc = sparse_agrees(3, Mc, qc, 200, 1e-14, &d, &piv) &
             sparse_agrees(2, Mr, qr, 0, 1e-14, &d, &piv);
    ok(rc, "lemke/sparse-basis-same-path-cycling-and-ray");
    agree = total = 0;
    worst = 0.0;
    sparse_refactors = 0;
    for (int n = 200; n <= 600; n += 200)
        for (int seed = 0; seed < 2; seed++) {         /* banded: M = B + diag, skewed band */
            uint64_t s = 77000u + (uint64_t)(n + seed);
            double *M = calloc((size_t)n * n, sizeof *M), *q = malloc(sizeof(double) * (size_t)n);
            mk_banded(n, &s, M, q);
            agree += sparse_agrees(n, M, q, 0, 1e-10, &d, &piv);
            big = piv > big ? piv : big;
            if (n == 600 && seed == 0) {                /* the cost gate: a flop budget */
                int *Mp, *Mi;
                double *Mx, *z = malloc(sizeof(double) * (size_t)n);
                to_csc(n, M, &Mp, &Mi, &Mx);
                lemke_stats full, capped;
                lcp_status a = lemke_lcp_sparse(n, Mp, Mi, Mx, q, NULL, 0, 0.0, z, &full);
                lcp_status b =
                    lemke_lcp_sparse(n, Mp, Mi, Mx, q, NULL, 0, 0.25 * full.work, z, &capped);
                ok(a == LCP_OK && b == LCP_PIVOT_CAP && capped.work > 0.25 * full.work &&
                   capped.pivots < full.pivots,
                   "lemke/sparse-work-cap (n 600: %.3g flops and %ld pivots uncapped; capped at "
                   "a quarter: %s after %ld pivots, %.3g flops)", full.work, full.pivots,
                   lcp_status_str(b), capped.pivots, capped.work);
                free(Mp);
                free(Mi);
                free(Mx);
                free(z);
            }
            worst = fmax(worst, d);
            total++;
            free(M);
            free(q);
        }
    ok(agree == total && big > 400 && sparse_refactors > 2 * total,
       "lemke/sparse-basis-same-path-banded (%d LCPs, n 200-600, up to %ld pivots, %ld "
       "refactorisations, worst |dz| %.2g)", total, big, sparse_refactors, worst);
}

/* The covering vector (lemke_lcp_sparse's d): on P-matrices every d > 0 leads to the one
 * solution, so the sparse basis with d log-uniform in [1e-6, 1] and with the cone route's d
 * (q's negative part scaled, plus 1e-6) gives lemke_lcp's z (d = 1), by other paths (the
 * pivots differ on more than a tenth of the problems: d is used); a d that is not
 * positive is refused */
static void test_cover(void)
{
    int good = 0, total = 0, other = 0;
    double worst = 0.0;
    for (int m = 1; m <= 8; m++)
        for (int seed = 0; seed < 40; seed++)
            for (int kind = 0; kind < 3; kind++) {
                int n = kind == 2 ? 200 + 50 * (seed % 5) : m;   /* banded for kind 2 */
                if (kind == 2 && m > 1) continue;
                uint64_t s = 91000u + 1000u * (uint64_t)m + (uint64_t)seed;
                size_t bytes = sizeof(double) * (size_t)n;
                double *M = calloc((size_t)n * n, sizeof *M), *q = malloc(bytes);
                double *d = malloc(bytes), *z1 = malloc(bytes), *z2 = malloc(bytes);
                if (kind < 2) mk_pmatrix(n, seed % 2, &s, M);
                else mk_banded(n, &s, M, NULL);
                double qs = 1.0;
                for (int i = 0; i < n; i++) {
                    q[i] = 4.0 * tp_unif(&s) - 2.5;
                    qs = fmax(qs, fabs(q[i]));
                }
                for (int i = 0; i < n; i++)
                    d[i] = kind == 0 ? pow(10.0, -6.0 * tp_unif(&s))
                                     : (q[i] < 0.0 ? -q[i] / qs : 0.0) + 1e-6;
                int *Mp, *Mi;
                double *Mx;
                to_csc(n, M, &Mp, &Mi, &Mx);
                lemke_stats s1, s2;
                lcp_status a = lemke_lcp(n, M, q, 0, z1, NULL, &s1);
                lcp_status b = lemke_lcp_sparse(n, Mp, Mi, Mx, q, d, 0, 0.0, z2, &s2);
                double dz = 0.0;
                for (int i = 0; a == LCP_OK && b == LCP_OK && i < n; i++)
                    dz = fmax(dz, fabs(z1[i] - z2[i]));
                dz /= fmax(1.0, inf_norm(z1, n));
                worst = fmax(worst, dz);
                int agree = a == LCP_OK && b == LCP_OK && dz <= 1e-10;
                if (!agree)
                    tap_diag("cover n=%d kind %d: dense %s, sparse with d %s, |dz| %.3g", n, kind,
                             lcp_status_str(a), lcp_status_str(b), dz);
                good += agree;
                other += s1.pivots != s2.pivots;                /* d took another path */
                total++;
                if (m == 3 && seed == 0 && kind == 0) {            /* refused: d not > 0 */
                    d[1] = 0.0;
                    lcp_status c = lemke_lcp_sparse(n, Mp, Mi, Mx, q, d, 0, 0.0, z2, &s2);
                    d[1] = -1.0;
                    lcp_status e = lemke_lcp_sparse(n, Mp, Mi, Mx, q, d, 0, 0.0, z2, &s2);
                    ok(c == LCP_ERR_ARG && e == LCP_ERR_ARG,
                       "lemke/sparse-cover-refused (d_k = 0 and d_k < 0: %s, %s)",
                       lcp_status_str(c), lcp_status_str(e));
                }
                free(Mp);
                free(Mi);
                free(Mx);
                free(M);
                free(q);
                free(d);
                free(z1);
                free(z2);
            }
    ok(good == total && other > total / 10,
       "lemke/sparse-cover (%d P-matrix LCPs, random and q's covering vectors: lemke_lcp's z, "
       "worst |dz| %.2g; another number of pivots than d = 1 on %d)", total, worst, other);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--bench") == 0) return bench(atoi(argv[2]));
    test_small();
    test_pmatrix_enum();
    test_rays();
    test_degenerate();
    test_cycling();
    test_boxed();
    test_sparse();
    test_cover();
    return tap_done();
}
