/* score.c: `lcpbench score INSTANCE [z.mtx] [--history FILE]': the harness's figures of merit
 * for answers computed anywhere (another library, another language, a GPU): the natural-map
 * residual r = z - mid(lo_eff, z - w, hi_eff) with w = A z + q computed by lcp_residual()
 * exactly as for the suite's own solvers (||r||_2, ||r||_inf, ||r||_2 / max(1, ||q||_2),
 * complementarity, bound violation) and, when the instance has zref.mtx, the distances
 * zdiff = ||z - zref||_inf / max(1, ||zref||_inf) and wdiff (the same in w).
 *
 * z.mtx: an m x 1 Matrix Market array (lcpbench solve --solution writes one).
 * --history FILE: a CSV of iterates, one per line, m numbers each (numpy.savetxt(FILE, Z,
 * delimiter=",") with Z of shape K x m writes one); an optional header line names the
 * columns, where `iteration' and `time_s' are taken as such and the other m columns are z.
 * Output: CSV on stdout, one row per scored point.  Cost: one product with A per point.
 */
#include "cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "score";

static void help(void)
{
    printf("usage: lcpbench score INSTANCE [Z.mtx] [--history FILE] [--factor-tol T|off]\n\n"
           "Scores answers computed elsewhere with the harness's own residual (the natural map\n"
           "r = z - mid(lo, z - w, hi), w = A z + q, friction bounds from z) and, when the\n"
           "instance has zref.mtx, the distances to the reference in z and in w.\n\n"
           "  Z.mtx           m x 1 Matrix Market array (lcpbench solve --solution writes one)\n"
           "  --history FILE  CSV of iterates, one per line, m numbers each; an optional header\n"
           "                  names the columns (`iteration' and `time_s' are read as such)\n"
           "  --factor-tol T  relative tolerance of A = J Minv J^T + diag(E) (default 1e-12;\n"
           "                  off: no test)\n\n"
           "Prints CSV: instance,point,iteration,time_s,residual,residual_inf,rel_residual,\n"
           "complementarity,infeasibility,zdiff,wdiff (point: the Z.mtx path, or `history').\n"
           "Exit status 0, 1 when a file is bad (one line naming file and line), 2 for usage.\n");
}

static void num(double v)
{
    if (isfinite(v)) printf(",%.6e", v);
    else printf(",");
}

/* one CSV row for the point z */
static void score_row(const lcp_problem *P, const char *inst, const char *point, long it,
                      double t, const double *z, double *w)
{
    lcp_residuals R;
    double zd = NAN, wd = NAN;
    lcp_residual(P, z, w, &R);
    if (P->zref) lcp_ref_distance(P, z, &zd, &wd);
    bench_csv_field(stdout, inst);
    printf(",");
    bench_csv_field(stdout, point);
    if (it >= 0) printf(",%ld", it);
    else printf(",");
    num(t);
    num(R.r2);
    num(R.rinf);
    num(R.rel);
    num(R.comp);
    num(R.infeas);
    num(zd);
    num(wd);
    printf("\n");
}

typedef struct score_ctx {
    const lcp_problem *P;
    const char *inst;
    double *w;
} score_ctx;

static void score_iterate(void *vctx, long it, double t, const double *z)
{
    score_ctx *c = vctx;
    score_row(c->P, c->inst, "history", it, t, z, c->w);
}

typedef struct score_words {
    const char *inst, *zfile;
} score_words;

/* the instance, then Z.mtx */
static int score_word(const char *cmd, const char *w, void *to)
{
    score_words *sw = to;
    if (!sw->inst) sw->inst = w;
    else if (!sw->zfile) sw->zfile = w;
    else {
        bench_error(cmd, "unexpected argument '%s' (one instance, one Z.mtx)", w);
        return -1;
    }
    return 0;
}

int bench_cmd_score(int argc, char **argv)
{
    const char *hist = NULL;
    score_words sw = {NULL, NULL};
    lcp_read_options ro;
    lcp_read_options_default(&ro);
    const bench_arg args[] = {
        {"--history", BENCH_ARG_VALUE, &hist, NULL, "score every iterate of FILE"},
        {"--factor-tol", BENCH_ARG_VALUE, &ro.factor_tol, bench_arg_factor_tol,
         "the reader's factor test"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), score_word, &sw, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r == BENCH_ARGS_HELP ? 0 : 2;
    const char *inst = sw.inst, *zfile = sw.zfile;
    if (!inst || (!zfile && !hist)) {
        bench_error(CMD, "needs an instance folder and Z.mtx and/or --history FILE");
        return 2;
    }
    lcp_problem P;
    lcp_problem_init(&P);
    char msg[4400];
    int rc = 0, mz = 0;
    double *z = NULL, *w = NULL;
    if (lcp_read_instance_opt(inst, &ro, &P, msg, sizeof msg) != LCP_OK) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    w = lcp_malloc((size_t)(P.m > 0 ? P.m : 1), sizeof *w);
    if (!w) {
        bench_error(CMD, "%s: out of memory", inst);
        rc = 1;
    }
    printf("instance,point,iteration,time_s,residual,residual_inf,rel_residual,"
           "complementarity,infeasibility,zdiff,wdiff\n");
    if (!rc && zfile) {
        if (lcp_read_vector(zfile, &mz, &z, msg, sizeof msg) != LCP_OK) {
            bench_error(CMD, "%s", msg);
            rc = 1;
        } else if (mz != P.m) {
            bench_error(CMD, "%s: %d rows, the instance %s has %d", zfile, mz, inst, P.m);
            rc = 1;
        } else {
            score_row(&P, inst, zfile, -1, NAN, z, w);
        }
        lcp_free(z);
        z = NULL;
    }
    if (!rc && hist) {
        z = lcp_malloc((size_t)(P.m > 0 ? P.m : 1), sizeof *z);
        score_ctx c = {&P, inst, w};
        rc = z ? bench_iterates_read(CMD, hist, P.m, z, score_iterate, &c) : 1;
        if (!z) bench_error(CMD, "%s: out of memory", inst);
    }
    bench_flush_stdout();
    lcp_free(z);
    lcp_free(w);
    lcp_problem_free(&P);
    return rc;
}
