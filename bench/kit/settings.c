/* settings.c: the one table of run settings.  Every setting a run can be given - the
 * solver's options (tol, omega, order, ...) and the harness's own (reps, warm, timeout, ...)
 * - is one line below: its suite key, its `lcpbench solve' flag, its kind and range, its
 * default, who uses it and a help line.  `solve' flags, suite lines (suite.c), every help
 * text and the settings columns of runs.csv are generated from it, and numbers are read by
 * one reader (bench_parse_number: a decimal number or a fraction a/b, e.g. 4/3).
 *
 * A setting names the solvers that use it, as words: "@iterative" every solver that is not
 * LCP_DIRECT (a tolerance means nothing to a pivoting method), or registry names with shell
 * patterns ("*", "amgs-* mgs").  tests/harness/test_settings.c runs every solver with every setting
 * it is said not to use changed, and fails when the answer changes.  A setting given to a
 * solver that does not use it is refused (bench_settings_unused): `--omega 1.5' with
 * pgs-block would otherwise run with pgs-block's own block solves and print a number that
 * was never used.
 *
 * Adding a setting is one line here plus its field (lcp_options or bench_settings);
 * a new ordering or form needs nothing here (the names come from the library).
 * Cost: a table scan per key.
 */
#include "kit.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(lcp_order) == sizeof(int) && sizeof(lcp_form) == sizeof(int) &&
               sizeof(lcp_precision) == sizeof(int),
               "enum settings are stored as int");

static const char *order_names(int k)
{
    const char *s = lcp_order_name((lcp_order)k);
    return strcmp(s, "?") ? s : NULL;
}

static const char *precision_names(int k)
{
    const char *s = lcp_precision_name((lcp_precision)k);
    return strcmp(s, "?") ? s : NULL;
}

static const char *form_names(int k)
{
    const char *s = lcp_form_name((lcp_form)k);
    return strcmp(s, "?") ? s : NULL;
}

#define AT(f) offsetof(bench_settings, f), sizeof(((bench_settings *)0)->f)
#define SWEEPERS "pgs pgs-block amgs-* mgs"          /* the solvers that visit rows in order */
#define LOOPERS "pgs jacobi pgs-* amgs-* mgs nncg apgd spg newton-* admm" /* lcp_iterate's */

