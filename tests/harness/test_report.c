/* test_report.c: the report kit (bench/kit/kit.h) on hand-made data, as TAP: the history
 * reader's "at or below" (a residual exactly equal to the level counts), the RFC 4180 CSV
 * reader (whole file and a record at a time) and writer round trip, claims whose verdicts follow from their numbers and are
 * printed in the two lists, and the detection of coincident series in figures.
 * Argument: a scratch folder. */
#include "grid.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static void history(const char *dir)
{
    char path[4200], msg[4400];
    snprintf(path, sizeof path, "%s/h.csv", dir);
    write_file(path, "iteration,residual,residual_inf,time_s\n"
                     "0,1,1,0\n1,1e-3,1e-3,0.1\n2,1e-4,2e-4,0.2\n3,5e-5,6e-5,0.3\n");
    bench_history h;
    int rd = bench_history_read(path, &h, msg, sizeof msg);
    ok(rd == 0 && h.n == 4, "history: four sweeps read");
    ok(rd == 0 && bench_history_reach(&h, 1e-4) == 2,
       "history: a residual equal to the level reaches it (sweep 2 at 1e-4)");
    ok(rd == 0 && bench_history_reach(&h, 1e-3) == 1, "history: reach 1e-3 at sweep 1");
    ok(rd == 0 && bench_history_reach(&h, 9.9999e-5) == 3,
       "history: just below the equal value: the next sweep");
    ok(rd == 0 && bench_history_reach(&h, 1e-5) == -1, "history: never reached gives -1");
    ok(rd == 0 && bench_history_min(&h) == 5e-5, "history: smallest residual 5e-5");
    ok(rd == 0 && h.t[3] == 0.3 && h.rinf[2] == 2e-4, "history: time and inf columns kept");
    bench_history_free(&h);
}

