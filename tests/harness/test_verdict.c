/* test_verdict.c: the suite's verdicts, as TAP.
 * (1) Its own verdict on a peer's answer (bench/kit/registry.c, bench_residual_status;
 * bench/grid/run.c): converged exactly when ||r||_2 <= the tolerance asked, whatever the peer
 * says; which solvers are judged so (the peers' and the external commands', not ours); and
 * the tolerance asked of a solver that takes none (a direct peer given `tol' by a `set' line
 * or beside others on the command line).
 * (2) The decision rule of a timing case (bench/kit/claims.c; bench/README.md, "Claims and
 * verdicts"): decided only when its value, widened by the larger of its noise control's
 * half-width and the run-to-run allowance BENCH_TIMING_ALLOWANCE, clears every band edge; a
 * value just inside the allowance is not decidable, just outside decided; the untimed rule
 * unchanged; and the two committed quiet runs' numbers (results at 93890c8 and 8dd6e00) that
 * flipped under the old rule now agree. */
#include "grid.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static const double A = BENCH_TIMING_ALLOWANCE;

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


/* one case of claim definition d: the claim's verdict; the numbers and the undecided reason
 * into c */
static bench_verdict one_ratio(bench_claim *c, const bench_claim_def *d, double v, double nlo,
                               double nhi)
{
    bench_obs o = {.v = v, .min = v, .max = v, .n = 0, .noise = {nlo, nhi}};
    bench_claims_init(c, d, 1);
    bench_claim_add(c, 0, "case", &o, "%.6g");
    return bench_claim_verdict(c);
}

static void timed_rule(void)
{
    static const bench_claim_def faster = {.id = "faster", .quote = "faster",
                                           .rule = BENCH_RULE_TIMED, .b = {{0, 1}}};
    static const bench_claim_def range = {.id = "range", .quote = "in a range",
                                          .rule = BENCH_RULE_TIMED, .b = {{0.9, 1.1}}};
    static const bench_claim_def cheap = {.id = "cheap", .quote = "100x cheaper",
                                          .b = {{100, INFINITY}}};   /* untimed rule */
    bench_claim c;
    /* the allowance as measured (kit.h): a factor 2, the largest change of two quiet runs */
    ok(A == 1.0, "allowance: BENCH_TIMING_ALLOWANCE = %g (100%%: peers' 80 then 160)", A);
    /* a tight noise control (half-width 1%): the allowance decides */
    ok(one_ratio(&c, &faster, 1 / (1 + A) * (1 + 1e-9), 0.99, 1.01) == BENCH_UNDECIDABLE &&
           strstr(c.numbers, "(within the run-to-run allowance of 100% of the band edge 1)") &&
           strstr(c.undec, "case: within the run-to-run allowance of 100%"),
       "timed: 0.5 (1 + 1e-9) on edge 1, allowance 100%%: not decidable (%s)", c.numbers);
    ok(one_ratio(&c, &faster, 0.5, 0.99, 1.01) == BENCH_UNDECIDABLE,
       "timed: 0.5 exactly e / (1 + a): not decidable (the edge of the allowance counts)");
    ok(one_ratio(&c, &faster, 1 / (1 + A) * (1 - 1e-9), 0.99, 1.01) == BENCH_HELD &&
           c.nundec == 0 && !c.undec[0],
       "timed: 0.5 (1 - 1e-9) on edge 1: decided, held");
    ok(one_ratio(&c, &faster, (1 + A) * (1 + 1e-9), 0.99, 1.01) == BENCH_NOT_HELD &&
           strstr(c.numbers, "(no)"), "timed: 2 (1 + 1e-9) above edge 1: decided, did not hold");
    ok(one_ratio(&c, &faster, (1 + A) * (1 - 1e-9), 0.99, 1.01) == BENCH_UNDECIDABLE,
       "timed: 2 (1 - 1e-9): not decidable");
    /* a noise control wider than the allowance: [1/3, 3], half-width sqrt(9) - 1 = 200% */
    ok(one_ratio(&c, &faster, 0.334, 1.0 / 3, 3) == BENCH_UNDECIDABLE &&
           strstr(c.numbers, "within the noise control's half-width of 200% of the band edge 1"),
       "timed: 0.334 with noise [1/3, 3]: within its 200%%: not decidable (%s)", c.numbers);
    ok(one_ratio(&c, &faster, 0.333, 1.0 / 3, 3) == BENCH_HELD,
       "timed: 0.333 < 1/3 with noise [1/3, 3]: held");
    /* an offset noise control (a variant against the method, amgs-table2's gamma beta = 1):
     * its width, not its place, widens: [1.125, 1.37] is 10% either side */
    ok(one_ratio(&c, &faster, 2.001, 1.125, 1.37) == BENCH_NOT_HELD &&
           one_ratio(&c, &faster, 1.999, 1.125, 1.37) == BENCH_UNDECIDABLE,
       "timed: noise [1.125, 1.37] (10%% < 100%%): 2.001 did not hold, 1.999 not decidable");
    /* both edges of a range: 2.3 clears 1.1 x 2, 2.1 does not; 0.44 clears 0.9 / 2 */
    ok(one_ratio(&c, &range, 2.3, 0.99, 1.01) == BENCH_NOT_HELD &&
           one_ratio(&c, &range, 2.1, 0.99, 1.01) == BENCH_UNDECIDABLE &&
           strstr(c.numbers, "band edge 1.1") &&
           one_ratio(&c, &range, 0.44, 0.99, 1.01) == BENCH_NOT_HELD &&
           one_ratio(&c, &range, 0.46, 0.99, 1.01) == BENCH_UNDECIDABLE &&
           strstr(c.numbers, "band edge 0.9") &&
           one_ratio(&c, &range, 1.0, 0.99, 1.01) == BENCH_UNDECIDABLE,
       "timed: band [0.9, 1.1]: 2.3 and 0.44 decided, 2.1, 0.46 and 1.0 not decidable");
    /* a TIMED claim's case without a noise control; a ratio that is not positive */
    ok(one_ratio(&c, &faster, 0.1, NAN, NAN) == BENCH_UNDECIDABLE &&
           strstr(c.numbers, "case 0.1, no noise control (undecided without a noise control)"),
       "timed: no noise control: not decidable");
    ok(one_ratio(&c, &faster, 0, 0.99, 1.01) == BENCH_UNDECIDABLE &&
           strstr(c.undec, "not a positive ratio of times"), "timed: a zero ratio: not decidable");
    /* a case with a noise control on an untimed claim is a timing case (ode's O8) */
    ok(one_ratio(&c, &cheap, 201, 0.9, 1.1) == BENCH_HELD &&
           one_ratio(&c, &cheap, 199, 0.9, 1.1) == BENCH_UNDECIDABLE &&
           one_ratio(&c, &cheap, 49, 0.9, 1.1) == BENCH_NOT_HELD && c.ntimed == 1,
       "timed: a noise control on an untimed claim, edge 100: 201 held, 199 not decidable, "
       "49 did not hold");
    char rule[200];
    ok(!strcmp(bench_rule_str(&faster, rule, sizeof rule), "every case in the band, each clear "
               "of every band edge by its timing uncertainty"), "timed: the rule in words (%s)",
       rule);
}

