/* plot.c: `lcpbench plot DIR': argument parsing for the convergence figures of a run folder
 * (kit/figures.c draws them). */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("usage: lcpbench plot DIR [--style paper|mono]\n"
           "\n"
           "Redraw the convergence figures of a run folder (lcpbench run) from DIR/runs.csv\n"
           "and DIR/history/, or of a folder of lcpbench solve --history DIR (runs.csv beside\n"
           "the histories): DIR/plots/INSTANCE-iter and INSTANCE-time, each as .csv (the\n"
           "data, downsampled), .gp (rebuild with `gnuplot FILE.gp' in a copy of plots/),\n"
           ".png (quick look) and .pdf (3.4 in wide, 8 pt text).  The tolerance is drawn\n"
           "when the runs share one; curves that coincide are drawn once, named together.\n"
           "A residual of exactly 0 is drawn at a floor one decade below the smallest\n"
           "positive value, labelled \"0 (exact)\" on the axis; a run without a history (the\n"
           "peers) is a marker at its final residual, \"LABEL: no history\" in the key, or\n"
           "a note under the plot when it has no final residual (a failed run).\n"
           "  --style S   paper (colour-blind-safe colours, dashes and markers; default) or\n"
           "              mono (black, dashes and markers)\n"
           "Without gnuplot the scripts are written and a warning says so (exit 0).\n");
}

/* the run folder: one */
static int folder(const char *cmd, const char *w, void *to)
{
    if (*(const char **)to) {
        bench_error(cmd, "one run folder at a time");
        return -1;
    }
    *(const char **)to = w;
    return 0;
}

int bench_cmd_plot(int argc, char **argv)
{
    const char *dir = NULL;
    bench_style style = BENCH_STYLE_PAPER;
    const bench_arg args[] = {
        {"--style", BENCH_ARG_VALUE, &style, bench_arg_style, "paper or mono"},
    };
    const bench_args p = {"plot", args, BENCH_NARG(args), folder, &dir, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r == BENCH_ARGS_HELP ? 0 : 2;
    if (!dir) {
        bench_error("plot", "no run folder given (lcpbench plot --help)");
        return 2;
    }
    if (bench_incomplete("plot", dir)) return 1;
    return bench_plot_dir_style("plot", dir, 0, style);
}
