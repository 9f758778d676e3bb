/* test_transversal.c: the modal analysis, the alternative steppers and the jitter metrics of
 * problems/transversal.h, as TAP (README "Transversal stability").
 *
 *   hessian/...     K~ with lambda = e_j against central differences of J (relative 1e-7),
 *                   2D and 3D, anchored and two-body links, random configurations
 *   stiffness/...   K~ symmetric; a link's block annihilates its direction n
 *   three-ways/...  restricted = full space = Francu's E K on straight strings (1e-12)
 *   pendulum/...    omega^2 = g/L hanging at rest and 3g/L under the bottom tension 3 m g
 *   towed/...       every eigenvalue against the fixed-free beaded string (N = 1..100, 1e-10);
 *                   in 3D every eigenvalue comes twice; the numbers (omega_max
 *                   63.06 rad/s, h_crit 31.72 ms)
 *   scaling/...     omega^2 proportional to F, 1/m and 1/L (1e-12)
 *   basis/...       ||J L||, ||L^T L - I|| <= 1e-14; a duplicated row drops the rank by one
 *   split/...       E_T + E_C = KE (1e-14); E_T against the projector
 *                   I - Minv J^T (J Minv J^T)^-1 J computed with a Cholesky solve
 */
#include "transversal.h"
#include "tap.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static int make(prob_world *W, const char *scene, const char *const *kv)
{
    const prob_scene *s = prob_scene_find(scene);
    prob_params P;
    char msg[512];
    if (!s) return -1;
    prob_params_default(s, &P);
    for (; kv && *kv; kv++)
        if (prob_params_set(&P, *kv, msg, sizeof msg) != LCP_OK) {
            tap_diag("%s: %s", scene, msg);
            return -1;
        }
    if (prob_world_create(W, s, &P, msg, sizeof msg) != LCP_OK) {
        tap_diag("%s: %s", scene, msg);
        return -1;
    }
    return 0;
}

static uint64_t rng_state = 12345;
static double urand(void) /* [-1, 1), splitmix64 */
{
    uint64_t x = (rng_state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return 2.0 * ((double)(x >> 11) * 0x1.0p-53) - 1.0;
}

/* ---- Hessian of psi against central differences of J -------------------------------- */

static void test_hessian(int dim)
{
    prob_world W;
    double zero[3] = {0, 0, 0}, anchor[3] = {0.3, -0.2, dim == 3 ? 0.1 : 0.0};
    prob_world_init(&W, dim, 2);
    for (int k = 0; k < 2; k++) {
        double p[3] = {urand(), urand(), dim == 3 ? urand() : 0.0};
        double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        prob_body_set(&W, k, p, 1.0 + k, I3, 1.0);
    }
    prob_add_joint(&W, 0, -1, zero, anchor, 1.0);   /* anchored */
    prob_add_joint(&W, 1, 0, zero, zero, 1.0);      /* two-body */
    int n = dim * 2, m = 2;
    double K[36], Jp[12], Jm[12], lam[2], pos[6], worst = 0.0;
    for (int j = 0; j < m; j++) {
        lam[0] = j == 0, lam[1] = j == 1;
        prob_modal_stiffness(&W, NULL, lam, K);
        for (int c = 0; c < n; c++) {
            double hstep = 1e-6;
            memcpy(pos, W.pos, sizeof pos);
            pos[3 * (c / dim) + c % dim] += hstep;
            prob_modal_jacobian(&W, pos, Jp, NULL);
            pos[3 * (c / dim) + c % dim] -= 2 * hstep;
            prob_modal_jacobian(&W, pos, Jm, NULL);
            for (int r = 0; r < n; r++) {
                double fd = (Jp[j + m * r] - Jm[j + m * r]) / (2 * hstep); /* dJ_jr/dq_c */
                double err = fabs(fd - K[r + n * c]) / fmax(1.0, fabs(K[r + n * c]));
                worst = fmax(worst, err);
            }
        }
    }
    ok(worst <= 1e-7, "hessian/%dd: K~ (lambda = e_j) equals central differences of J, "
       "anchored and two-body (worst %.2g)", dim, worst);
    lam[0] = -2.5, lam[1] = 1.5;
    prob_modal_stiffness(&W, NULL, lam, K);
    double asym = 0.0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) asym = fmax(asym, fabs(K[r + n * c] - K[c + n * r]));
    ok(asym == 0.0, "stiffness/%dd: K~ is symmetric", dim);
    /* a single two-body link: its block annihilates n on both bodies */
    lam[0] = 0.0, lam[1] = -3.0;
    prob_modal_stiffness(&W, NULL, lam, K);
    double J[12], l[2], kn = 0.0;
    prob_modal_jacobian(&W, NULL, J, l);
    for (int r = 0; r < n; r++) {
        double s = 0.0;
        for (int c = 0; c < n; c++) s += K[r + n * c] * J[1 + m * c];  /* K~ J_1^T */
        kn = fmax(kn, fabs(s));
    }
    ok(kn <= 1e-14, "stiffness/%dd: a link's block annihilates its direction (%.2g)", dim, kn);
    prob_world_free(&W);
}

