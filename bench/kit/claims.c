/* claims.c: the claims discipline of the report kit: a table states each claim as data (a
 * file-scope `static const bench_claim_def' table: id, source and section, the source's
 * sentence quoted, metric, band, rule) and hands the kit numbers only (a value, or the
 * median and spread over instances, with the noise control for a timing claim); the kit
 * decides the verdict, prints the two lists and writes claims.csv.  Also the one rule that
 * says whether two whole simulations ended in the same physical state
 * (bench_state_comparable), used by every whole-simulation table.
 *
 * VERDICTS (bench/README.md, "Claims and verdicts").  One case is one number checked on its
 * band [lo, hi]: a spread passes on its median and is qualified when its min or max lies
 * outside the band.  A timing case (one that carries a noise control, or any case of a TIMED
 * claim) is decided only when its value, widened by its uncertainty, lies wholly on one side
 * of every band edge; the uncertainty is the larger of its noise control's half-width (the
 * same method timed against itself) and the run-to-run allowance BENCH_TIMING_ALLOWANCE
 * (kit.h, with the measurement that chose it); a case of a TIMED claim without a noise
 * control is undecided.  Any other case is decided by its band alone.  A claim:
 *   rule EACH (need 0): "did not hold" when a decided case fails; else "not tested" when a
 *     case could not be measured or there is none; else "not decidable" when a case is
 *     undecided; else "held, qualified" when a spread crossed the band; else "held".
 *   need k > 0 (an existence claim, "on some scene"): "held" when k cases pass (qualified
 *     when one of them crosses), "did not hold" when too few could still pass, else "not
 *     tested" or "not decidable".
 * Cost: O(n log n) per spread; the rest constant.
 */
#include "kit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void claim_append(bench_claim *c, const char *fmt, va_list ap)
{
    size_t l = strlen(c->numbers);
    if (l && l + 2 < sizeof c->numbers) {
        memcpy(c->numbers + l, "; ", 3);
        l += 2;
    }
    if (l + 1 < sizeof c->numbers) vsnprintf(c->numbers + l, sizeof c->numbers - l, fmt, ap);
}

void bench_claim_note(bench_claim *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    claim_append(c, fmt, ap);
    va_end(ap);
}

