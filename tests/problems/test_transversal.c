/* test_transversal.c: the modal analysis, the alternative steppers and the jitter metrics of
 * problems/transversal.h, as TAP (problems/README.md, "Transversal stability").
 *
 *   hessian/...     K~ with lambda = e_j against central differences of J (relative 1e-7),
 *                   2D and 3D, anchored and two-body links, random configurations
 *   stiffness/...   K~ symmetric; a link's block annihilates its direction n
 *   three-ways/...  restricted = full space = Francu's E K on straight strings (1e-12)
 *   pendulum/...    omega^2 = g/L hanging at rest and 3g/L under the bottom tension 3 m g
 *   towed/...       every eigenvalue against the fixed-free beaded string (N = 1..100, 1e-10);
 *                   in 3D every eigenvalue comes twice; the issue's numbers (omega_max
 *                   63.06 rad/s, h_crit 31.72 ms)
 *   scaling/...     omega^2 proportional to F, 1/m and 1/L (1e-12)
 *   basis/...       ||J L||, ||L^T L - I|| <= 1e-14; a duplicated row drops the rank by one
 *   split/...       E_T + E_C = KE (1e-14); E_T against the projector
 *                   I - Minv J^T (J Minv J^T)^-1 J computed with a Cholesky solve
 *   nyquist/...     a period-2 sequence gives E_nyq = its kinetic energy; a sinusoid
 *                   sampled 100 times per period gives E_nyq / KE <= 2e-6
 *   stepper/...     pbd makes an anchored link exact in one projection; xpbd with alpha 0
 *                   is pbd bit for bit; xpbd's static stretch is alpha F (1%); fp converges
 *                   quadratically; gsd with zero tension is vts (1e-14); ivts with rhs spook
 *                   on a radially moving anchored link is vts (1e-12); ivts's refresh and
 *                   Schur options; a world with contacts is refused with one line naming why
 *   linear/...      VTS on towed: the top mode grows by |mu|^2 per step (1%) at 1.25 h_crit
 *                   and stays within a factor 2 over 1000 steps at 0.9 h_crit
 *   issue/...       towed N=20: bounded at 31.5 ms, 1.307x per step at 32.0 ms (1.3067
 *                   predicted); hang ratio 100: h_crit 9.53 ms, onset in (9.4, 9.7) ms and
 *                   within 2% of h_crit (bisection to 0.25%)
 *   determinism/... two runs of the same seeded scene are bit-identical
 *   3d/...          the 3D towed string grows as predicted at 1.25 h_crit
 *   claims/...      the sources' statements on our numbers: implicit VTS quiet where VTS
 *                   jitters (1.07 h_crit); diagonal geometric stiffness quiet on mass ratio
 *                   1e4 at h = 1/60 and 0.1 with stretch <= 1%; full geometric stiffness quiet
 *                   at 10 h_crit; SHAKE explodes at 2 h_crit; ivts with beta 0.6 survives the
 *                   thread, 0.65 explodes with a link reversed within the iteration; VTS keeps
 *                   its swing (amplitude ratio >= 0.95 over 10 s), gsd loses it (<= 0.5);
 *                   cold-started PGS jitters at 0.95 h_crit with 5 sweeps, not with 100
 */
#include "transversal.h"
#include "makeworld.h"
#include "tap.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;


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


/* ---- Nyquist energy ------------------------------------------------------------------- */

static void test_nyquist(void)
{
    const char *kv[] = {"n=5", NULL};
    prob_world W;
    if (make(&W, "towed", kv)) {
        ok(0, "nyquist/scene");
        return;
    }
    int n = 2 * W.nb;
    double a[10], u[3][10], ke = 0.0;
    for (int i = 0; i < n; i++) {
        a[i] = urand();
        ke += 0.5 * W.mass[i / 2] * a[i] * a[i];
    }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++) u[k][i] = (k % 2 ? -1.0 : 1.0) * a[i];   /* (-1)^k a */
    double e = prob_jitter_nyquist(&W, u[0], u[1], u[2]);
    ok(fabs(e - ke) <= 1e-15 * ke, "nyquist/period-2: E_nyq = 1/2 a^T M a (%.17g vs %.17g)",
       e, ke);
    double worst = 0.0;
    for (int k = 1; k < 100; k++) {
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < n; i++) u[t][i] = a[i] * sin(2 * PI * (k + t - 1) / 100.0);
        worst = fmax(worst, prob_jitter_nyquist(&W, u[0], u[1], u[2]) / ke);
    }
    ok(worst <= 2e-6, "nyquist/sinusoid: 100 samples per period give E_nyq/KE <= 2e-6 (%.3g)",
       worst);
    prob_world_free(&W);
}

