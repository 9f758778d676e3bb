/* tablerun.c: what the tables share from the grid: the Markdown result of a table with its
 * provenance and variant line, the runs of a table's suite text with their convergence
 * figures, and a run's row in runs.csv.
 * Cost: that of the runs. */
#include "grid.h"

#include <stdlib.h>
#include <string.h>

FILE *bench_table_md(const bench_table_ctx *t, bench_out *o, const char *file,
                     const char *title)
{
    FILE *f = bench_md_open(t->cmd, o, t->out, file, t->force, title, t->argc, t->argv);
    if (!f) return NULL;
    fprintf(f, "Variant `%s`: %s.", t->variant->name, t->variant->protocol);
    const bench_table *tb = t->table;
    if (tb && tb->nvariants == 1 && strcmp(tb->name, "amgs-regime") != 0 &&
        strcmp(tb->name, "precision") != 0 &&
        strcmp(tb->variants[0].name, "paper") != 0)
        fprintf(f, "  This is the table's only variant so far; a `paper` variant following the "
                   "source's protocol is not built yet.");
    fprintf(f, "\n\n");
    return f;
}

int bench_table_runs(const bench_table_ctx *t, const char *text, const char *name)
{
    char *limited = NULL;
    if (t->timeout > 0) { /* the limit as the grid's first `set': the table's own lines follow */
        size_t n = strlen(text) + 64;
        if (!(limited = lcp_malloc(n, 1))) {
            bench_error(t->cmd, "out of memory");
            return 1;
        }
        snprintf(limited, n, "set timeout=%.17g\n%s", t->timeout, text);
        text = limited;
    }
    int rc = bench_run_text(t->cmd, text, name, t->out, t->force, t->mpi, t->argc, t->argv);
    lcp_free(limited);
    if (rc == 2) return rc;
    if (bench_plot_dir_style(t->cmd, t->out, 1, t->style) != 0) rc = 1;
    return rc;
}

int bench_runs_find(const bench_csv *T, const char *inst, const char *label)
{
    int ci = bench_csv_col(T, "instance"), cl = bench_csv_col(T, "label");
    for (int r = 0; r < T->nrow; r++)
        if (!strcmp(bench_csv_get(T, r, ci), inst) && !strcmp(bench_csv_get(T, r, cl), label))
            return r;
    return -1;
}