void bench_claims_init(bench_claim *c, const bench_claim_def *d, int n)
{
    for (int j = 0; j < n; j++) {
        memset(&c[j], 0, sizeof c[j]);
        c[j].def = &d[j];
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int bench_spread(const double *v, int n, double s[3])
{
    double *u = lcp_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    int k = 0;
    s[0] = s[1] = s[2] = NAN;
    for (int i = 0; u && i < n; i++)
        if (isfinite(v[i])) u[k++] = v[i];
    if (k) {
        qsort(u, (size_t)k, sizeof(double), cmp_double);
        s[0] = u[0];                                                  /* min */
        s[1] = k % 2 ? u[k / 2] : 0.5 * (u[k / 2 - 1] + u[k / 2]);   /* median */
        s[2] = u[k - 1];                                              /* max */
    }
    lcp_free(u);
    return k;
}

/* the outcome of a decided case: in band b or not, qualified when its spread crosses */
static bench_verdict band_verdict(const bench_band *B, const bench_obs *o)
{
    if (!(o->v >= B->lo && o->v <= B->hi)) return BENCH_NOT_HELD;
    if (o->n > 1 && (o->min < B->lo || o->max > B->hi)) return BENCH_QUALIFIED;
    return BENCH_HELD;
}

/* A timing case (bench/README.md, "Claims and verdicts"): decided only when its value,
 * widened by its uncertainty, lies wholly on one side of each finite band edge e.  A ratio
 * of times v > 0: the uncertainty is the relative factor w, the larger of the noise
 * control's half-width sqrt(max/min) - 1 and BENCH_TIMING_ALLOWANCE, and the case is
 * undecided when e / (1 + w) <= v <= e (1 + w) (an edge e <= 0 is never reached).  An
 * exponent (span > 1): the additive w, the larger of the standard error (the noise control
 * [p - se, p + se]) and log(1 + allowance) / log(span), undecided when |v - e| <= w.  why:
 * the reason of an undecided case. */
static bench_verdict timed_verdict(const bench_band *B, const bench_obs *o, double span,
                                   char *why, size_t n)
{
    why[0] = 0;
    if (!(o->noise[0] <= o->noise[1])) {
        snprintf(why, n, "undecided without a noise control");
        return BENCH_UNDECIDABLE;
    }
    double wn, wa, w;
    if (span > 1) {
        wn = 0.5 * (o->noise[1] - o->noise[0]);
        wa = log1p(BENCH_TIMING_ALLOWANCE) / log(span);
    } else {
        if (!(o->v > 0 && o->noise[0] > 0)) {
            snprintf(why, n, "not a positive ratio of times");
            return BENCH_UNDECIDABLE;
        }
        wn = sqrt(o->noise[1] / o->noise[0]) - 1;
        wa = BENCH_TIMING_ALLOWANCE;
    }
    w = fmax(wn, wa);
    const double e[2] = {B->lo, B->hi};
    for (int k = 0; k < 2; k++) {
        if (!isfinite(e[k]) || (k == 1 && e[1] == e[0])) continue;
        int near = span > 1 ? fabs(o->v - e[k]) <= w
                            : e[k] > 0 && o->v >= e[k] / (1 + w) && o->v <= e[k] * (1 + w);
        if (!near) continue;
        if (span > 1 && wn > wa)
            snprintf(why, n, "within the fit's standard error of %.2g of the band edge %.4g", w,
                     e[k]);
        else if (span > 1)
            snprintf(why, n, "within the run-to-run allowance of %.2g (a factor %g in time over "
                     "a %.3gx span of sizes) of the band edge %.4g", w,
                     1 + BENCH_TIMING_ALLOWANCE, span, e[k]);
        else snprintf(why, n, "within the %s of %.0f%% of the band edge %.4g",
                      wn > wa ? "noise control's half-width" : "run-to-run allowance", 100 * w,
                      e[k]);
        return BENCH_UNDECIDABLE;
    }
    return band_verdict(B, o);
}

/* one case on band b: a timing case (a noise control, or a TIMED claim) by timed_verdict,
 * else the untimed rule (in the band, qualified when its spread crosses); span as there */
static void claim_case(bench_claim *c, int b, const char *label, const bench_obs *o,
                       double span, const char *fmt)
{
    if (b < 0 || b >= BENCH_NBAND) b = 0;
    if (!isfinite(o->v)) {
        char r[200];
        snprintf(r, sizeof r, "%s: not measured", label);
        bench_claim_missing(c, r);
        return;
    }
    const bench_band *B = &c->def->b[b];
    int noise = o->noise[0] <= o->noise[1];
    int timed = noise || c->def->rule == BENCH_RULE_TIMED;
    char why[200] = "", mark[240] = "";
    bench_verdict v = timed ? timed_verdict(B, o, span, why, sizeof why) : band_verdict(B, o);
    if (v == BENCH_UNDECIDABLE) snprintf(mark, sizeof mark, " (%s)", why);
    else if (v == BENCH_NOT_HELD) snprintf(mark, sizeof mark, " (no)");
    else if (v == BENCH_QUALIFIED) snprintf(mark, sizeof mark, " (spread crosses the band)");
    char x[3][64], txt[600], nz[160] = "";
    snprintf(x[0], sizeof x[0], fmt, o->v);
    if (timed) {
        if (noise && span > 1)
            snprintf(nz, sizeof nz, ", +- %.2g", 0.5 * (o->noise[1] - o->noise[0]));
        else if (noise) {
            char a[64], z[64];
            snprintf(a, sizeof a, fmt, o->noise[0]);
            snprintf(z, sizeof z, fmt, o->noise[1]);
            snprintf(nz, sizeof nz, ", noise control [%s, %s]", a, z);
        } else snprintf(nz, sizeof nz, ", no noise control");
    }
    if (o->n >= 1) {   /* a spread over instances (of one, perhaps) */
        snprintf(x[1], sizeof x[1], fmt, o->min);
        snprintf(x[2], sizeof x[2], fmt, o->max);
        snprintf(txt, sizeof txt, "%s median %s [%s, %s] (%d)%s%s", label, x[0], x[1], x[2],
                 o->n, nz, mark);
    } else snprintf(txt, sizeof txt, "%s %s%s%s", label, x[0], nz, mark);
    bench_claim_note(c, "%s", txt);
    c->ncase++;
    c->ntimed += timed;
    c->npass += v == BENCH_HELD || v == BENCH_QUALIFIED;
    c->nqual += v == BENCH_QUALIFIED;
    c->nfail += v == BENCH_NOT_HELD;
    c->nundec += v == BENCH_UNDECIDABLE;
    if (v == BENCH_UNDECIDABLE && !c->undec[0])
        snprintf(c->undec, sizeof c->undec, "%s: %s", label, why);
}

void bench_claim_add(bench_claim *c, int b, const char *label, const bench_obs *o,
                     const char *fmt)
{
    claim_case(c, b, label, o, 0, fmt);
}

void bench_claim_slope(bench_claim *c, int b, const char *label, double p, double se,
                       double span, const char *fmt)
{
    double s = isfinite(se) && se >= 0 ? se : 0;
    bench_obs o = {.v = p, .min = p, .max = p, .n = 0, .noise = {p - s, p + s}};
    if (!(span > 1)) o.noise[0] = o.noise[1] = NAN;   /* no span: no uncertainty to widen by */
    claim_case(c, b, label, &o, span, fmt);
}

void bench_claim_in(bench_claim *c, int b, const char *label, double v, const char *fmt)
{
    bench_obs o = {.v = v, .min = v, .max = v, .n = 0, .noise = {NAN, NAN}};
    bench_claim_add(c, b, label, &o, fmt);
}

void bench_claim_value(bench_claim *c, const char *label, double v, const char *fmt)
{
    bench_claim_in(c, 0, label, v, fmt);
}

void bench_claim_flag(bench_claim *c, int b, const char *label, int yes)
{
    bench_claim_in(c, b, label, yes ? 1.0 : 0.0, yes ? "yes" : "no");
}

bench_obs bench_obs_spread(const double *v, int n)
{
    double s[3];
    bench_obs o = {.noise = {NAN, NAN}};
    o.n = bench_spread(v, n, s);
    o.min = s[0];
    o.v = s[1];
    o.max = s[2];
    return o;
}

void bench_claim_spread(bench_claim *c, const char *label, const double *v, int n,
                        const char *fmt)
{
    bench_obs o = bench_obs_spread(v, n);
    bench_claim_add(c, 0, label, &o, fmt);
}

void bench_claim_timed(bench_claim *c, const char *label, const double *v, int n,
                       const double *noise, int nn, const char *fmt)
{
    bench_obs o = bench_obs_spread(v, n), z = bench_obs_spread(noise, nn);
    o.noise[0] = z.min;
    o.noise[1] = z.max;
    bench_claim_add(c, 0, label, &o, fmt);
}

void bench_claim_missing(bench_claim *c, const char *reason)
{
    c->nmissing++;
    bench_claim_note(c, "%s", reason);
    if (!c->reason[0]) snprintf(c->reason, sizeof c->reason, "%s", reason);
}

void bench_claim_untested(bench_claim *c, const char *reason)
{
    c->nmissing++;
    snprintf(c->reason, sizeof c->reason, "%s", reason);
}

bench_verdict bench_claim_verdict(const bench_claim *c)
{
    int need = c->def->need;
    if (need > 0) {   /* an existence claim: need cases in the band */
        if (c->npass >= need) return c->nqual ? BENCH_QUALIFIED : BENCH_HELD;
        if (c->ncase == 0 && c->nmissing == 0) return BENCH_NOT_TESTED;
        if (c->npass + c->nmissing + c->nundec < need) return BENCH_NOT_HELD;
        return c->nmissing ? BENCH_NOT_TESTED : BENCH_UNDECIDABLE;
    }
    if (c->nfail) return BENCH_NOT_HELD;
    if (c->nmissing || c->ncase == 0) return BENCH_NOT_TESTED;
    if (c->nundec) return BENCH_UNDECIDABLE;
    return c->nqual ? BENCH_QUALIFIED : BENCH_HELD;
}

const char *bench_verdict_str(bench_verdict v)
{
    static const char *const s[] = {"not tested", "held", "held, qualified", "did not hold",
                                    "not decidable"};
    return v >= 0 && v <= BENCH_UNDECIDABLE ? s[v] : "not tested";
}

const char *bench_rule_str(const bench_claim_def *d, char *b, size_t n)
{
    static const char timed[] = ", each clear of every band edge by its timing uncertainty";
    if (d->need > 0)
        snprintf(b, n, "at least %d case%s in the band%s", d->need, d->need > 1 ? "s" : "",
                 d->rule == BENCH_RULE_TIMED ? timed : "");
    else snprintf(b, n, "every case in the band%s", d->rule == BENCH_RULE_TIMED ? timed : "");
    return b;
}

/* the rule of claim c in words: its definition's, and for an untimed rule with timing cases
 * (a noise control) how those were decided */
static const char *claim_rule_str(const bench_claim *c, char *b, size_t n)
{
    bench_rule_str(c->def, b, n);
    if (c->def->rule != BENCH_RULE_TIMED && c->ntimed) {
        size_t l = strlen(b);
        snprintf(b + l, n - l, "; a timing case clear of every band edge by its timing "
                 "uncertainty");
    }
    return b;
}

static void claim_md(FILE *f, int k, const bench_claim *c)
{
    const bench_claim_def *d = c->def;
    bench_verdict v = bench_claim_verdict(c);
    char rule[200];
    fprintf(f, "%d. **%s**%s: %s (%s).  Metric: %s; band (fixed before the run): %s; "
               "rule: %s.", k, bench_verdict_str(v),
            v == BENCH_QUALIFIED ? " (the spread crosses the band)" : "", d->quote, d->source,
            d->metric, d->band, claim_rule_str(c, rule, sizeof rule));
    if (v == BENCH_NOT_TESTED)
        fprintf(f, "  Not tested, because %s.", c->reason[0] ? c->reason : "no case was run");
    if (v == BENCH_UNDECIDABLE)
        fprintf(f, "  Not decidable, because %s: a timing decides only where its value, widened "
                   "by the larger of its noise control's half-width and the run-to-run allowance "
                   "(%.0f%%), clears every band edge.", c->undec[0] ? c->undec : "a case is "
                   "undecided", 100 * BENCH_TIMING_ALLOWANCE);
    if (c->numbers[0]) fprintf(f, "  Numbers: %s.", c->numbers);
    if (d->changed) fprintf(f, "  Changed: %s.", d->changed);
    fprintf(f, "\n");
}

void bench_claims_md(FILE *f, const bench_claim *c, int n)
{
    static const char *const head[2] = {"Claims of the source", "Findings of this suite"};
    for (int kind = 0; kind < 2; kind++) {
        int k = 0;
        fprintf(f, "\n## %s\n\n", head[kind]);
        for (int j = 0; j < n; j++)
            if ((int)c[j].def->kind == kind) claim_md(f, ++k, &c[j]);
        if (!k) fprintf(f, "None in this table.\n");
    }
}

int bench_claims_csv(const char *cmd, const char *dir, int force, const bench_claim *c, int n)
{
    static const char *const head[] = {"id", "kind", "source", "statement", "metric",
                                       "threshold", "verdict", "numbers", "reason", "rule",
                                       "changed"};
    bench_csvw w;
    if (bench_csvw_open(&w, cmd, dir, "claims.csv", force, 11, head)) return 1;
    for (int j = 0; j < n; j++) {
        const bench_claim_def *d = c[j].def;
        bench_verdict v = bench_claim_verdict(&c[j]);
        char rule[200];
        bench_csvw_str(&w, d->id);
        bench_csvw_str(&w, d->kind == BENCH_SOURCE ? "source" : "finding");
        bench_csvw_str(&w, d->source);
        bench_csvw_str(&w, d->quote);
        bench_csvw_str(&w, d->metric);
        bench_csvw_str(&w, d->band);
        bench_csvw_str(&w, bench_verdict_str(v));
        bench_csvw_str(&w, c[j].numbers);
        bench_csvw_str(&w, v == BENCH_NOT_TESTED ? c[j].reason
                           : v == BENCH_UNDECIDABLE ? c[j].undec : "");
        bench_csvw_str(&w, claim_rule_str(&c[j], rule, sizeof rule));
        bench_csvw_str(&w, d->changed ? d->changed : "");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, cmd);
}

/* ---- the same physical state ------------------------------------------------------------ */

int bench_state_comparable(const bench_state *x, const bench_state *ref, char *why, size_t n)
{
    why[0] = 0;
    double floor = BENCH_STATE_KE_FLOOR * ref->escale;                /* at rest below it */
    double kmax = fmax(x->ke, ref->ke);
    double dh = fabs(x->height - ref->height);
    if (!(fabs(x->ke - ref->ke) <= BENCH_STATE_KE_REL * kmax + floor))
        snprintf(why, n, "kinetic energy %.2g J vs %.2g J (floor %.2g J)", x->ke, ref->ke,
                 floor);
    else if (!(dh <= BENCH_STATE_HEIGHT * ref->r))
        snprintf(why, n, "centre of mass %.2g m higher or lower (tolerance %.2g m)", dh,
                 BENCH_STATE_HEIGHT * ref->r);
    else if (!(fabs(x->contacts - ref->contacts) <= BENCH_STATE_CONTACTS * ref->contacts))
        snprintf(why, n, "contacts per step %.1f vs %.1f", x->contacts, ref->contacts);
    else if (x->stands != ref->stands)
        snprintf(why, n, "the stack %s", x->stands ? "stands, the reference's fell or sank"
                                                   : "fell or sank, the reference's stands");
    return why[0] == 0;
}

void bench_state_rule_md(FILE *f)
{
    fprintf(f, "A run is **comparable** with the reference run (the same physical state, one "
               "rule for every whole-simulation table) when its kinetic energy at the end is "
               "within %.0f%% of the larger of the two plus a floor of %g x sum m |g| r (the "
               "energy of lifting every body by its radius: two piles at rest are alike "
               "however small their energies), its centre of mass's height within %g r, its "
               "mean contacts per step within %.0f%%, and a stack stands in both or in neither.",
            100 * BENCH_STATE_KE_REL, BENCH_STATE_KE_FLOOR, BENCH_STATE_HEIGHT,
            100 * BENCH_STATE_CONTACTS);
}