/* ---- steppers ------------------------------------------------------------------------- */

static lcp_status steps(prob_world *W, const char *name, const prob_stepper_opts *o, int k)
{
    char msg[512];
    prob_alt_info info;
    for (int t = 0; t < k; t++) {
        lcp_status st = prob_step_alt(W, prob_stepper_find(name), o, &info, msg, sizeof msg);
        if (st != LCP_OK) {
            tap_diag("%s: %s", name, msg);
            return st;
        }
    }
    return LCP_OK;
}

static void test_steppers(void)
{
    prob_stepper_opts o;
    prob_stepper_opts_default(&o);
    prob_world W, V;
    char msg[512];
    /* pbd: one projection of an anchored link */
    const char *pk[] = {"angle=1", "pert=0", NULL};
    prob_stepper_opts o1 = o;
    o1.iters = 1;
    if (make(&W, "pendulum", pk) == 0 && steps(&W, "pbd", &o1, 1) == LCP_OK)
        ok(prob_jitter_stretch(&W, NULL) <= 1e-15, "stepper/pbd: one projection makes an "
           "anchored link exact (|C|/L = %.2g)", prob_jitter_stretch(&W, NULL));
    else ok(0, "stepper/pbd: one projection");
    prob_world_free(&W);
    /* xpbd with alpha 0 = pbd, bit for bit, on towed above h_crit */
    const char *tk[] = {"h=0.034", NULL};
    prob_stepper_opts oa = o;
    oa.alpha = 0.0;
    int same = 0;
    if (make(&W, "towed", tk) == 0 && make(&V, "towed", tk) == 0 &&
        steps(&W, "pbd", &o, 60) == LCP_OK && steps(&V, "xpbd", &oa, 60) == LCP_OK) {
        same = 1;
        for (int i = 0; i < 3 * W.nb; i++) same = same && W.pos[i] == V.pos[i];
        for (int i = 0; i < 3 * W.nb; i++) same = same && W.vel[i] == V.vel[i];
    }
    ok(same, "stepper/xpbd-alpha0: xpbd with alpha 0 equals pbd bit for bit (towed, 60 steps)");
    prob_world_free(&W);
    prob_world_free(&V);
    /* xpbd static stretch alpha F */
    const char *xk[] = {"n=1", "F=10", "pert=0", NULL};
    prob_stepper_opts ox = o;
    ox.alpha = 1e-4;
    if (make(&W, "towed", xk) == 0 && steps(&W, "xpbd", &ox, 600) == LCP_OK) {
        double l = W.pos[0];
        ok_close((l - 0.1) / (1e-4 * 10.0), 1.0, 0.01, "stepper/xpbd-static: stretch under F "
                 "is alpha F (%.6g m vs %.6g)", l - 0.1, 1e-3);
    } else ok(0, "stepper/xpbd-static");
    prob_world_free(&W);
    /* fp: quadratic convergence on the first step of the thread */
    if (make(&W, "thread", NULL) == 0) {
        prob_alt_info info;
        lcp_status st = prob_step_alt(&W, prob_stepper_find("fp"), &o, &info, msg, sizeof msg);
        int quad = st == LCP_OK && info.iterations >= 3;
        double worst = 0.0;
        for (int i = 0; quad && i + 1 < info.iterations && i + 1 < 16; i++) {
            if (info.cmax[i + 1] < 1e-13) break;              /* at rounding */
            double q = info.cmax[i + 1] / (info.cmax[i] * info.cmax[i]);
            worst = fmax(worst, q);
        }
        tap_diag("fp on thread step 1: %d iterations, max|C|/L %.2e %.2e %.2e %.2e %.2e %.2e "
                 "%.2e", info.iterations, info.cmax[0], info.cmax[1], info.cmax[2],
                 info.cmax[3], info.cmax[4], info.cmax[5], info.cmax[6]);
        int it = info.iterations;
        double last = it >= 2 && it <= 16 ? info.cmax[it - 1] / info.cmax[it - 2] : 1.0;
        ok(quad && worst <= 100.0 && last <= 1e-3, "stepper/fp: quadratic convergence, c_{i+1} "
           "<= %.3g c_i^2 (bounded) and the last iteration divides max|C|/L by %.3g, to <= "
           "1e-10 in %d iterations", worst, 1.0 / last, it);
    } else ok(0, "stepper/fp");
    prob_world_free(&W);
    /* gsd with zero tension = vts: the chain released level has no tension at step 1 */
    double dv = INFINITY;
    if (make(&W, "chain", NULL) == 0 && make(&V, "chain", NULL) == 0 &&
        prob_world_set_solver(&W, "ldlt-ref", 1, -1) == LCP_OK &&
        prob_world_set_solver(&V, "ldlt-ref", 1, -1) == LCP_OK &&
        steps(&W, "vts", &o, 1) == LCP_OK && steps(&V, "gsd", &o, 1) == LCP_OK) {
        dv = 0.0;
        for (int i = 0; i < 3 * W.nb; i++)
            dv = fmax(dv, fmax(fabs(W.vel[i] - V.vel[i]), fabs(W.pos[i] - V.pos[i])));
    }
    ok(dv <= 1e-14, "stepper/gsd-zero-tension: gsd equals vts on the level chain's first step "
       "(max difference %.2g)", dv);
    prob_world_free(&W);
    prob_world_free(&V);
    /* ivts with rhs spook on an anchored link moving radially = vts */
    const char *rk[] = {"angle=0", "pert=0", NULL};
    prob_stepper_opts oi = o;
    oi.rhs = PROB_RHS_SPOOK;
    oi.beta = 1.0;
    dv = INFINITY;
    if (make(&W, "pendulum", rk) == 0 && make(&V, "pendulum", rk) == 0 &&
        prob_world_set_solver(&W, "ldlt-ref", 1, -1) == LCP_OK) {
        W.vel[1] = V.vel[1] = 0.7;                            /* radial (upward) speed */
        if (steps(&W, "vts", &o, 50) == LCP_OK && steps(&V, "ivts", &oi, 50) == LCP_OK) {
            dv = 0.0;
            for (int i = 0; i < 3; i++)
                dv = fmax(dv, fmax(fabs(W.vel[i] - V.vel[i]), fabs(W.pos[i] - V.pos[i])));
        }
    }
    ok(dv <= 1e-12, "stepper/ivts-spook: ivts (rhs spook, beta 1) equals vts on a radially "
       "moving pendulum over 50 steps (%.2g)", dv);
    prob_world_free(&W);
    prob_world_free(&V);
    /* ivts options on one swinging link: refresh per sweep = per row (one row per sweep);
     * the exact Schur divisor n^0 . n_c (w_a + w_b) changes a one-sweep answer once the link
     * turns (iterated to convergence both reach the same fixed point) */
    const char *sk[] = {"angle=1", "pert=0", "h=0.01", NULL};
    prob_stepper_opts os = o, oe = o;
    os.refresh = 1;
    oe.schur = 1;
    oe.iters = 1;
    prob_world X;
    same = 0;
    double dse = 0.0;
    if (make(&W, "pendulum", sk) == 0 && make(&V, "pendulum", sk) == 0 &&
        make(&X, "pendulum", sk) == 0 && steps(&W, "ivts", &o, 50) == LCP_OK &&
        steps(&V, "ivts", &os, 50) == LCP_OK && steps(&X, "ivts", &oe, 50) == LCP_OK) {
        prob_world Y;                                  /* one sweep, approximate divisor */
        if (make(&Y, "pendulum", sk) == 0 && steps(&Y, "ivts", &o1, 50) == LCP_OK)
            for (int i = 0; i < 2; i++) dse = fmax(dse, fabs(Y.pos[i] - X.pos[i]));
        prob_world_free(&Y);
        same = memcmp(W.pos, V.pos, 3 * sizeof(double)) == 0 &&
               memcmp(W.vel, V.vel, 3 * sizeof(double)) == 0;
        prob_world_free(&X);
    }
    ok(same, "stepper/ivts-refresh: one link, directions per sweep give the same bits as per row");
    ok(dse > 1e-9 && dse < 1e-2, "stepper/ivts-schur: with one sweep the exact divisor moves a "
       "swinging pendulum by %.2g m after 50 steps (differs, but little)", dse);
    prob_world_free(&W);
    prob_world_free(&V);
    /* contacts refused */
    if (make(&W, "stack", NULL) == 0) {
        prob_alt_info info;
        lcp_status st = prob_step_alt(&W, prob_stepper_find("ivts"), &o, &info, msg, sizeof msg);
        ok(st == LCP_ERR_UNSUPPORTED && strstr(msg, "contacts") && !strchr(msg, '\n'),
           "stepper/unsupported: a world with contacts is refused (%s)", msg);
    } else ok(0, "stepper/unsupported");
    prob_world_free(&W);
}