/* key, flag, kind, range, word, default, users, field, word field, names, help */
static const bench_setting table[] = {
    {"tol", "--tol", BENCH_DOUBLE, "(-inf,inf)", NULL, "1e-6", "@iterative", AT(opt.tol), 0,
     NULL, "stop at ||r||_2 <= T (T < 0: never test)"},
    {"maxit", "--maxit", BENCH_INT, "[0,2000000000]", NULL, "1000",
     "@iterative siconos-lemke siconos-pivot siconos-avi-caoferris bullet-lemke",
     AT(opt.max_iter), 0, NULL, "sweep cap"},
    {"omega", "--omega", BENCH_DOUBLE, "(0,2)", "auto", "1", "pgs pgs-color* jacobi", AT(opt.omega),
     offsetof(bench_settings, opt.omega_auto), NULL,
     "relaxation; auto (jacobi): 1/lambda_max(D^-1/2 A D^-1/2)"},
    {"beta", "--beta", BENCH_DOUBLE, "(0,inf)", NULL, "", "amgs-* mgs", AT(opt.beta), 0, NULL,
     "AMGS Omega scale (default: the solver's)"},
    {"gamma", "--gamma", BENCH_DOUBLE, "(0,inf)", NULL, "1", "amgs-* mgs", AT(opt.gamma), 0,
     NULL, "AMGS gamma"},
    {"order", "--order", BENCH_ENUM, NULL, NULL, "natural", SWEEPERS, AT(opt.order), 0,
     order_names, "row order of a sweep (solve also: perm:FILE, m 0-based rows)"},
    {"seed", "--seed", BENCH_INT, "[0,2147483647]", NULL, "1", SWEEPERS, AT(opt.seed), 0, NULL,
     "seed of the random orderings"},
    {"threads", "--threads", BENCH_INT, "[1,256]", "auto", "1", "pgs-color* jacobi",
     AT(opt.threads), offsetof(bench_settings, opt.threads_auto), NULL,
     "worker threads (same results for any count); auto: ceil(cores - load average), >= 1"},
    {"form", "--form", BENCH_ENUM, NULL, NULL, "auto", LOOPERS, AT(opt.form), 0,
     form_names, "A assembled, or matrix-free from J, Minv, E (auto: matrix-free if present)"},
    {"precision", "--precision", BENCH_ENUM, NULL, NULL, "float64", "pgs", AT(opt.precision), 0,
     precision_names, "storage of J and B = J Minv in the matrix-free sweep (float32: a variant, "
     "sums, u and the residual in double)"},
    {"warm", "--warm", BENCH_BOOL, NULL, NULL, "0", "*", AT(opt.warm), 0, NULL,
     "start from the instance's z0.mtx"},
    {"warm_scale", "--warm-scale", BENCH_DOUBLE, "[0,inf)", NULL, "1", LOOPERS,
     AT(opt.warm_scale), 0, NULL, "with --warm: start from this multiple of z0.mtx (ODE quickstep: 0.9)"},
    {"every", "--check-every", BENCH_INT, "[1,1000000]", NULL, "1", LOOPERS,
     AT(opt.check_every), 0, NULL, "residual test every K sweeps"},
    /* the field's solver families (lcp/README.md, "The field's solver families"): each
     * default is lcp_options_default's, from the method's source */
    {"restart", "--restart", BENCH_BOOL, NULL, NULL, "1", "nncg apgd", AT(opt.restart), 0,
     NULL, "the source's restart rule (nncg: beta > 1; apgd: gradient restart); 0: never"},
    {"projected", "--projected", BENCH_BOOL, NULL, NULL, "0", "nncg", AT(opt.projected), 0,
     NULL, "nncg: clip after the momentum step (0: the next sweep projects, as the paper)"},
    {"pgs_sweeps", "--pgs-sweeps", BENCH_INT, "[1,1000000]", NULL, "5", "pgs-sm",
     AT(opt.pgs_sweeps), 0, NULL, "pgs-sm: PGS sweeps before each subspace phase"},
    {"sm_steps", "--sm-steps", BENCH_INT, "[0,1000000]", NULL, "5", "pgs-sm", AT(opt.sm_steps),
     0, NULL, "pgs-sm: subspace steps at most per phase"},
    {"inner_max", "--inner-max", BENCH_INT, "[1,1000000]", NULL, "", "pgs-sm newton-*",
     AT(opt.inner_max), 0, NULL,
     "CG iterations per inner solve (default: pgs-sm 10, newton-* 100)"},
    {"forcing", "--forcing", BENCH_DOUBLE, "(0,1]", NULL, "0.1", "newton-*", AT(opt.forcing), 0,
     NULL, "Newton's inner tolerance min(forcing, ||F||), relative (inexact Newton)"},
    {"step", "--step", BENCH_DOUBLE, "(0,inf)", NULL, "", "apgd spg", AT(opt.step), 0, NULL,
     "first step: apgd t_0 (default 1/L_0), spg alpha_0 (default 1/||P(x0 - g0) - x0||_inf)"},
    {"memory", "--memory", BENCH_INT, "[1,100000]", NULL, "10", "spg", AT(opt.memory), 0, NULL,
     "spg: the nonmonotone window M (values of f)"},
    {"rho", "--rho", BENCH_DOUBLE, "(0,inf)", NULL, "", "admm", AT(opt.rho), 0, NULL,
     "admm: first penalty (default 0.1 mean(a_ii)), then OSQP's adaptive rule"},
    {"sigma", "--sigma", BENCH_DOUBLE, "[0,inf)", NULL, "1e-6", "admm", AT(opt.sigma), 0, NULL,
     "admm: proximal term sigma"},
    {"relax", "--relax", BENCH_DOUBLE, "(0,2)", NULL, "1.6", "admm", AT(opt.relax), 0, NULL,
     "admm: over-relaxation alpha"},
    {"reps", "--reps", BENCH_INT, "[0,100000]", NULL, "5", "*", AT(reps), 0, NULL,
     "timing runs after one warm-up (0: no timing)"},
    {"timeout", "--timeout", BENCH_DOUBLE, "[0,inf)", NULL, "0", "*", AT(timeout), 0, NULL,
     "seconds per run, then status timeout (0: none)"},
    {"plot", NULL, BENCH_BOOL, NULL, NULL, "1", "*", AT(plot), 0, NULL,
     "drawn in the convergence figures"},
    {"label", NULL, BENCH_TEXT, NULL, NULL, "", "*", AT(label), 0, NULL,
     "name of the run in runs.csv and figures (default: solver:key=value;...)"},
};
enum { NSET = sizeof table / sizeof table[0] };
_Static_assert(NSET <= 64, "bench_settings.given has 64 bits");

