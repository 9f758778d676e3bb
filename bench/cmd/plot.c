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

int bench_cmd_plot(int argc, char **argv)
{
    const char *dir = NULL, *v;
    bench_style style = BENCH_STYLE_PAPER;
    for (int k = 1; k < argc; k++) {
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if ((r = bench_opt(argc, argv, &k, "--style", &v)) != 0) {
            if (r < 0 || bench_style_parse("plot", v, &style) != 0) return 2;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            bench_error("plot", "unknown option '%s' (lcpbench plot --help)", argv[k]);
            return 2;
        } else if (dir) {
            bench_error("plot", "one run folder at a time");
            return 2;
        } else dir = argv[k];
    }
    if (!dir) {
        bench_error("plot", "no run folder given (lcpbench plot --help)");
        return 2;
    }
    if (bench_incomplete("plot", dir)) return 1;
    return bench_plot_dir_style("plot", dir, 0, style);
}
