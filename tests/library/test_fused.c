/* test_fused.c: the stopping test fused into the sweep (lcp/iterate.c) against the
 * unfused test, on instance folders given as arguments (the canonical scene instances).
 *
 * For each instance (and two synthetic 3D contact problems with a known solution, 600 rows
 * frictionless and 900 rows with friction, on which the AMGS family converges), start (cold,
 * and warm from the folder's z0 when it has one, as the stepper that captured it would),
 * solver (pgs, pgs-block, pgs-color, pgs-color-contact, jacobi, and the AMGS family: amgs-D,
 * amgs-I and mgs in both forms, the explicit amgs-D and amgs-I in one form up to 1000
 * rows; a solver that refuses warm starts is left out of the warm runs), form and
 * tolerance:
 *   reference: the same solver run with no stopping test (tol < 0), 1000 sweeps, and a
 *     monitor that takes the exact residual lcp_residual(z) after every sweep; the unfused
 *     loop stops at the first sweep k with r(z_k) <= tol (converged), or
 *     r(z_k) > diverge max(1, r(z_0)) (diverged), else at the cap;
 *   fused: the solver with the tolerance (the loop takes the exact residual only when the
 *     fused estimate says it is due).
 * Orders: natural, and symmetric (forward then backward sweeps, whose residual can
 * oscillate) for pgs and amgs-D; tolerances 1e-4, 1e-6, 1e-9.
 * Checks: the same status and the same sweep count, the FIRST crossing (lcp_info.iterations
 * is the first sweep whose residual is <= tol); info's residual norms equal to
 * lcp_residual(z)'s bit for bit (the loop takes only their pass); a converged run's
 * residual <= tol; Jacobi: fewer exact residuals than sweeps (its estimate is exact).  A
 * scripted sweep whose residual oscillates around tol while its estimate says it is far
 * above checks the first crossing where an estimate would skip it.  Prints the counts as
 * TAP diagnostics. */
#include "lcp.h"
#include "lcp_internal.h"   /* lcp_iterate_fused, for the scripted sweeps below */
#include "tap.h"
#include "testprob.h"

#include <stdlib.h>
#include <string.h>

typedef struct ref_rec {
    const lcp_problem *P;
    double *w, *r;  /* r[k] = lcp_residual of z_k, k = 0 .. last */
    int last;
} ref_rec;

static void record(void *ctx, int k, const double *z)
{
    ref_rec *rec = ctx;
    lcp_residuals R;
    lcp_residual(rec->P, z, rec->w, &R);
    rec->r[k] = R.r2;
    rec->last = k;
}

/* where the unfused loop stops: the first k with r_k <= tol or r_k > diverge max(1, r_0) */
static int unfused_stop(const ref_rec *rec, double tol, double diverge, lcp_status *st)
{
    for (int k = 0; k <= rec->last; k++) {
        if (rec->r[k] <= tol) {
            *st = LCP_OK;
            return k;
        }
        if (k > 0 && !(rec->r[k] <= diverge * fmax(1.0, rec->r[0]))) {
            *st = LCP_ERR_DIVERGED;
            return k;
        }
    }
    *st = LCP_MAXITER;
    return rec->last;
}

/* the explicit AMGS (dense A, O(m^2) a sweep) in one form and up to 1000 rows */
static const char *solvers[] = {"pgs",    "pgs-block",       "pgs-color",       "pgs-color-contact",
                                "jacobi", "amgs-D",          "amgs-I",          "amgs-D-explicit",
                                "amgs-I-explicit", "mgs"};
/* the solvers also run in the symmetric order: pgs and amgs-D (every Gauss-Seidel solver
 * takes the same exact test; two keep the test's time within CI's) */
static int ordered(const char *name)
{
    return !strcmp(name, "pgs") || !strcmp(name, "amgs-D");
}
static long sweeps_total = 0, checks_total = 0;
static int differ = 0;