const bench_setting *bench_settings_table(int *count)
{
    if (count) *count = NSET;
    return table;
}

const bench_setting *bench_setting_find(const char *key)
{
    for (int k = 0; k < NSET; k++)
        if (!strcmp(key, table[k].key) || (table[k].flag && !strcmp(key, table[k].flag)))
            return &table[k];
    return NULL;
}

void bench_settings_default(bench_settings *s)
{
    memset(s, 0, sizeof *s);
    lcp_options_default(&s->opt);
    s->reps = 5;
    s->plot = 1;
    s->timeout = 0.0;
    s->tol_asked = NAN;
}

int bench_setting_uses(const bench_setting *k, const lcp_solver *s)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", k->users);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!strcmp(t, "@iterative") ? !(s->needs & LCP_DIRECT) : fnmatch(t, s->name, 0) == 0)
            return 1;
    return 0;
}

const bench_setting *bench_settings_unused(const bench_settings *s, const lcp_solver *sv)
{
    for (int k = 0; k < NSET; k++)
        if ((s->given >> k & 1u) && !bench_setting_uses(&table[k], sv)) return &table[k];
    return NULL;
}

void bench_settings_drop_unused(bench_settings *s, const lcp_solver *sv)
{
    bench_settings d;
    bench_settings_default(&d);
    for (int k = 0; k < NSET; k++)
        if ((s->given >> k & 1u) && !bench_setting_uses(&table[k], sv)) {
            if (table[k].at == offsetof(bench_settings, opt.tol)) s->tol_asked = s->opt.tol;
            memcpy((char *)s + table[k].at, (const char *)&d + table[k].at, table[k].size);
            if (table[k].word) memcpy((char *)s + table[k].word_at, (const char *)&d +
                                      table[k].word_at, sizeof(int));
            s->given &= ~(1ull << k);
        }
}

double bench_settings_tol(const bench_settings *s)
{
    return isnan(s->tol_asked) ? s->opt.tol : s->tol_asked;
}

int bench_parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(x)) return -1;
    if (*end == '/') {              /* a fraction a/b */
        const char *d = end + 1;
        double y = strtod(d, &end);
        if (end == d || errno == ERANGE || !isfinite(y) || y == 0.0) return -1;
        x /= y;
    }
    if (*end) return -1;
    *v = x;
    return 0;
}

/* range "[lo,hi]", "(lo,hi)", mixed; lo/hi numbers or (-)inf */
static int in_range(const char *range, double x)
{
    char *end;
    double lo = strtod(range + 1, &end);
    double hi = strtod(end + 1, &end);
    int lo_ok = range[0] == '[' ? x >= lo : x > lo;
    int hi_ok = *end == ']' ? x <= hi : x < hi;
    return lo_ok && hi_ok;
}

