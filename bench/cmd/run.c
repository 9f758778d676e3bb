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

int bench_cmd_run(int argc, char **argv)
{
    const char *suite = NULL, *out = NULL;
    int force = 0, plots = 1, shard_k = 0, shard_n = 0;
    for (int k = 1; k < argc; k++) {
        const char *v;
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if (strcmp(argv[k], "--force") == 0) force = 1;
        else if (strcmp(argv[k], "--no-plots") == 0) plots = 0;
        else if ((r = bench_opt(argc, argv, &k, "--shard", &v)) != 0) {
            char *e1, *e2;
            long a = r > 0 ? strtol(v, &e1, 10) : 0, b = r > 0 && *e1 == '/' ? strtol(e1 + 1, &e2, 10) : 0;
            if (r < 0) return 2;
            if (*e1 != '/' || *e2 || b < 1 || b > 1000000 || a < 1 || a > b) {
                bench_error(CMD, "--shard: '%s' is not K/N with 1 <= K <= N", v);
                return 2;
            }
            shard_k = (int)a;
            shard_n = (int)b;
        }
        else if ((r = bench_opt(argc, argv, &k, "--out", &v)) != 0) {
            if (r < 0) return 2;
            out = v;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            bench_error(CMD, "unknown option '%s' (lcpbench run --help)", argv[k]);
            return 2;
        } else if (suite) {
            bench_error(CMD, "one suite at a time ('%s' and '%s')", suite, argv[k]);
            return 2;
        } else suite = argv[k];
    }
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
    return bench_run_folder(suite, out, force, plots, shard_k, shard_n, argc, argv);
}