/* ---- the linear VTS check and the issue's numbers ---------------------------------------- */

typedef struct etop_trace {
    double first, last; /* max E_top over the first and the second half */
    int half;
} etop_trace;

static lcp_status etop_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    (void)W;
    etop_trace *t = ctx;
    if (row->step <= t->half) t->first = fmax(t->first, row->e_top);
    else t->last = fmax(t->last, row->e_top);
    return LCP_OK;
}

/* run scene at h with vts and the exact solver */
static int vts_run(const char *scene, const char *const *kv, double h, int nsteps, int fit_from,
                   prob_jitter_monitor *mon, void *ctx, prob_jitter_result *R)
{
    const prob_scene *sc = prob_scene_find(scene);
    prob_params P;
    char msg[512];
    prob_params_default(sc, &P);
    for (; kv && *kv; kv++) prob_params_set(&P, *kv, msg, sizeof msg);
    prob_world W;
    if (prob_jitter_world(&W, sc, &P, h, "ldlt-ref", 1, -1, msg, sizeof msg) != LCP_OK) {
        tap_diag("%s", msg);
        return -1;
    }
    prob_jitter_cfg cfg;
    prob_jitter_cfg_default(&cfg);
    cfg.steps = nsteps;
    cfg.modal = 1;
    if (fit_from > 0) cfg.fit_from = fit_from;
    lcp_status st = prob_jitter_run(&W, prob_stepper_find("vts"), NULL, &cfg, mon, ctx, R, msg,
                                    sizeof msg);
    if (st != LCP_OK) tap_diag("%s", msg);
    prob_world_free(&W);
    return st == LCP_OK ? 0 : -1;
}

