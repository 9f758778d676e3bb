/* lcpbench.c: the command line of the suite (bench/README.md, "The command line").  One table of
 * subcommands; each subcommand lives in its own file and has --help. */
#include "cmd.h"
#include "prob.h"
#include "version.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_command {
    const char *name;
    bench_cmd_fn *fn;
    const char *summary;
} bench_command;

bench_cmd_fn bench_cmd_modal; /* modal.c */

static const bench_command commands[] = {
    {"list", bench_cmd_list, "list solvers, orderings (and scenes, tables)"},
    {"solve", bench_cmd_solve, "solve instance folders with named solvers, CSV on stdout"},
    {"capture", bench_cmd_capture, "step a scene and write the LCP of chosen steps as folders"},
    {"simulate", bench_cmd_simulate, "step a scene, one CSV line per step (stepper's solver)"},
    {"families", bench_cmd_families, "capture the hard problem families with a suite over them"},
    {"run", bench_cmd_run, "run a suite (instances x solvers): runs.csv, histories, plots"},
    {"plot", bench_cmd_plot, "redraw the convergence figures of a run folder"},
    {"profile", bench_cmd_profile, "performance and data profiles of a run folder"},
    {"table", bench_cmd_table, "regenerate a paper's table or figure (lcpbench list tables)"},
    {"merge", bench_cmd_merge, "join the shard folders of run --shard K/N into one run folder"},
    {"check", bench_cmd_check, "accuracy regression check against committed baselines"},
    {"modal", bench_cmd_modal, "spectrum of a scene's joint geometric stiffness, h_crit"},
    {"convert", bench_cmd_convert, "convert LCPs: instance folders, FCLIB, Siconos .dat, ODE"},
    {"score", bench_cmd_score, "the harness's residuals for an answer computed elsewhere"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: lcpbench COMMAND [options]   (lcpbench COMMAND --help)\n"
               "       lcpbench --version\n\ncommands:\n");
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        fprintf(f, "  %-10s %s\n", commands[k].name, commands[k].summary);
}

int bench_cmd_list(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    if (strcmp(what, "--help") == 0 || strcmp(what, "-h") == 0) {
        printf("usage: lcpbench list [solvers|orders|scenes|forms|tables|suites|settings]\n");
        return 0;
    }
    int all = strcmp(what, "all") == 0, known = 0;
    if (all || strcmp(what, "solvers") == 0) {
        int n;
        const lcp_solver *s = bench_solvers(&n);
        if (all) printf("solvers:\n");
        for (int k = 0; k < n; k++) printf("  %-18s %s\n", s[k].name, s[k].description);
        known = 1;
    }
    if (all || strcmp(what, "orders") == 0) {
        if (all) printf("orders (--order):\n");
        for (int o = LCP_ORDER_NATURAL; o <= LCP_ORDER_PERM; o++)
            printf("  %s%s\n", lcp_order_name((lcp_order)o), o == LCP_ORDER_PERM ? ":FILE" : "");
        known = 1;
    }
    if (all || strcmp(what, "scenes") == 0) {
        int n;
        const prob_scene *sc = prob_scenes(&n);
        if (all) printf("scenes (lcpbench capture|simulate SCENE --help: parameters):\n");
        for (int k = 0; k < n; k++)
            printf("  %-18s %dD  %s\n", sc[k].name, sc[k].dim, sc[k].description);
        known = 1;
    }
    if (all || strcmp(what, "tables") == 0) {
        if (all) printf("tables (lcpbench table NAME --out DIR):\n");
        bench_list_tables(stdout);
        known = 1;
    }
    if (all || strcmp(what, "suites") == 0) {
        if (all) printf("suites (lcpbench run SUITE --out DIR):\n");
        bench_list_suites(stdout);
        known = 1;
    }
    if (all || strcmp(what, "forms") == 0) {
        if (all) printf("forms (--form):\n");
        for (int f = LCP_FORM_AUTO; f <= LCP_FORM_MATRIX_FREE; f++)
            printf("  %s\n", lcp_form_name((lcp_form)f));
        known = 1;
    }
    if (all || strcmp(what, "settings") == 0) {
        if (all) printf("settings (solve --flag X, suite key=X):\n");
        bench_settings_list(stdout);
        known = 1;
    }
    if (!known) {
        bench_error("list", "unknown list '%s' (solvers, orders, scenes, forms, tables, suites, "
                            "settings)", what);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_blas_fit(argv);   /* under ulimit -v: OpenBLAS threads that cannot exist (util.c) */
    /* timing (bench/README.md, "Timing"): single-threaded BLAS unless the user says */
    if (!getenv("OPENBLAS_NUM_THREADS")) {
        setenv("OPENBLAS_NUM_THREADS", "1", 0);
        openblas_set_num_threads(1);
    }
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return bench_stdout_status("--help", argc < 2 ? 2 : 0);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("lcpbench %s (git %s)\n", LCPBENCH_VERSION, LCPBENCH_GIT);
        return bench_stdout_status("--version", 0);
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(argv[1], commands[k].name) == 0)
            return bench_stdout_status(argv[1], commands[k].fn(argc - 1, argv + 1));
    fprintf(stderr, "lcpbench: unknown command '%s' (lcpbench --help lists them)\n", argv[1]);
    return 2;
}