/* ---- analytic spectra ---------------------------------------------------------------- */

static double towed_omega2(int N, int k, double F, double m, double L)
{
    double s = sin((2 * k - 1) * PI / (2.0 * (2 * N + 1)));
    return 4.0 * F / (m * L) * s * s;
}

static void test_towed(void)
{
    static const int Ns[] = {1, 2, 5, 20, 100};
    for (size_t t = 0; t < sizeof Ns / sizeof Ns[0]; t++) {
        int N = Ns[t];
        char nkv[32];
        snprintf(nkv, sizeof nkv, "n=%d", N);
        const char *kv[] = {nkv, "pert=0", NULL};
        prob_world W;
        if (make(&W, "towed", kv)) {
            ok(0, "towed/n%d: scene", N);
            continue;
        }
        prob_modal R;
        char msg[256];
        lcp_status st = prob_modal_compute(&W, NULL, PROB_MODAL_ALL, &R, msg, sizeof msg);
        double worst = 0.0;
        int count_ok = st == LCP_OK && R.nt == N;
        for (int k = 1; count_ok && k <= N; k++) {
            double want = towed_omega2(N, k, 10.0, 0.1, 0.1);  /* ascending in k */
            worst = fmax(worst, fabs(R.omega2[k - 1] - want) / want);
        }
        ok(count_ok && worst <= 1e-10,
           "towed/n%d: the %d eigenvalues match (4F/(mL)) sin^2((2k-1)pi/(2(2N+1))) (worst "
           "relative %.2g)", N, N, worst);
        if (st == LCP_OK)
            ok(R.spread <= 1e-12, "three-ways/towed-n%d: restricted %.15g, full %.15g, E K "
               "%.15g agree (spread %.2g)", N, R.omega_restricted, R.omega_full, R.omega_ek,
               R.spread);
        if (N == 20 && st == LCP_OK) {
            ok_close(R.omega_restricted, 63.06, 5e-5, "towed/n20: omega_max = 63.06 rad/s "
                     "(got %.4f)", R.omega_restricted);
            ok_close(R.h_crit * 1e3, 31.72, 2e-4, "towed/n20: h_crit = 31.72 ms to the issue's "
                     "two decimals (got %.4f)",
                     R.h_crit * 1e3);
        }
        prob_modal_free(&R);
        prob_world_free(&W);
    }
    /* 3D: every eigenvalue twice */
    const char *kv3[] = {"n=20", "dim=3", "pert=0", NULL};
    prob_world W;
    prob_modal R;
    int good = make(&W, "towed", kv3) == 0 &&
               prob_modal_compute(&W, NULL, 0, &R, NULL, 0) == LCP_OK && R.nt == 40;
    double worst = 0.0;
    for (int k = 1; good && k <= 20; k++) {
        double want = towed_omega2(20, k, 10.0, 0.1, 0.1);
        worst = fmax(worst, fmax(fabs(R.omega2[2 * k - 2] - want), fabs(R.omega2[2 * k - 1] - want)) / want);
    }
    ok(good && worst <= 1e-10, "towed/3d-n20: 40 eigenvalues, each analytic value twice "
       "(worst %.2g)", worst);
    if (good) prob_modal_free(&R);
    prob_world_free(&W);
}