static void csv(const char *dir)
{
    char path[4200], msg[4400];
    bench_csvw w;
    static const char *const head[] = {"name", "value", "text"};
    int rc = bench_csvw_open(&w, "test", dir, "q.csv", 1, 3, head);
    if (rc == 0) {
        bench_csvw_str(&w, "a,b");
        bench_csvw_num(&w, 1.5, "%g");
        bench_csvw_str(&w, "say \"hi\"\nthen go");
        bench_csvw_end(&w);
        bench_csvw_str(&w, "plain");
        bench_csvw_num(&w, NAN, "%g");
        bench_csvw_str(&w, "");
        bench_csvw_end(&w);
        rc = bench_csvw_close(&w, "test");
    }
    ok(rc == 0, "csv: written");
    snprintf(path, sizeof path, "%s/q.csv", dir);
    bench_csv T;
    int rd = bench_csv_read(path, &T, msg, sizeof msg);
    ok(rd == 0 && T.ncol == 3 && T.nrow == 2, "csv: two rows of three columns read back");
    ok(rd == 0 && !strcmp(bench_csv_get(&T, 0, 0), "a,b"), "csv: a comma inside quotes");
    ok(rd == 0 && !strcmp(bench_csv_get(&T, 0, 2), "say \"hi\"\nthen go"),
       "csv: doubled quotes and a line break inside quotes");
    ok(rd == 0 && bench_csv_num(&T, 0, 1) == 1.5 && isnan(bench_csv_num(&T, 1, 1)),
       "csv: a number, and an empty field for NaN");
    if (rd == 0) bench_csv_free(&T);
    FILE *f = fopen(path, "r");
    int c = f ? fgetc(f) : EOF;
    if (f) fclose(f);
    ok(c == 'n', "csv: no comment line before the header");
    snprintf(path, sizeof path, "%s/c.csv", dir);
    write_file(path, "# an old provenance line\nx,y\r\n1,2\r\n\r\n3,\r\n");
    rd = bench_csv_read(path, &T, msg, sizeof msg);
    ok(rd == 0 && T.nrow == 2 && !strcmp(T.head[1], "y") && !strcmp(bench_csv_get(&T, 1, 1), ""),
       "csv: comment before the header, CRLF, blank line and an empty last field");
    if (rd == 0) bench_csv_free(&T);
    /* malformed: refused with one message naming the line (a cut or damaged file) */
    static const char *const bad[][2] = {
        {"x,y\n1,2\n3\n", ":3: 1 fields where the header has 2"},      /* a short row */
        {"x,y\n1,2,3\n", ":2: 3 fields where the header has 2"},        /* a long row */
        {"x,y\n\"a\nb,2\n", ":2: a quoted field is never closed"},
        {"x,y\n1,2\n3,4", "the last line has no line break"},           /* cut short */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_file(path, bad[k][0]);
        rd = bench_csv_read(path, &T, msg, sizeof msg);
        ok(rd != 0 && strstr(msg, bad[k][1]) && strstr(msg, path),
           "csv: refused, naming the file: %s", bad[k][1]);
        if (rd == 0 || !strstr(msg, bad[k][1])) printf("# got: %s\n", rd == 0 ? "read" : msg);
        if (rd == 0) bench_csv_free(&T);
    }
    /* the same parser a record at a time: the records the whole-file reader gives, the line
     * each starts on, a last line without its line break read, an open quote refused */
    write_file(path, "# note\nx,y\r\n\n\"a\nb\",\"c\"\"d\"\n1,2");
    bench_csv_stream S;
    int sr = bench_csv_stream_open(&S, path, msg, sizeof msg), n1 = -9, n2 = -9, n3 = -9, n4 = -9;
    int l2 = 0, l3 = 0, same = 0, last = 0;
    if (sr == 0) {
        n1 = bench_csv_next(&S, msg, sizeof msg);
        same = n1 == 2 && !strcmp(S.field[0], "x") && !strcmp(S.field[1], "y");
        n2 = bench_csv_next(&S, msg, sizeof msg);
        l2 = S.line;
        same = same && n2 == 2 && !strcmp(S.field[0], "a\nb") && !strcmp(S.field[1], "c\"d");
        n3 = bench_csv_next(&S, msg, sizeof msg);
        l3 = S.line;
        last = n3 == 2 && !strcmp(S.field[0], "1") && !strcmp(S.field[1], "2");
        n4 = bench_csv_next(&S, msg, sizeof msg);
        bench_csv_stream_close(&S);
    }
    ok(same && l2 == 4 && l3 == 6, "csv stream: comment, CRLF, blank line, a quoted line break "
       "and doubled quotes; records start on lines 4 and 6 (got %d, %d)", l2, l3);
    ok(last && n4 == 0, "csv stream: a last line without its line break is read, then the end");
    write_file(path, "x,y\n\"a\nb,2\n");
    sr = bench_csv_stream_open(&S, path, msg, sizeof msg);
    if (sr == 0) {
        n1 = bench_csv_next(&S, msg, sizeof msg);
        n2 = bench_csv_next(&S, msg, sizeof msg);
        bench_csv_stream_close(&S);
    }
    ok(sr == 0 && n1 == 2 && n2 == -1 && strstr(msg, ":2: a quoted field is never closed") &&
       strstr(msg, path), "csv stream: an open quote refused, naming file and line");
    sr = bench_csv_stream_open(&S, "/nonexistent/x.csv", msg, sizeof msg);
    ok(sr == -1 && strstr(msg, "/nonexistent/x.csv: cannot read"),
       "csv stream: a missing file refused, naming it");
}

static int contains_in_order(const char *text, const char *a, const char *b)
{
    const char *x = strstr(text, a), *y = strstr(text, b);
    return x && y && x < y;
}

static const bench_claim_def defs[5] = {
    {.id = "met", .source = "Someone 2020, Sec. 1", .quote = "about half", .metric = "ratio",
     .band = "in [0.35, 0.65]", .b = {{0.35, 0.65}}},
    {.id = "missed", .source = "Someone 2020, Sec. 2", .quote = "about half, again",
     .metric = "ratio", .band = "in [0.35, 0.65]", .b = {{0.35, 0.65}}},
    {.id = "untested", .source = "Someone 2020, Sec. 3", .quote = "fastest, always",
     .metric = "time", .band = "none fixed"},
    {.id = "ours", .kind = BENCH_FINDING, .source = "this suite", .quote = "equal, \"exactly\"",
     .metric = "sweeps", .band = "equal", .b = {{0, 0}}},
    {.id = "partial", .source = "Someone 2020, Sec. 4", .quote = "on every scene",
     .metric = "ratio", .band = "in [0, 1]", .b = {{0, 1}}},
};