/* an exponent: additive, its standard error or log(1 + a) / log(span) */
static void slopes(void)
{
    static const bench_claim_def cubic = {.id = "cubic", .quote = "O(m^3)",
                                          .b = {{2.5, INFINITY}}};
    bench_claim c;
    double span = 868.0 / 96, w = log1p(A) / log(span);   /* ode's pool series: 0.315 */
    bench_claims_init(&c, &cubic, 1);
    bench_claim_slope(&c, 0, "pool exponent", 2.5 + w * (1 + 1e-9), 0.03, span, "%.3f");
    ok(bench_claim_verdict(&c) == BENCH_HELD && c.ntimed == 1,
       "slope: 2.5 + 0.315 (1 + 1e-9) over a 9.04x span: held (%s)", c.numbers);
    bench_claims_init(&c, &cubic, 1);
    bench_claim_slope(&c, 0, "pool exponent", 2.5 + w * (1 - 1e-9), 0.03, span, "%.3f");
    ok(bench_claim_verdict(&c) == BENCH_UNDECIDABLE &&
           strstr(c.undec, "within the run-to-run allowance of 0.31"),
       "slope: 2.5 + 0.315 (1 - 1e-9): not decidable (%s)", c.undec);
    bench_claims_init(&c, &cubic, 1);   /* spheres at 8dd6e00: 3.16 +- 0.78, 174 to 738 rows */
    bench_claim_slope(&c, 0, "spheres exponent", 3.16, 0.78, 738.0 / 174, "%.2f");
    ok(bench_claim_verdict(&c) == BENCH_UNDECIDABLE &&
           strstr(c.undec, "within the fit's standard error of 0.78 of the band edge 2.5"),
       "slope: 3.16 +- 0.78 on edge 2.5: its standard error decides: not decidable");
    bench_claims_init(&c, &cubic, 1);
    bench_claim_slope(&c, 0, "spheres exponent", 2.1, 0.01, 738.0 / 174, "%.2f");
    ok(bench_claim_verdict(&c) == BENCH_UNDECIDABLE && c.nfail == 0,
       "slope: 2.1 within 0.48 (a 4.24x span) of 2.5: not decidable");
    bench_claims_init(&c, &cubic, 1);
    bench_claim_slope(&c, 0, "spheres exponent", 1.9, 0.01, 738.0 / 174, "%.2f");
    ok(bench_claim_verdict(&c) == BENCH_NOT_HELD, "slope: 1.9 beyond 0.48 of 2.5: did not hold");
}