static void test_pendulum(void)
{
    const char *rest[] = {"angle=0", NULL};
    prob_world W;
    prob_modal R;
    double g = 9.80665;
    int good = make(&W, "pendulum", rest) == 0 &&
               prob_modal_compute(&W, NULL, PROB_MODAL_ALL, &R, NULL, 0) == LCP_OK;
    ok(good && R.nt == 1, "pendulum/rest: one transversal dof");
    if (good) {
        ok_close(R.omega2[0], g / 1.0, 1e-12, "pendulum/rest: omega^2 = g/L (%.15g)",
                 R.omega2[0]);
        ok(R.spread <= 1e-12, "three-ways/pendulum: the three forms agree");
        prob_modal_free(&R);
        double lam = -3.0 * 0.1 * g;                   /* at the bottom: tension 3 m g */
        good = prob_modal_compute(&W, &lam, 0, &R, NULL, 0) == LCP_OK;
        ok(good && fabs(R.omega2[0] - 3.0 * g) <= 1e-12 * 3.0 * g,
           "pendulum/bottom: omega^2 = 3g/L under the tension 3 m g (%.15g)",
           good ? R.omega2[0] : NAN);
        if (good) prob_modal_free(&R);
    }
    prob_world_free(&W);
}

static void test_scaling(void)
{
    const char *base[] = {"n=7", "pert=0", NULL};
    const char *kF[] = {"n=7", "pert=0", "F=30", NULL};
    const char *km[] = {"n=7", "pert=0", "m=0.4", NULL};
    const char *kL[] = {"n=7", "pert=0", "len=0.5", NULL};
    const char *const *sets[] = {base, kF, km, kL};
    double ratio_want[] = {1.0, 3.0, 0.25, 0.2};
    const char *what[] = {"", "F", "1/m", "1/L"};
    double w0[7];
    for (int s = 0; s < 4; s++) {
        prob_world W;
        prob_modal R;
        if (make(&W, "towed", sets[s]) || prob_modal_compute(&W, NULL, 0, &R, NULL, 0)) {
            ok(0, "scaling/%s", what[s]);
            continue;
        }
        double worst = 0.0;
        for (int k = 0; k < 7; k++) {
            if (s == 0) w0[k] = R.omega2[k];
            else worst = fmax(worst, fabs(R.omega2[k] / w0[k] - ratio_want[s]) / ratio_want[s]);
        }
        if (s > 0)
            ok(worst <= 1e-12, "scaling/%s: omega^2 scales as %s (worst %.2g)", what[s],
               what[s], worst);
        prob_modal_free(&R);
        prob_world_free(&W);
    }
}

/* ---- basis and energy split -------------------------------------------------------- */