/* the verdicts the kit adds: qualified, not decidable, an existence claim, bands */
static void claims_rules(void)
{
    static const bench_claim_def d[6] = {
        {.id = "spread", .quote = "half", .b = {{0.4, 0.6}}},
        {.id = "timed", .quote = "faster", .rule = BENCH_RULE_TIMED, .b = {{0, 1 - 1e-12}}},
        {.id = "exists", .quote = "somewhere", .need = 1, .b = {{2, INFINITY}}},
        {.id = "bands", .quote = "two things", .b = {{1, 1}, {0, 0.01}}},
        {.id = "two", .quote = "two of three", .need = 2, .b = {{0, 0.8}}},
        {.id = "noisy", .quote = "a ratio", .b = {{0.9, 1.1}}},
    };
    bench_claim c[6];
    bench_claims_init(c, d, 6);
    const double crossing[5] = {0.38, 0.45, 0.5, 0.55, 0.58};   /* median 0.5, min 0.38 */
    bench_claim_spread(&c[0], "pool", crossing, 5, "%.2f");
    ok(bench_claim_verdict(&c[0]) == BENCH_QUALIFIED && c[0].nqual == 1 &&
           !strcmp(bench_verdict_str(BENCH_QUALIFIED), "held, qualified") &&
           strstr(c[0].numbers, "pool median 0.50 [0.38, 0.58] (5)"),
       "claims: median in the band, min 0.38 below 0.4: held, qualified");
    const double inside[2] = {0.45, 0.55};
    bench_claim_spread(&c[5], "a", inside, 2, "%.2f");
    ok(bench_claim_verdict(&c[5]) == BENCH_NOT_HELD, "claims: median 0.5 outside [0.9, 1.1]: "
       "did not hold");
    const double ratio[3] = {1.2, 1.3, 1.4}, noise[3] = {0.7, 0.9, 2.2}, clear[3] = {0.5,
                                                                                  0.55, 0.6};
    bench_claim_timed(&c[1], "b0.1", ratio, 3, noise, 3, "%.2f");
    ok(bench_claim_verdict(&c[1]) == BENCH_UNDECIDABLE && c[1].nfail == 0 &&
           strstr(c[1].numbers, "noise control [0.70, 2.20]") &&
           !strcmp(bench_verdict_str(BENCH_UNDECIDABLE), "not decidable"),
       "claims: a timing ratio 1.3 > 1 inside its noise control [0.7, 2.2]: not decidable");
    bench_claim_timed(&c[1], "b0.5", clear, 3, noise, 3, "%.2f");
    ok(bench_claim_verdict(&c[1]) == BENCH_UNDECIDABLE, "claims: one undecided case keeps the "
       "claim not decidable");
    bench_claims_init(&c[1], &d[1], 1);
    /* the allowance (a factor 1 + BENCH_TIMING_ALLOWANCE) decides beside a tight noise
     * control: tests/harness/test_verdict.c has its edges */
    const double tight[3] = {0.97, 1.0, 1.03}, fast[3] = {0.3, 0.35, 0.4},
                 slow[3] = {2.2, 2.3, 2.4};
    bench_claim_timed(&c[1], "b0.5", fast, 3, tight, 3, "%.2f");
    ok(bench_claim_verdict(&c[1]) == BENCH_HELD, "claims: 0.35, clear of 1 by the allowance, "
       "and in the band: held");
    bench_claim_timed(&c[1], "b0.9", slow, 3, tight, 3, "%.2f");
    ok(bench_claim_verdict(&c[1]) == BENCH_NOT_HELD, "claims: 2.3, clear of 1 by the "
       "allowance, outside the band: did not hold");
    bench_claims_init(&c[1], &d[1], 1);
    bench_claim_value(&c[1], "no noise", 0.5, "%.2f");
    ok(bench_claim_verdict(&c[1]) == BENCH_UNDECIDABLE && strstr(c[1].numbers, "no noise "
       "control"), "claims: a timing case without a noise control: not decidable");
    bench_claim_value(&c[2], "pool", 1.3, "%.1f");
    ok(bench_claim_verdict(&c[2]) == BENCH_NOT_HELD, "claims: existence, no case yet in the "
       "band: did not hold");
    bench_claim_value(&c[2], "spheres", 2.5, "%.1f");
    ok(bench_claim_verdict(&c[2]) == BENCH_HELD, "claims: existence, one case of two: held");
    bench_claim_flag(&c[3], 0, "quiet", 1);
    bench_claim_in(&c[3], 1, "stretch", 0.02, "%.2f");
    ok(bench_claim_verdict(&c[3]) == BENCH_NOT_HELD && strstr(c[3].numbers, "quiet yes") &&
           strstr(c[3].numbers, "stretch 0.02 (no)"),
       "claims: a flag on band 0 held, 0.02 on band 1 [0, 0.01] failed: did not hold");
    bench_claim_value(&c[4], "a", 0.5, "%.1f");
    bench_claim_value(&c[4], "b", 0.9, "%.1f");
    bench_claim_missing(&c[4], "c: not measured");
    ok(bench_claim_verdict(&c[4]) == BENCH_NOT_TESTED, "claims: two of three, one passed, one "
       "missing: not tested");
    bench_claim_value(&c[4], "d", 0.7, "%.1f");
    ok(bench_claim_verdict(&c[4]) == BENCH_HELD, "claims: two of three passed: held");
    char rule[200];
    ok(!strcmp(bench_rule_str(&d[4], rule, sizeof rule), "at least 2 cases in the band") &&
           !strcmp(bench_rule_str(&d[1], rule, sizeof rule),
                   "every case in the band, each clear of every band edge by its timing "
                   "uncertainty"),
       "claims: the rule in words (%s)", rule);
}