static void store_int(bench_settings *s, const bench_setting *k, long long v)
{
    char *p = (char *)s + k->at;
    if (k->size == sizeof(int)) {
        int i = (int)v;
        memcpy(p, &i, sizeof i);
    } else {
        uint64_t u = (uint64_t)v;
        memcpy(p, &u, sizeof u);
    }
}

static long long load_int(const bench_settings *s, const bench_setting *k)
{
    const char *p = (const char *)s + k->at;
    if (k->size == sizeof(int)) {
        int i;
        memcpy(&i, p, sizeof i);
        return i;
    }
    uint64_t u;
    memcpy(&u, p, sizeof u);
    return (long long)u;
}

static int set_value(bench_settings *s, const bench_setting *k, const char *val, char *msg,
                     size_t len)
{
    char *p = (char *)s + k->at;
    if (k->word && !strcmp(val, k->word)) {           /* e.g. omega=auto */
        int one = 1;
        memcpy((char *)s + k->word_at, &one, sizeof one);
        return 0;
    }
    switch (k->kind) {
    case BENCH_DOUBLE: {
        double d;
        if (bench_parse_number(val, &d) != 0 || !in_range(k->range, d)) {
            snprintf(msg, len, "'%s' is not a number in %s%s%s", val, k->range,
                     k->word ? " or " : "", k->word ? k->word : "");
            return -1;
        }
        memcpy(p, &d, sizeof d);
        if (k->word) memset((char *)s + k->word_at, 0, sizeof(int));
        return 0;
    }
    case BENCH_INT:
    case BENCH_BOOL: {
        char *end;
        errno = 0;
        long long v = strtoll(val, &end, 10);
        const char *range = k->kind == BENCH_BOOL ? "[0,1]" : k->range;
        if (end == val || *end || errno == ERANGE || !in_range(range, (double)v)) {
            snprintf(msg, len, "'%s' is not an integer in %s%s%s", val, range,
                     k->word ? " or " : "", k->word ? k->word : "");
            return -1;
        }
        store_int(s, k, v);
        if (k->word) memset((char *)s + k->word_at, 0, sizeof(int));   /* threads=2 after auto */
        return 0;
    }
    case BENCH_ENUM:
        for (int e = 0; k->names(e); e++)
            if (!strcmp(val, k->names(e)) && strcmp(val, "perm")) {
                store_int(s, k, e);
                return 0;
            }
        snprintf(msg, len, "unknown value '%s' (", val);
        for (int e = 0; k->names(e); e++) {
            size_t n = strlen(msg);
            if (strcmp(k->names(e), "perm"))
                snprintf(msg + n, len - n, "%s%s", e ? " " : "", k->names(e));
        }
        snprintf(msg + strlen(msg), len - strlen(msg), ")");
        return -1;
    case BENCH_TEXT:
        if (!*val || strpbrk(val, ",\"\r\n") || strlen(val) >= k->size) {
            snprintf(msg, len, "'%s' must be non-empty, under %zu characters, without , or \"",
                     val, k->size);
            return -1;
        }
        snprintf(p, k->size, "%s", val);
        return 0;
    }
    return -1;
}

int bench_setting_set(bench_settings *s, const bench_setting *k, const char *val, char *msg,
                      size_t len)
{
    if (set_value(s, k, val, msg, len) != 0) return -1;
    s->given |= 1ull << (k - table);
    return 0;
}

/* shortest of %.15g .. %.17g that reads back as v */
static void number(double v, char *out, size_t len)
{
    for (int p = 15; p <= 17; p++) {
        snprintf(out, len, "%.*g", p, v);
        if (strtod(out, NULL) == v) return;
    }
}