static void test_basis(void)
{
    const char *kv[] = {"n=10", "pert=0.3", "dim=3", NULL};  /* a crooked 3D string */
    prob_world W;
    if (make(&W, "towed", kv)) {
        ok(0, "basis/scene");
        return;
    }
    int m = W.nj, n = 3 * W.nb, r = 0;
    double *J = calloc((size_t)(m + 1) * n, sizeof(double));
    double *L = calloc((size_t)n * n, sizeof(double));
    prob_modal_jacobian(&W, NULL, J, NULL);
    lcp_status st = prob_modal_basis(m, n, J, L, &r);
    double jl = 0.0, orth = 0.0;
    for (int c = 0; st == LCP_OK && c < n - r; c++) {
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int i = 0; i < n; i++) s += J[j + m * i] * L[i + n * c];
            jl = fmax(jl, fabs(s));
        }
        for (int c2 = 0; c2 < n - r; c2++) {
            double s = 0.0;
            for (int i = 0; i < n; i++) s += L[i + n * c] * L[i + n * c2];
            orth = fmax(orth, fabs(s - (c == c2)));
        }
    }
    ok(st == LCP_OK && r == m, "basis/rank: J of a 10-link string has rank 10 (%d)", r);
    ok(jl <= 1e-14, "basis/JL: ||J L||_max = %.2g <= 1e-14", jl);
    ok(orth <= 1e-14, "basis/orthonormal: ||L^T L - I||_max = %.2g <= 1e-14", orth);
    /* duplicate row 3 as an 11th row */
    double *J2 = calloc((size_t)(m + 1) * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) J2[j + (m + 1) * i] = J[j + m * i];
        J2[m + (m + 1) * i] = J[3 + m * i];
    }
    st = prob_modal_basis(m + 1, n, J2, L, &r);
    ok(st == LCP_OK && r == m, "basis/duplicate-row: 11 rows with one repeated have rank 10 "
       "(%d)", r);
    free(J);
    free(J2);
    free(L);
    prob_world_free(&W);
}

/* E_T by the projector I - Minv J^T (J Minv J^T)^-1 J (Cholesky), independent of the QR */
static double et_projector(const prob_world *W)
{
    int dim = W->dim, n = dim * W->nb, m = W->nj;
    double *J = calloc((size_t)m * n, sizeof(double)), *A = calloc((size_t)m * m, sizeof(double));
    double *b = calloc((size_t)m, sizeof(double)), *v = calloc((size_t)n, sizeof(double));
    prob_modal_jacobian(W, NULL, J, NULL);
    for (int k = 0; k < W->nb; k++)
        for (int i = 0; i < dim; i++) v[dim * k + i] = W->vel[W->ndof * k + i];
    for (int r = 0; r < m; r++) {
        for (int c = 0; c < m; c++) {
            double s = 0.0;
            for (int i = 0; i < n; i++) s += J[r + m * i] * J[c + m * i] / W->mass[i / dim];
            A[r + m * c] = s;                                      /* J Minv J^T */
        }
        double s = 0.0;
        for (int i = 0; i < n; i++) s += J[r + m * i] * v[i];
        b[r] = s;                                                  /* J v */
    }
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', m, 1, A, m, b, m);
    double et = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int r = 0; r < m; r++) s += J[r + m * i] * b[r];
        double u = v[i] - s / W->mass[i / dim];                    /* P_T v */
        et += 0.5 * W->mass[i / dim] * u * u;
    }
    free(J), free(A), free(b), free(v);
    return et;
}

static void test_split(void)
{
    const char *kv[] = {"n=12", "ratio=10", "amp=0.4", "pert=0.2", NULL};
    prob_world W;
    if (make(&W, "hang", kv)) {
        ok(0, "split/scene");
        return;
    }
    for (int i = 0; i < W.nb * W.ndof; i++) W.vel[i] = urand();
    double et, ec, ke = prob_kinetic_energy(&W), rot = 0.0;
    for (int k = 0; k < W.nb; k++) rot += 0.5 * W.Ib[9 * k + 8] * W.vel[3 * k + 2] * W.vel[3 * k + 2];
    lcp_status st = prob_modal_split(&W, NULL, NULL, &et, &ec);
    ok(st == LCP_OK && fabs(et + ec - ke) <= 1e-14 * ke,
       "split/sum: E_T + E_C = KE (%.17g + %.17g vs %.17g)", et, ec, ke);
    double etp = et_projector(&W) + rot;
    ok(fabs(et - etp) <= 1e-12 * ke, "split/projector: E_T by QR equals the M-orthogonal "
       "projector's (%.17g vs %.17g)", et, etp);
    prob_world_free(&W);
}

int main(void)
{
    test_hessian(2);
    test_hessian(3);
    test_pendulum();
    test_towed();
    test_scaling();
    test_basis();
    test_split();
    return tap_done();
}
