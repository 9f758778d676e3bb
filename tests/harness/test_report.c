/* test_report.c: the report kit (bench/kit/kit.h) on hand-made data, as TAP: the history
 * reader's "at or below" (a residual exactly equal to the level counts), the RFC 4180 CSV
 * reader and writer round trip, claims whose verdicts follow from their numbers and are
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
}

static int contains_in_order(const char *text, const char *a, const char *b)
{
    const char *x = strstr(text, a), *y = strstr(text, b);
    return x && y && x < y;
}

static void claims(const char *dir)
{
    bench_claim c[5] = {
        {.id = "met", .source = "Someone 2020, Sec. 1", .statement = "about half",
         .metric = "ratio", .threshold = "in [0.35, 0.65]", .lo = 0.35, .hi = 0.65},
        {.id = "missed", .source = "Someone 2020, Sec. 2", .statement = "about half, again",
         .metric = "ratio", .threshold = "in [0.35, 0.65]", .lo = 0.35, .hi = 0.65},
        {.id = "untested", .source = "Someone 2020, Sec. 3", .statement = "fastest, always",
         .metric = "time", .threshold = "none fixed"},
        {.id = "ours", .kind = BENCH_FINDING, .source = "this suite",
         .statement = "equal, \"exactly\"", .metric = "sweeps", .threshold = "equal",
         .lo = 0, .hi = 0},
        {.id = "partial", .source = "Someone 2020, Sec. 4", .statement = "on every scene",
         .metric = "ratio", .threshold = "in [0, 1]", .lo = 0, .hi = 1},
    };
    bench_claim_value(&c[0], "pool", 0.5, "%.2f");
    bench_claim_value(&c[0], "stack", 0.65, "%.2f");
    bench_claim_value(&c[1], "pool", 0.5, "%.2f");
    bench_claim_value(&c[1], "stack", 0.88, "%.2f");
    bench_claim_untested(&c[2], "no threshold was fixed");
    bench_claim_case(&c[3], 1, "%d vs %d", 766, 766);
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
    bench_claim none = {.id = "none"};
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
    groups();
    return tap_done();
}
