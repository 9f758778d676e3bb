/* test_settings.c: the settings table of the harness (bench/settings.c) against the
 * library.  For every registered solver and every solver setting (one that lives in
 * lcp_options) that the table says the solver does NOT use, the solver is run twice on the
 * same problems, with the default and with a changed value: the status, the sweeps and every
 * bit of z must be equal.  A solver that starts reading an option without its line in the
 * table being updated fails here, named (`ok 7 - pgs-block ignores omega').  Then the one
 * number reader: fractions, ranges, words.
 */
#include "kit.h"
#include "tap.h"
#include "testprob.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a valid value of setting k other than its default, or NULL */
static const char *changed(const bench_setting *k, char *buf, size_t len)
{
    bench_settings d, s;
    bench_settings_default(&d);
    char msg[256], dtext[64], stext[64];
    static const char *const nums[] = {"0.5", "1.5", "3", "0.001", "2", "7"};
    for (int c = 0;; c++) {
        if (k->kind == BENCH_ENUM) {
            if (!k->names(c)) return NULL;
            snprintf(buf, len, "%s", k->names(c));
        } else if (k->kind == BENCH_BOOL) {
            if (c > 1) return NULL;
            snprintf(buf, len, "%d", c);
        } else {
            if (c >= (int)(sizeof nums / sizeof nums[0])) return NULL;
            snprintf(buf, len, "%s", nums[c]);
        }
        s = d;
        if (bench_setting_set(&s, k, buf, msg, sizeof msg) != 0) continue;
        bench_setting_text(&d, k, dtext, sizeof dtext);
        bench_setting_text(&s, k, stext, sizeof stext);
        if (strcmp(dtext, stext)) return buf;
    }
}