static void test_linear(void)
{
    prob_jitter_result R;
    double hc = 2.0 / 63.05997817602458;                         /* towed N = 20 */
    /* |mu| = 4 at 1.25 h_crit: a perturbation of 1e-22 rad leaves about 30 steps before the
     * amplitude reaches 1e-3 len (the y coordinates of the straight string resolve it) */
    const char *tiny[] = {"pert=1e-22", NULL};
    if (vts_run("towed", tiny, 1.25 * hc, 60, 3, NULL, NULL, &R) == 0) {
        double g2 = R.mu_meas * R.mu_meas, p2 = R.mu_pred * R.mu_pred;
        ok(R.fit_steps >= 30 && fabs(g2 / p2 - 1) <= 0.01, "linear/1.25-hcrit: top-mode energy "
           "grows %.5f per step against |mu|^2 = %.5f over %d steps", g2, p2, R.fit_steps);
        ok(R.mac_top >= 0.9 && R.et_share >= 0.99, "linear/1.25-hcrit: the growing motion is "
           "transversal (E_T share %.4f) and the top mode (MAC %.4f)", R.et_share, R.mac_top);
    } else ok(0, "linear/1.25-hcrit");
    etop_trace t = {0, 0, 500};
    if (vts_run("towed", NULL, 0.9 * hc, 1000, 0, etop_monitor, &t, &R) == 0)
        ok(t.first > 0 && t.last <= 2 * t.first && t.last >= 0.5 * t.first, "linear/0.9-hcrit: "
           "top-mode energy within a factor 2 over 1000 steps (peaks %.3g then %.3g)",
           t.first, t.last);
    else ok(0, "linear/0.9-hcrit");
}