/* the one comparability rule of whole simulations */
static void state_rule(void)
{
    char why[160];
    bench_state ref = {.ke = 1.4e-4, .height = 1.0, .contacts = 400, .stands = -1,
                       .escale = 910, .r = 0.21};
    bench_state x = ref;
    x.ke = 1e-5;   /* two piles at rest: far below the floor 0.91 J */
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 1 && !why[0],
       "state: 1e-5 J and 1.4e-4 J at rest are the same state");
    x.ke = 2.0, ref.ke = 4e-5;   /* a 5e4x gap */
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "kinetic"),
       "state: 2 J against 4e-5 J (above the floor) is not");
    x.ke = 10, ref.ke = 19;   /* |9| <= 0.5 * 19 + 0.91 */
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 1, "state: 10 J vs 19 J: within 50%%");
    x.ke = 8.5;               /* |10.5| > 0.5 * 19 + 0.91 = 10.41 */
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0, "state: 8.5 J vs 19 J: not");
    x.ke = ref.ke, x.height = 1.0 + 0.11;   /* > 0.5 r = 0.105 */
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "centre"),
       "state: centre of mass 0.11 m off (> r/2): not, reason named");
    x.height = 1.10, x.contacts = 439;
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 1, "state: 0.10 m, 9.75%% contacts");
    x.contacts = 441;
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "contacts"),
       "state: 10.25%% more contacts: not");
    x.contacts = 400, x.stands = 0, ref.stands = 1;
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "fell"),
       "state: the stack fell where the reference's stands: not");
    x.stands = 1, x.ke = NAN;
    ok(bench_state_comparable(&x, &ref, why, sizeof why) == 0, "state: a diverged (NaN) "
       "kinetic energy: not");
}