/* z <- the start of a run: 0 (cold; lcp_start ignores z) or the folder's z0 (warm) */
static void start(const lcp_problem *P, int warm, double *z)
{
    if (warm) memcpy(z, P->z0, (size_t)P->m * sizeof(double));
}

static void run_problem(const char *name, const lcp_problem *P, int warm)
{
    const lcp_form forms[] = {LCP_FORM_MATRIX_FREE, LCP_FORM_ASSEMBLED};
    const double tols[] = {1e-4, 1e-6, 1e-9};
    enum { NTOL = sizeof tols / sizeof tols[0] };
    const int cap = 1000;
    double *z = calloc((size_t)P->m + 1, sizeof(double));
    double *w = calloc((size_t)P->m + 1, sizeof(double));
    double *hist = calloc((size_t)cap + 1, sizeof(double));
    const lcp_order orders[] = {LCP_ORDER_NATURAL, LCP_ORDER_SYMMETRIC};
    for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++)
        for (size_t f = 0; f < 4; f++) {
            int ord = f >= 2;                           /* 2, 3: the symmetric order */
            if (strstr(solvers[s], "explicit") && (f % 2 > 0 || P->m > 1000)) continue;
            if (ord && !ordered(solvers[s])) continue;
            const lcp_solver *S = lcp_solver_find(solvers[s]);
            lcp_options o;
            lcp_options_default(&o);
            o.form = forms[f % 2];
            o.order = orders[ord];
            o.max_iter = cap;
            o.warm = warm;
            ref_rec rec = {P, w, hist, 0};
            lcp_info ir, fi;
            o.tol = -1.0;                      /* the exact residual after every sweep */
            o.monitor = record;
            o.monitor_ctx = &rec;
            start(P, warm, z);
            lcp_solve(S, P, &o, z, &ir);
            o.monitor = NULL;
            if (warm && ir.status == LCP_ERR_UNSUPPORTED) continue;   /* mgs: cold only */
            char fn[64];
            snprintf(fn, sizeof fn, "%s%s%s", lcp_form_name(forms[f % 2]),
                     ord ? "/symmetric" : "", warm ? "/warm" : "");
            for (size_t t = 0; t < NTOL; t++) {
                lcp_status ref_st;
                int ref_k = unfused_stop(&rec, tols[t], o.diverge, &ref_st);
                if (ir.status < 0 && ref_st == LCP_MAXITER) {  /* non-finite first */
                    ref_k = ir.iterations;
                    ref_st = ir.status;
                }
                o.tol = tols[t];
                start(P, warm, z);
                lcp_status st = lcp_solve(S, P, &o, z, &fi);
                int same = st == ref_st && fi.iterations == ref_k;
                differ += !same;
                ok(same, "%s/%s/%s/tol=%g: the stop is the first crossing (%s after %d sweeps)",
                   solvers[s], name, fn, tols[t], lcp_status_str(ref_st), ref_k);
                tap_diag("fused: %s after %d sweeps, %d exact residuals", lcp_status_str(st),
                         fi.iterations, fi.residual_checks);
                if (st >= 0) {              /* the loop's norms are lcp_residual's, bit for bit */
                    lcp_residuals Rz;
                    lcp_residual(P, z, w, &Rz);
                    ok(fi.residual == Rz.r2 && fi.residual_inf == Rz.rinf,
                       "%s/%s/%s/tol=%g: info's residual = lcp_residual(z) (%.17g, %.17g)",
                       solvers[s], name, fn, tols[t], fi.residual, Rz.r2);
                }
                if (st == LCP_OK)
                    ok(fi.residual <= tols[t], "%s/%s/%s/tol=%g: converged means "
                       "lcp_residual <= tol (%.3e)", solvers[s], name, fn,
                       tols[t], fi.residual);
                if (st == LCP_OK && fi.iterations >= 20) {
                    if (!strcmp(solvers[s], "jacobi"))   /* its estimate is exact: few checks */
                        ok(fi.residual_checks <= 3 + fi.iterations / 10,
                           "%s/%s/%s/tol=%g: exact residuals <= 3 + sweeps / 10 (%d of %d)",
                           solvers[s], name, fn, tols[t], fi.residual_checks, fi.iterations);
                    sweeps_total += fi.iterations;
                    checks_total += fi.residual_checks;
                }
            }
        }
    free(hist);
    free(z);
    free(w);
}

