/* run.c: `lcpbench run SUITE --out DIR': its arguments and help; the grid engine runs it
 * (grid/run.c, bench_run_folder). */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *CMD = "run";

static void help(void)
{
    printf("usage: lcpbench run SUITE --out DIR [--force] [--no-plots] [--shard K/N]\n"
           "\n"
           "Run a grid of instances x solver settings: SUITE is a built-in name or a suite\n"
           "file.  Writes DIR/runs.csv (one row per run), DIR/history/INSTANCE__LABEL.csv\n"
           "(iteration,residual,residual_inf,time_s; sweep k at k x the timed seconds per\n"
           "sweep), DIR/instances/ (captured scenes), DIR/provenance.json and DIR/plots/\n"
           "(residual against iteration and time per instance, .gp + .png + .pdf).\n"
           "Refuses a non-empty DIR unless --force.  The folder is written as DIR.tmpPID\n"
           "and renamed into place when complete (--force replaces DIR whole then); SIGINT\n"
           "or SIGTERM leave the previous DIR as it was and no temporary file.  While it\n"
           "runs DIR.lock beside DIR is locked: a second run into DIR is refused (a lock\n"
           "left by a process that died holds nothing and is taken over).\n"
           "--shard K/N runs the cells c (instance x solver line, counted from 0 in the\n"
           "grid's order) with c mod N = K-1 and writes DIR/shard.csv; `lcpbench merge'\n"
           "joins the N shard folders into the folder the whole run writes.\n"
           "Under `mpirun -np N' (a build with MPI) rank 0 deals the cells to N-1 worker\n"
           "ranks and writes the same folder; bind each rank to a core (--bind-to core).\n"
           "\n"
           "built-in suites:\n");
    bench_list_suites(stdout);
    printf("\n");
    bench_suite_format_help(stdout);
    printf("\nruns.csv columns (results/README.md): ");
    bench_runs_head(stdout);
}

typedef struct run_args {
    const char *suite, *out;
    int force, no_plots, shard_k, shard_n;
} run_args;

static int shard(const char *cmd, const char *v, void *to)
{
    run_args *a = to;
    char *e1, *e2 = NULL;
    long k = strtol(v, &e1, 10), n = *e1 == '/' ? strtol(e1 + 1, &e2, 10) : 0;
    if (*e1 != '/' || *e2 || n < 1 || n > 1000000 || k < 1 || k > n) {
        bench_error(cmd, "--shard: '%s' is not K/N with 1 <= K <= N", v);
        return -1;
    }
    a->shard_k = (int)k;
    a->shard_n = (int)n;
    return 0;
}

static int suite_word(const char *cmd, const char *w, void *to)
{
    run_args *a = to;
    if (a->suite) {
        bench_error(cmd, "one suite at a time ('%s' and '%s')", a->suite, w);
        return -1;
    }
    a->suite = w;
    return 0;
}

int bench_cmd_run(int argc, char **argv)
{
    run_args a = {0};
    const bench_arg args[] = {
        {"--force", BENCH_ARG_FLAG, &a.force, NULL, "replace a non-empty DIR"},
        {"--no-plots", BENCH_ARG_FLAG, &a.no_plots, NULL, "no figures"},
        {"--shard", BENCH_ARG_VALUE, &a, shard, "K/N: the cells c with c mod N = K-1"},
        {"--out", BENCH_ARG_VALUE, &a.out, NULL, "the run folder"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), suite_word, &a, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r == BENCH_ARGS_HELP ? 0 : 2;
    const char *suite = a.suite, *out = a.out;
    if (!suite) {
        bench_error(CMD, "no suite given (lcpbench run --help)");
        return 2;
    }
    if (!out) {
        bench_error(CMD, "--out DIR is required");
        return 2;
    }
    if (!bench_suite_builtin(suite) && !strchr(suite, '/') && !strchr(suite, '.')) {
        if (access(suite, F_OK) != 0) {  /* a name that is no file (bench_suite_load reads it) */
            bench_error(CMD, "unknown suite '%s' (built-in: smoke, amgs, friction; or a file)",
                        suite);
            return 2;
        }
    }
    return bench_run_folder(suite, out, a.force, !a.no_plots, a.shard_k, a.shard_n, argc, argv);
}