/* the untimed rule: no widening; a spread qualified as before */
static void untimed_rule(void)
{
    static const bench_claim_def le1 = {.id = "le1", .quote = "at most 1", .b = {{0, 1}}};
    bench_claim c;
    bench_claims_init(&c, &le1, 1);
    bench_claim_value(&c, "a", 0.9999, "%.4f");
    ok(bench_claim_verdict(&c) == BENCH_HELD && c.ntimed == 0 && !strstr(c.numbers, "noise"),
       "untimed: 0.9999 <= 1: held (no allowance)");
    bench_claim_value(&c, "b", 1.0001, "%.4f");
    ok(bench_claim_verdict(&c) == BENCH_NOT_HELD && strstr(c.numbers, "b 1.0001 (no)"),
       "untimed: 1.0001 > 1: did not hold");
    bench_claims_init(&c, &le1, 1);
    const double v[3] = {0.5, 0.9, 1.2};
    bench_claim_spread(&c, "s", v, 3, "%.1f");
    ok(bench_claim_verdict(&c) == BENCH_QUALIFIED &&
           strstr(c.numbers, "s median 0.9 [0.5, 1.2] (3) (spread crosses the band)"),
       "untimed: median 0.9, max 1.2: held, qualified");
    char rule[200];
    ok(!strcmp(bench_rule_str(&le1, rule, sizeof rule), "every case in the band"),
       "untimed: the rule in words unchanged (%s)", rule);
}

/* the cases that flipped between the two committed quiet runs, re-decided */
static void two_runs(void)
{
    static const bench_claim_def o8 = {.id = "O8", .quote = "cheap", .b = {{100, INFINITY}}};
    static const bench_claim_def prec = {.id = "prec-faster", .quote = "float32 faster",
                                         .rule = BENCH_RULE_TIMED, .b = {{0, 0.95}}};
    static const bench_claim_def lin = {.id = "spook-linear", .quote = "linear",
                                        .rule = BENCH_RULE_TIMED, .b = {{1, 3}}};
    static const bench_claim_def t1 = {.id = "t1-smallest-time", .quote = "smallest",
                                       .rule = BENCH_RULE_TIMED, .b = {{0, 1}}};
    bench_claim c;
    bench_verdict a = one_ratio(&c, &o8, 93.3, 0.906, 1.1), b = one_ratio(&c, &o8, 122, 0.933,
                                                                          1.07);
    ok(a == BENCH_UNDECIDABLE && b == BENCH_UNDECIDABLE,
       "two runs: ode O8 pool-mu0 93.3 then 122 (was did not hold, then held): both not "
       "decidable");
    a = one_ratio(&c, &prec, 0.897, 0.815, 1.227);
    b = one_ratio(&c, &prec, 0.954, 0.987, 1.013);
    ok(a == BENCH_UNDECIDABLE && b == BENCH_UNDECIDABLE,
       "two runs: prec-faster 0.897 then 0.954 (was not decidable, then did not hold): both "
       "not decidable");
    a = one_ratio(&c, &lin, 1.55, 0.74, 1.36);
    b = one_ratio(&c, &lin, 1.16, 0.82, 1.22);
    ok(a == BENCH_UNDECIDABLE && b == BENCH_UNDECIDABLE,
       "two runs: spook-linear 1.55 then 1.16 (was held, then not decidable): both not "
       "decidable");
    a = one_ratio(&c, &t1, 0.59, 0.68, 1.47);   /* pool, the run that said held */
    ok(a == BENCH_UNDECIDABLE, "two runs: t1-smallest-time pool 0.59 (was held): not "
       "decidable, as the other run's 0.65");
}

int main(void)
{
    verdicts();
    judged();
    tolerance();
    timed_rule();
    slopes();
    untimed_rule();
    two_runs();
    return tap_done();
}