void bench_setting_text(const bench_settings *s, const bench_setting *k, char *out, size_t len)
{
    const char *p = (const char *)s + k->at;
    int given = s->given >> (k - table) & 1u;
    out[0] = 0;
    if (!given && !*k->dflt) return;                  /* the solver's default */
    if (k->word) {
        int w;
        memcpy(&w, (const char *)s + k->word_at, sizeof w);
        if (w) {
            snprintf(out, len, "%s", k->word);
            return;
        }
    }
    switch (k->kind) {
    case BENCH_DOUBLE: {
        double d;
        memcpy(&d, p, sizeof d);
        number(d, out, len);
        break;
    }
    case BENCH_INT:
    case BENCH_BOOL: snprintf(out, len, "%lld", load_int(s, k)); break;
    case BENCH_ENUM: {
        const char *n = k->names((int)load_int(s, k));
        snprintf(out, len, "%s", n ? n : "?");
        break;
    }
    case BENCH_TEXT: snprintf(out, len, "%s", p); break;
    }
}

static const char *kind_name(const bench_setting *k)
{
    static const char *const names[] = {"int", "double", "enum", "bool", "text"};
    return names[k->kind];
}

static const char *users_text(const bench_setting *t)
{
    return !strcmp(t->users, "*") ? "every solver"
           : !strcmp(t->users, "@iterative") ? "the iterative solvers" : t->users;
}

/* the values of t: enum names, "[0,1]", "text", or the range (and its word), joined by sep */
static void range_text(const bench_setting *t, const char *sep, char *out, size_t len)
{
    out[0] = 0;
    if (t->kind == BENCH_ENUM)
        for (int e = 0; t->names(e); e++)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", e ? sep : "", t->names(e));
    else if (t->kind == BENCH_BOOL || t->kind == BENCH_TEXT)
        snprintf(out, len, "%s", t->kind == BENCH_BOOL ? "[0,1]" : "text");
    else
        snprintf(out, len, "%s%s%s", t->range, t->word ? sep : "", t->word ? t->word : "");
}

void bench_settings_help(FILE *f, int solve_flags)
{
    for (int k = 0; k < NSET; k++) {
        const bench_setting *t = &table[k];
        if (solve_flags && !t->flag) continue;
        char left[64], meta[32], range[160];
        size_t n = strlen(t->key);
        for (size_t c = 0; c <= n && c < sizeof meta; c++)
            meta[c] = (char)(t->key[c] >= 'a' && t->key[c] <= 'z' ? t->key[c] - 32 : t->key[c]);
        meta[sizeof meta - 1] = 0;
        if (solve_flags)
            snprintf(left, sizeof left, "%s%s%s", t->flag, t->kind == BENCH_BOOL ? "" : " ",
                     t->kind == BENCH_BOOL ? "" : meta);
        else snprintf(left, sizeof left, "%s=%s", t->key, t->kind == BENCH_BOOL ? "0|1" : meta);
        range_text(t, " | ", range, sizeof range);
        fprintf(f, "  %-18s %s\n  %-18s %s %s; default %s; used by %s\n", left, t->help, "",
                kind_name(t), range, *t->dflt ? t->dflt : "the solver's", users_text(t));
    }
}

void bench_settings_list(FILE *f)
{
    int ns;
    const lcp_solver *sv = bench_solvers(&ns);
    fprintf(f, "%-8s %-14s %-6s %-34s %-8s %s\n", "key", "flag", "kind", "values", "default",
            "used by");
    for (int k = 0; k < NSET; k++) {
        const bench_setting *t = &table[k];
        char range[160];
        range_text(t, "|", range, sizeof range);
        fprintf(f, "%-8s %-14s %-6s %-34s %-8s", t->key, t->flag ? t->flag : "-", kind_name(t),
                range, *t->dflt ? t->dflt : "-");
        for (int s = 0; s < ns; s++)
            if (bench_setting_uses(t, &sv[s])) fprintf(f, " %s", sv[s].name);
        fprintf(f, "\n");
    }
}