/* A scripted fused sweep on the 1-row problem A = 1, q = 0, no bounds, whose residual is
 * r(z) = |z|: sweep k sets z = r_k and reports an estimate e_k = 10 r_k, far above tol.
 * The residuals are those of pgs with the symmetric order on three-spheres-step1 near
 * tol = 1e-4: 1.2e-3, 3.1e-4, 8.06e-5 (sweep 3, the first crossing), 4.17e-4, 3.04e-5: a
 * loop that trusts the estimate, or tests only where it predicts a crossing, stops late. */
static const double script_r[] = {1.2e-3, 3.1e-4, 8.06e-5, 4.17e-4, 3.04e-5, 1e-6};

static lcp_status script_sweep(void *ctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    (void)ctx;
    double r = script_r[k <= 6 ? k - 1 : 5];
    z[0] = r;
    est->e2 = 100.0 * r * r;
    *row = -1;
    return LCP_OK;
}

static void scripted(void)
{
    const double one = 1.0, zero = 0.0, lo = -INFINITY, hi = INFINITY;
    lcp_problem P;
    ok(tp_dense(&P, 1, &one, &zero, &lo, &hi, NULL) == 0, "scripted: 1-row problem built");
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-4;
    o.max_iter = 50;
    o.warm = 1;
    double z = 0.1;                                 /* r_0 = 0.1 */
    lcp_info info;
    lcp_status st = lcp_iterate_fused(&P, &o, script_sweep, NULL, &z, &info);
    ok(st == LCP_OK && info.iterations == 3 && z == script_r[2],
       "scripted: an oscillating residual stops at its first crossing (%s after %d sweeps, "
       "want 3, z = %g)", lcp_status_str(st), info.iterations, z);
    o.check_every = 2;                              /* only even sweeps are tested */
    z = 0.1;
    st = lcp_iterate_fused(&P, &o, script_sweep, NULL, &z, &info);
    ok(st == LCP_OK && info.iterations == 6,
       "scripted: check_every 2: the first crossing among the tested sweeps (%s after %d "
       "sweeps, want 6)", lcp_status_str(st), info.iterations);
    lcp_problem_free(&P);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("1..0 # SKIP no instance folder given\n");
        return 0;
    }
    scripted();
    for (int a = 1; a < argc; a++) {
        lcp_problem P;
        char msg[512], nb[512];
        const char *name = tp_folder_name(argv[a], nb, sizeof nb);
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "read %s", argv[a]);
            tap_diag("%s", msg);
            continue;
        }
        run_problem(name, &P, 0);
        if (P.z0) run_problem(name, &P, 1);
        lcp_problem_free(&P);
    }
    /* synthetic: 200 bodies in 3D, frictionless (600 contacts) and with friction (300
     * contacts of 3 rows), q chosen so that a known z* solves the frictionless one */
    for (int fr = 0; fr <= 2; fr += 2) {
        lcp_problem P;
        int bad = tp_contact(&P, 6, 200, fr ? 300 : 600, fr, 0.5, 1e-2, 7 + fr) != 0;
        double *zs = calloc((size_t)P.m + 1, sizeof(double));
        if (!bad && !fr) tp_known(&P, zs, 11);
        ok(!bad, "synthetic contact problem, %s friction, built", fr ? "with" : "no");
        if (!bad) run_problem(fr ? "synthetic-friction" : "synthetic-mu0", &P, 0);
        free(zs);
        lcp_problem_free(&P);
    }
    tap_diag("converged runs of >= 20 sweeps: %ld sweeps, %ld exact residuals; %d stops differ",
             sweeps_total, checks_total, differ);
    return tap_done();
}
