/* test_verdict.c: the suite's own verdict on a peer's answer (bench/kit/registry.c,
 * bench_residual_status; bench/grid/run.c), as TAP: converged exactly when ||r||_2 <= the
 * tolerance asked, whatever the peer says; which solvers are judged so (the peers' and the
 * external commands', not ours); and the tolerance asked of a solver that takes none (a
 * direct peer given `tol' by a `set' line or beside others on the command line). */
#include "grid.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static int is(const char *got, const char *want) { return !strcmp(got, want); }

static void verdicts(void)
{
    ok(is(bench_residual_status(1e-7, 1e-6), "converged"), "verdict: 1e-7 <= 1e-6: converged");
    ok(is(bench_residual_status(1e-6, 1e-6), "converged"),
       "verdict: a residual equal to the tolerance: converged");
    ok(is(bench_residual_status(1.0000001e-6, 1e-6), "not-converged"),
       "verdict: just above the tolerance: not-converged");
    /* a peer whose own test stopped it (its loose internal tolerance) 8 decades off ours */
    ok(is(bench_residual_status(8.4e2, 1e-6), "not-converged"),
       "verdict: a peer's converged answer with ||r||_2 = 8.4e2: not-converged");
    ok(is(bench_residual_status(NAN, 1e-6), "not-converged"), "verdict: NaN: not-converged");
    ok(is(bench_residual_status(0.0, -1.0), "not-converged"),
       "verdict: tol < 0 (no test asked) never converged");
}

static void judged(void)
{
    ok(bench_judged("siconos-lemke", 0) && bench_judged("ode-dantzig", 0) &&
       bench_judged("bullet-pgs", 0), "judged: the peers' solvers");
    ok(!bench_judged("pgs", 0) && !bench_judged("ldlt-ref", 0) && !bench_judged("dantzig", 0),
       "judged: not ours (their status is the library's loop's, on the same residual)");
    ok(bench_judged("my-solver", 1), "judged: an external command");
}

static void tolerance(void)
{
    const lcp_solver pgs = {.name = "pgs"}, lemke = {.name = "siconos-lemke",
                                                     .needs = LCP_DIRECT};
    const bench_setting *tol = bench_setting_find("tol");
    char msg[256];
    bench_settings s;
    bench_settings_default(&s);
    ok(bench_settings_tol(&s) == 1e-6, "tolerance: the default 1e-6");
    bench_settings t = s;
    int rc = bench_setting_set(&t, tol, "1e-10", msg, sizeof msg);
    bench_settings d = t;
    bench_settings_drop_unused(&d, &pgs);
    ok(rc == 0 && bench_settings_tol(&d) == 1e-10 && d.opt.tol == 1e-10,
       "tolerance: an iterative solver's is its tol");
    d = t;
    bench_settings_drop_unused(&d, &lemke);
    ok(bench_settings_tol(&d) == 1e-10 && d.opt.tol == 1e-6 && !(d.given & 1u),
       "tolerance: a direct solver keeps the tol asked (its option back to the default)");
}

int main(void)
{
    verdicts();
    judged();
    tolerance();
    return tap_done();
}