static void test_issue(void)
{
    prob_jitter_result R;
    if (vts_run("towed", NULL, 0.0315, 400, 0, NULL, NULL, &R) == 0)
        ok(R.outcome == PROB_QUIET && R.et_growth < 10, "issue/towed-31.5ms: VTS stays bounded "
           "(E_T at most %.3g x its first value, Jstar %.2g)", R.et_growth, R.jstar);
    else ok(0, "issue/towed-31.5ms");
    if (vts_run("towed", NULL, 0.032, 400, 0, NULL, NULL, &R) == 0) {
        ok_close(R.mu_meas, 1.307, 0.0005 / 1.307, "issue/towed-32ms: VTS grows %.4f x per step "
                 "(issue: 1.307)", R.mu_meas);
        ok(fabs(R.mu_meas / R.mu_pred - 1) <= 1e-3, "issue/towed-32ms: against %.5f predicted "
           "by symplectic Euler (0.1%%)", R.mu_pred);
    } else ok(0, "issue/towed-32ms");
    const prob_scene *sc = prob_scene_find("hang");
    prob_params P;
    prob_params_default(sc, &P);
    char msg[512];
    prob_world W;
    prob_modal M;
    if (prob_world_create(&W, sc, &P, msg, sizeof msg) == LCP_OK &&
        prob_modal_compute(&W, NULL, PROB_MODAL_ALL, &M, msg, sizeof msg) == LCP_OK) {
        ok(fabs(M.h_crit * 1e3 - 9.53) <= 0.005, "issue/hang-100: h_crit = %.4f ms (issue 9.53)",
           M.h_crit * 1e3);
        ok(M.spread <= 0.01, "issue/hang-100: restricted %.6g, full %.6g, E K %.6g within 1%%",
           M.omega_restricted, M.omega_full, M.omega_ek);
        double hon = NAN;
        lcp_status st = prob_jitter_onset(sc, &P, "ldlt-ref", 1, prob_stepper_find("vts"), NULL,
                                          0.0094, 0.0097, 0.0025, 400, &hon, msg, sizeof msg);
        if (st != LCP_OK) tap_diag("%s", msg);
        ok(st == LCP_OK && hon > 0.0094 && hon < 0.0097 && fabs(hon / M.h_crit - 1) <= 0.02,
           "issue/hang-100: onset %.4f ms in (9.4, 9.7) and within 2%% of h_crit", hon * 1e3);
        prob_modal_free(&M);
    } else ok(0, "issue/hang-100: %s", msg);
    prob_world_free(&W);
}

static void test_determinism(void)
{
    const prob_scene *sc = prob_scene_find("thread");
    prob_params P;
    prob_params_default(sc, &P);
    prob_params_set(&P, "pert=1e-3", NULL, 0);
    prob_jitter_result R[2];
    double pos[2][60];
    char msg[512];
    int good = 1;
    for (int r = 0; r < 2; r++) {
        prob_world W;
        prob_jitter_cfg cfg;
        prob_jitter_cfg_default(&cfg);
        cfg.steps = 120;
        good = good && prob_jitter_world(&W, sc, &P, 1.0 / 60, NULL, 1, -1, msg, sizeof msg) == 0 &&
               prob_jitter_run(&W, prob_stepper_find("ivts"), NULL, &cfg, NULL, NULL, &R[r], msg,
                               sizeof msg) == 0;
        if (good) memcpy(pos[r], W.pos, sizeof pos[r]);
        prob_world_free(&W);
    }
    R[0].time_per_step = R[1].time_per_step = 0;
    ok(good && memcmp(pos[0], pos[1], sizeof pos[0]) == 0 &&
           memcmp(&R[0], &R[1], sizeof R[0]) == 0,
       "determinism/thread-ivts: two seeded runs give bit-identical states and metrics");
}

/* ---- 3D and the sources' statements ---------------------------------------------------- */

static prob_jitter_result srun(const char *scene, const char *const *kv, double h,
                               const char *stepper, const char *solver, int iters,
                               const prob_stepper_opts *o, int nsteps, int *good)
{
    const prob_scene *sc = prob_scene_find(scene);
    prob_params P;
    char msg[512];
    prob_jitter_result R;
    memset(&R, 0, sizeof R);
    prob_params_default(sc, &P);
    for (; kv && *kv; kv++) prob_params_set(&P, *kv, msg, sizeof msg);
    prob_world W;
    *good = prob_jitter_world(&W, sc, &P, h, solver, iters, -1, msg, sizeof msg) == LCP_OK;
    if (!*good) {
        tap_diag("%s", msg);
        return R;
    }
    prob_jitter_cfg cfg;
    prob_jitter_cfg_default(&cfg);
    cfg.steps = nsteps;
    cfg.modal = 1;
    cfg.fit_from = 3;
    *good = prob_jitter_run(&W, prob_stepper_find(stepper), o, &cfg, NULL, NULL, &R, msg,
                            sizeof msg) == LCP_OK;
    if (!*good) tap_diag("%s", msg);
    prob_world_free(&W);
    return R;
}