static void claims(const char *dir)
{
    bench_claim c[5];
    bench_claims_init(c, defs, 5);
    bench_claim_value(&c[0], "pool", 0.5, "%.2f");
    bench_claim_value(&c[0], "stack", 0.65, "%.2f");
    bench_claim_value(&c[1], "pool", 0.5, "%.2f");
    bench_claim_value(&c[1], "stack", 0.88, "%.2f");
    bench_claim_untested(&c[2], "no threshold was fixed");
    bench_claim_value(&c[3], "766 - 766 =", 0, "%.0f");
    bench_claim_value(&c[4], "pool", 0.5, "%.2f");
    bench_claim_value(&c[4], "stack", NAN, "%.2f");
    ok(bench_claim_verdict(&c[0]) == BENCH_HELD, "claims: threshold met on every case: held");
    ok(bench_claim_verdict(&c[1]) == BENCH_NOT_HELD,
       "claims: one case outside the threshold: did not hold");
    ok(strstr(c[1].numbers, "stack 0.88 (no)") != NULL, "claims: the failing case is marked");
    ok(bench_claim_verdict(&c[2]) == BENCH_NOT_TESTED && c[2].reason[0],
       "claims: not tested carries its reason");
    ok(bench_claim_verdict(&c[4]) == BENCH_NOT_TESTED && strstr(c[4].reason, "stack"),
       "claims: a case not measured makes it not tested, with the reason");
    bench_claim none;
    bench_claims_init(&none, defs, 1);
    ok(bench_claim_verdict(&none) == BENCH_NOT_TESTED, "claims: no case: not tested");
    char path[4200];
    snprintf(path, sizeof path, "%s/claims.md", dir);
    FILE *f = fopen(path, "w+");
    if (f) {
        bench_claims_md(f, c, 5);
        long n = ftell(f);
        char *text = calloc((size_t)n + 1, 1);
        rewind(f);
        if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
            ok(contains_in_order(text, "## Claims of the source", "## Findings of this suite"),
               "claims: two lists, source first");
            ok(contains_in_order(text, "## Findings of this suite", "equal, \"exactly\""),
               "claims: a finding is printed in the findings list");
            ok(contains_in_order(text, "about half", "## Findings of this suite"),
               "claims: a source claim is printed in the source list");
            ok(strstr(text, "**did not hold**: about half, again") != NULL &&
                   strstr(text, "Not tested, because no threshold was fixed") != NULL,
               "claims: verdicts and reasons printed");
        } else ok(0, "claims: Markdown read back");
        free(text);
        fclose(f);
    } else ok(0, "claims: Markdown written");
    ok(bench_claims_csv("test", dir, 1, c, 5) == 0, "claims: claims.csv written");
    char msg[4400];
    bench_csv T;
    snprintf(path, sizeof path, "%s/claims.csv", dir);
    int rd = bench_csv_read(path, &T, msg, sizeof msg);
    int cv = rd == 0 ? bench_csv_col(&T, "verdict") : -1;
    int cs = rd == 0 ? bench_csv_col(&T, "statement") : -1;
    ok(rd == 0 && T.nrow == 5 && !strcmp(bench_csv_get(&T, 1, cv), "did not hold") &&
           !strcmp(bench_csv_get(&T, 3, cs), "equal, \"exactly\""),
       "claims: claims.csv reads back with verdicts and quoted statements");
    if (rd == 0) bench_csv_free(&T);
}

static void groups(void)
{
    double x[4] = {0, 1, 2, 3}, a[4] = {1, 0.1, 0.01, 1e-3}, b[4] = {1, 0.1, 0.01, 1e-3};
    double c[4] = {1, 0.1, 0.0101, 1e-3}, d[4] = {1, 0.1, 0.01, 1.0004e-3};
    bench_series S[4] = {{"pgs", 4, x, a, 0}, {"psor", 4, x, c, 0}, {"amgs-D", 4, x, b, 0},
                         {"near", 4, x, d, 0}};
    bench_fig F;
    bench_fig_init(&F);
    F.ns = 4;
    F.s = S;
    int g[4];
    bench_fig_groups(&F, g);
    ok(g[0] == 0 && g[2] == 0, "figures: identical series are drawn once (amgs-D with pgs)");
    ok(g[1] == 1, "figures: a series 1%% away is drawn on its own");
    ok(g[3] == 0, "figures: a series within 0.1%% at every point is named with the first");
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    char sub[4096], msg[4400];
    snprintf(sub, sizeof sub, "%s/test_report.d", dir);
    if (bench_mkdir_p(sub, msg, sizeof msg) != 0) {
        printf("Bail out! %s\n", msg);
        return 1;
    }
    history(sub);
    csv(sub);
    claims(sub);
    claims_rules();
    state_rule();
    groups();
    return tap_done();
}