int main(void)
{
    lcp_problem P[2];
    if (tp_contact(&P[0], 3, 12, 30, 0, 0.5, 0.01, 11) != 0 ||
        tp_contact(&P[1], 3, 12, 30, 2, 0.5, 0.01, 12) != 0) {
        printf("Bail out! test problems\n");
        return 1;
    }
    int ns, nk, checked = 0;
    const lcp_solver *sv = bench_solvers(&ns);
    const bench_setting *t = bench_settings_table(&nk);
    for (int s = 0; s < ns; s++)
        for (int k = 0; k < nk; k++) {
            char buf[64];
            const char *v = changed(&t[k], buf, sizeof buf);
            if (t[k].at >= sizeof(lcp_options) || bench_setting_uses(&t[k], &sv[s]) || !v)
                continue;                      /* harness settings; what the solver uses */
            int same = 1;
            for (int p = 0; p < 2; p++) {
                bench_settings a, b;
                char msg[256];
                bench_settings_default(&a);
                b = a;
                a.opt.max_iter = b.opt.max_iter = 40;
                if (bench_setting_set(&b, &t[k], v, msg, sizeof msg) != 0) same = 0;
                double za[400] = {0}, zb[400] = {0};
                lcp_info ia, ib;
                lcp_status sa = lcp_solve(&sv[s], &P[p], &a.opt, za, &ia);
                lcp_status sb = lcp_solve(&sv[s], &P[p], &b.opt, zb, &ib);
                same = same && P[p].m <= 400 && sa == sb && ia.iterations == ib.iterations &&
                       !memcmp(za, zb, sizeof za);
            }
            ok(same, "%s ignores %s (%s=%s: the same status, sweeps and z)", sv[s].name,
               t[k].key, t[k].key, v);
            checked++;
        }
    ok(checked >= 20, "%d solver x setting pairs marked unused were checked", checked);

    /* the families' settings (lcp/README.md, "The field's solver families"): the default in
     * the table is the library's, and each solver said to use one reads it: a changed value
     * changes its sweeps or its z on the frictionless problem */
    static const char *const fam[] = {"restart", "projected", "pgs_sweeps", "sm_steps",
                                      "inner_max", "forcing", "step", "memory", "rho",
                                      "sigma", "relax"};
    int used = 0;
    for (size_t f = 0; f < sizeof fam / sizeof fam[0]; f++) {
        const bench_setting *k = bench_setting_find(fam[f]);
        if (!k) {
            ok(0, "setting %s is in the table", fam[f]);
            continue;
        }
        bench_settings d;
        bench_settings_default(&d);
        lcp_options lo;
        lcp_options_default(&lo);
        char dtext[64];
        bench_setting_text(&d, k, dtext, sizeof dtext);
        ok(!memcmp((const char *)&d + k->at, (const char *)&lo + (k->at - offsetof(bench_settings, opt)),
                   k->size) && (*k->dflt ? strtod(dtext, NULL) == strtod(k->dflt, NULL) : !strcmp(dtext, "")),
           "%s: default '%s' is lcp_options_default's", fam[f], k->dflt);
        for (int s = 0; s < ns; s++) {
            if (!bench_setting_uses(k, &sv[s])) continue;
            char buf[64];
            const char *v = changed(k, buf, sizeof buf);
            bench_settings a, b;
            char msg[256];
            bench_settings_default(&a);
            a.opt.max_iter = 40;
            a.opt.tol = 1e-14;
            b = a;
            int set = v && bench_setting_set(&b, k, v, msg, sizeof msg) == 0;
            double za[400] = {0}, zb[400] = {0};
            lcp_info ia, ib;
            lcp_status sa = lcp_solve(&sv[s], &P[0], &a.opt, za, &ia);
            lcp_status sb = lcp_solve(&sv[s], &P[0], &b.opt, zb, &ib);
            ok(set && P[0].m <= 400 && sa >= 0 && sb >= 0 &&
                   (ia.iterations != ib.iterations || memcmp(za, zb, sizeof za)),
               "%s reads %s (%s=%s: another z; %s, %s)", sv[s].name, fam[f], fam[f],
               v ? v : "?", lcp_status_str(sa), lcp_status_str(sb));
            used++;
        }
    }
    ok(used == 16, "%d solver x family setting pairs checked as read (16)", used);

    double v;
    ok(bench_parse_number("4/3", &v) == 0 && v == 4.0 / 3.0, "4/3 reads as 4.0/3.0");
    ok(bench_parse_number("1e-8", &v) == 0 && v == 1e-8, "1e-8 reads");
    ok(bench_parse_number("1/0", &v) != 0, "1/0 is refused");
    ok(bench_parse_number("nan", &v) != 0 && bench_parse_number("inf", &v) != 0,
       "nan and inf are refused");
    ok(bench_parse_number("1.5x", &v) != 0 && bench_parse_number("", &v) != 0,
       "trailing text and empty text are refused");
    bench_settings s;
    char msg[256], text[64];
    bench_settings_default(&s);
    const bench_setting *om = bench_setting_find("omega");
    ok(bench_setting_set(&s, om, "2", msg, sizeof msg) != 0, "omega 2 is outside (0,2)");
    ok(bench_setting_set(&s, om, "auto", msg, sizeof msg) == 0 && s.opt.omega_auto == 1,
       "omega auto sets omega_auto");
    ok(bench_setting_set(&s, om, "4/3", msg, sizeof msg) == 0 && s.opt.omega_auto == 0 &&
           s.opt.omega == 4.0 / 3.0,
       "omega 4/3 after auto: a number again");
    bench_setting_text(&s, om, text, sizeof text);
    ok(!strcmp(text, "1.3333333333333333"), "omega 4/3 is written 1.3333333333333333 (%s)", text);
    ok(bench_setting_set(&s, bench_setting_find("--check-every"), "0", msg, sizeof msg) != 0,
       "every 0 is outside [1,1000000]");
    ok(bench_setting_set(&s, bench_setting_find("seed"), "12345678901", msg, sizeof msg) != 0,
       "a seed past 2^31 is refused");
    ok(bench_setting_set(&s, bench_setting_find("order"), "perm", msg, sizeof msg) != 0,
       "order perm needs a file (solve only)");
    bench_setting_text(&s, bench_setting_find("beta"), text, sizeof text);
    ok(!strcmp(text, ""), "beta not given: empty (the solver's default)");
    ok(s.given == ((1ull << (om - bench_settings_table(NULL)))), "only omega is marked given");
    /* threads=auto: the free cores at the solve's start, in [1, cores]; a number after it
     * is a number again; the text reads back; the solvers that do not thread refuse it */
    bench_settings ts;
    bench_settings_default(&ts);
    const bench_setting *th = bench_setting_find("--threads");
    ok(th && bench_setting_set(&ts, th, "auto", msg, sizeof msg) == 0 && ts.opt.threads_auto == 1,
       "threads auto sets threads_auto");
    bench_setting_text(&ts, th, text, sizeof text);
    ok(!strcmp(text, "auto"), "threads auto is written auto (%s)", text);
    ok(bench_setting_set(&ts, th, "0", msg, sizeof msg) != 0 && strstr(msg, "or auto"),
       "threads 0 is refused, the message names auto (%s)", msg);
    ok(bench_setting_set(&ts, th, "3", msg, sizeof msg) == 0 && ts.opt.threads_auto == 0 &&
           ts.opt.threads == 3, "threads 3 after auto: a number again");
    bench_setting_set(&ts, th, "auto", msg, sizeof msg);
    ok(bench_settings_unused(&ts, bench_solver_find("pgs")) == th &&
           bench_settings_unused(&ts, bench_solver_find("pgs-color")) == NULL &&
           bench_settings_unused(&ts, bench_solver_find("jacobi")) == NULL,
       "threads auto: used by pgs-color and jacobi, refused for pgs");
    int cores = (int)sysconf(_SC_NPROCESSORS_ONLN), f0 = lcp_threads_free();
    lcp_info ia, i1;
    double *za = calloc((size_t)P[0].m + 1, sizeof(double));
    double *z1 = calloc((size_t)P[0].m + 1, sizeof(double));
    ts.opt.tol = -1.0;
    ts.opt.max_iter = 30;
    lcp_status sa = lcp_solve(bench_solver_find("jacobi"), &P[0], &ts.opt, za, &ia);
    int f1 = lcp_threads_free();
    ts.opt.threads_auto = 0;
    ts.opt.threads = 1;
    lcp_status s1 = lcp_solve(bench_solver_find("jacobi"), &P[0], &ts.opt, z1, &i1);
    ok(sa == s1 && ia.threads >= 1 && ia.threads <= cores &&
           ((ia.threads >= f0 && ia.threads <= f1) || (ia.threads >= f1 && ia.threads <= f0)) &&
           !memcmp(za, z1, (size_t)P[0].m * sizeof(double)),
       "jacobi threads=auto: %d threads (free before %d, after %d, of %d cores), z as on 1",
       ia.threads, f0, f1, cores);
    free(za);
    free(z1);
    lcp_problem_free(&P[0]);
    lcp_problem_free(&P[1]);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