static void test_claims(void)
{
    int g1, g2;
    double hc = 2.0 / 63.05997817602458;
    const char *k3[] = {"dim=3", "pert=1e-22", NULL};
    prob_jitter_result A = srun("towed", k3, 1.25 * hc, "vts", "ldlt-ref", 1, NULL, 60, &g1);
    ok(g1 && fabs(A.mu_meas / A.mu_pred - 1) <= 0.01 && A.fit_steps >= 20,
       "3d/towed: VTS grows %.4f per step against %.4f predicted (%d steps)", A.mu_meas,
       A.mu_pred, A.fit_steps);
    A = srun("towed", NULL, 1.07 * hc, "vts", "ldlt-ref", 1, NULL, 400, &g1);
    prob_jitter_result B = srun("towed", NULL, 1.07 * hc, "ivts", NULL, 1, NULL, 400, &g2);
    ok(g1 && g2 && A.outcome == PROB_JITTER && B.outcome == PROB_QUIET,
       "claims/ivts: at 1.07 h_crit vts is %s (Jstar %.2g), ivts %s (Jstar %.2g)",
       prob_outcome_name(A.outcome), A.jstar, prob_outcome_name(B.outcome), B.jstar);
    const char *r4[] = {"ratio=1e4", NULL};
    double hs[] = {1.0 / 60, 0.1};
    for (int i = 0; i < 2; i++) {
        A = srun("hang", r4, hs[i], "gsd", "ldlt-ref", 1, NULL, 400, &g1);
        B = srun("hang", r4, hs[i], "vts", "ldlt-ref", 1, NULL, 400, &g2);
        ok(g1 && g2 && A.outcome == PROB_QUIET && A.max_stretch <= 0.01 &&
               B.outcome != PROB_QUIET,
           "claims/gsd: hang with mass ratio 1e4 at h = %.4g: gsd quiet, stretch %.2g; vts %s",
           hs[i], A.max_stretch, prob_outcome_name(B.outcome));
    }
    A = srun("towed", NULL, 10 * hc, "gsfull", NULL, 1, NULL, 400, &g1);
    ok(g1 && A.outcome == PROB_QUIET && A.max_stretch <= 1e-10,
       "claims/gsfull: quiet at 10 h_crit on towed (stretch %.2g)", A.max_stretch);
    A = srun("towed", NULL, 2 * hc, "shake", NULL, 1, NULL, 400, &g1);
    ok(g1 && A.outcome == PROB_EXPLODED, "claims/shake: explodes at 2 h_crit (%s)", A.fail);
    prob_stepper_opts o;
    prob_stepper_opts_default(&o);
    o.beta = 0.60;
    A = srun("thread", NULL, 1.0 / 60, "ivts", NULL, 1, &o, 120, &g1);
    o.beta = 0.65;
    B = srun("thread", NULL, 1.0 / 60, "ivts", NULL, 1, &o, 120, &g2);
    ok(g1 && g2 && A.outcome != PROB_EXPLODED && B.outcome == PROB_EXPLODED &&
           B.cos_min_fail < 0.0,
       "claims/beta: on the thread ivts with beta 0.60 is %s, 0.65 explodes (%s) with a link "
       "turned by more than 90 degrees within the iteration (cos %.3f)",
       prob_outcome_name(A.outcome), B.fail, B.cos_min_fail);
    const char *sw[] = {"ratio=1", "amp=0.2", NULL};
    A = srun("hang", sw, 1.0 / 60, "vts", "ldlt-ref", 1, NULL, 600, &g1);
    B = srun("hang", sw, 1.0 / 60, "gsd", "ldlt-ref", 1, NULL, 600, &g2);
    ok(g1 && g2 && A.amp_ratio >= 0.95 && B.amp_ratio <= 0.5,
       "claims/energy: swing amplitude after 10 s: vts keeps %.3f, gsd %.3f", A.amp_ratio,
       B.amp_ratio);
    const char *cold[] = {"warm=0", NULL};
    A = srun("towed", cold, 0.95 * hc, "vts", "pgs", 5, NULL, 400, &g1);
    B = srun("towed", cold, 0.95 * hc, "vts", "pgs", 100, NULL, 400, &g2);
    ok(g1 && g2 && A.outcome == PROB_JITTER && B.outcome == PROB_QUIET,
       "claims/pgs: cold-started at 0.95 h_crit, vts with 5 PGS sweeps is %s (Jstar %.2g), "
       "with 100 %s", prob_outcome_name(A.outcome), A.jstar, prob_outcome_name(B.outcome));
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
    test_nyquist();
    test_steppers();
    test_linear();
    test_issue();
    test_determinism();
    test_claims();
    return tap_done();
}
