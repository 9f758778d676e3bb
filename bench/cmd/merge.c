/* merge.c: `lcpbench merge DIR_1 ... DIR_N --out DIR': the folder a whole `lcpbench run'
 * writes, built from the N folders of `lcpbench run SUITE --shard K/N' (bench/README.md,
 * "Grids on a cluster"): runs.csv with every row in the grid's order, the history files, the
 * captured instances (of the first shard: every shard captures the same), provenance.json of the
 * merge and the figures.  Refuses with one line a folder that is incomplete or no shard, shards
 * of different grids or counts, a shard given twice, a missing shard, or a row that is not
 * its shard's.  Needs each DIR_K/shard.csv (run.c) and runs.csv; cost: reading and copying
 * the files.
 */
#include "cmd.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *CMD = "merge";

/* copy file from to file to; 0 or 1 (error printed) */
static int copy_file(const char *from, const char *to)
{
    char msg[8400], buf[65536];
    const char *why;
    FILE *in = bench_fopen_read(from, &why);
    if (!in) {
        bench_error(CMD, "%s: cannot read: %s", from, why);
        return 1;
    }
    bench_out o;
    if (bench_out_open(&o, to, 1, msg, sizeof msg) != 0) {
        fclose(in);
        bench_error(CMD, "%s", msg);
        return 1;
    }
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, o.f);
    int bad = ferror(in);
    fclose(in);
    if (bench_out_commit(&o, !bad, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", bad ? from : msg);
        return 1;
    }
    return 0;
}

/* copy the tree from into to (created); 0 or 1 */
static int copy_tree(const char *from, const char *to, int depth)
{
    char msg[8400];
    if (depth > 16) return 0;
    if (bench_mkdir_p(to, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    DIR *d = opendir(from);
    if (!d) return 0;
    int bad = 0;
    struct dirent *e;
    while (!bad && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char a[BENCH_PATH + 300], b[BENCH_PATH + 300];
        snprintf(a, sizeof a, "%s/%s", from, e->d_name);
        snprintf(b, sizeof b, "%s/%s", to, e->d_name);
        struct stat st;
        if (lstat(a, &st) != 0) continue;
        bad = S_ISDIR(st.st_mode) ? copy_tree(a, b, depth + 1) : copy_file(a, b);
    }
    closedir(d);
    return bad;
}

typedef struct shard {
    const char *dir;
    bench_csv cells, runs;
    int k, n;
} shard;

/* read and check shard folder dir; 0 or 1 (error printed) */
static int shard_read(shard *s, const char *dir)
{
    char path[BENCH_PATH + 16], msg[8400];
    s->dir = dir;
    if (bench_incomplete(CMD, dir)) return 1;
    snprintf(path, sizeof path, "%s/shard.csv", dir);
    if (bench_csv_read(path, &s->cells, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s is not a shard folder (no readable shard.csv; lcpbench run "
                         "--shard K/N writes one)", dir);
        return 1;
    }
    int ck = bench_csv_col(&s->cells, "shard"), cn = bench_csv_col(&s->cells, "of");
    s->k = s->cells.nrow > 0 ? atoi(bench_csv_get(&s->cells, 0, ck)) : 0;
    s->n = s->cells.nrow > 0 ? atoi(bench_csv_get(&s->cells, 0, cn)) : 0;
    if (ck < 0 || cn < 0 || bench_csv_col(&s->cells, "instance") < 0 ||
        bench_csv_col(&s->cells, "label") < 0 || s->n < 1 || s->k < 1 || s->k > s->n) {
        bench_error(CMD, "%s/shard.csv: not a shard list of lcpbench run --shard", dir);
        return 1;
    }
    return bench_read_runs(CMD, dir, &s->runs);
}

/* the cell of (inst, label) in a shard list, -1 */
static int cell_of(const bench_csv *C, const char *inst, const char *label)
{
    int ci = bench_csv_col(C, "instance"), cl = bench_csv_col(C, "label");
    for (int r = 0; r < C->nrow; r++)
        if (!strcmp(bench_csv_get(C, r, ci), inst) && !strcmp(bench_csv_get(C, r, cl), label))
            return r;
    return -1;
}

static int same_cells(const bench_csv *a, const bench_csv *b)
{
    if (a->nrow != b->nrow || a->ncol != b->ncol) return 0;
    for (int r = 0; r < a->nrow; r++)
        for (int c = 2; c < a->ncol; c++)   /* cell, instance, label */
            if (strcmp(bench_csv_get(a, r, c), bench_csv_get(b, r, c))) return 0;
    return 1;
}

static int same_head(const bench_csv *a, const bench_csv *b)
{
    if (a->ncol != b->ncol) return 0;
    for (int c = 0; c < a->ncol; c++)
        if (strcmp(a->head[c], b->head[c])) return 0;
    return 1;
}

/* check the shards; the (shard, row) of each cell into at (-1: no row); 0 or 1 */
static int join(shard *s, int n, int *at)
{
    for (int i = 1; i < n; i++)
        if (s[i].n != s[0].n || !same_cells(&s[i].cells, &s[0].cells)) {
            bench_error(CMD, "%s and %s are shards of different grids", s[0].dir, s[i].dir);
            return 1;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (s[i].k == s[j].k) {
                bench_error(CMD, "%s and %s are both shard %d/%d (overlapping cells)", s[j].dir,
                            s[i].dir, s[i].k, s[i].n);
                return 1;
            }
    for (int k = 1; k <= s[0].n; k++) {
        int found = 0;
        for (int i = 0; i < n; i++) found |= s[i].k == k;
        if (!found) {
            bench_error(CMD, "shard %d/%d is missing", k, s[0].n);
            return 1;
        }
    }
    int ncell = s[0].cells.nrow;
    for (int c = 0; c < ncell; c++) at[2 * c] = at[2 * c + 1] = -1;
    for (int i = 0; i < n; i++) {
        if (!same_head(&s[i].runs, &s[0].runs)) {
            bench_error(CMD, "%s/runs.csv and %s/runs.csv have different columns", s[0].dir,
                        s[i].dir);
            return 1;
        }
        int ci = bench_csv_col(&s[i].runs, "instance"), cl = bench_csv_col(&s[i].runs, "label");
        for (int r = 0; r < s[i].runs.nrow; r++) {
            int c = cell_of(&s[0].cells, bench_csv_get(&s[i].runs, r, ci),
                            bench_csv_get(&s[i].runs, r, cl));
            if (c < 0 || c % s[i].n != s[i].k - 1 || at[2 * c] >= 0) {
                bench_error(CMD, "%s/runs.csv: row %d is not a cell of shard %d/%d", s[i].dir,
                            r + 2, s[i].k, s[i].n);
                return 1;
            }
            at[2 * c] = i;
            at[2 * c + 1] = r;
        }
    }
    return 0;
}

/* write the merged folder into work; 0 or 1 */
static int write_merged(shard *s, const int *at, const char *work, int argc, char **argv)
{
    char path[BENCH_PATH + 300], from[BENCH_PATH + 300], msg[8400];
    snprintf(path, sizeof path, "%s/history", work);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    if (bench_provenance_json(CMD, work, argc, argv)) return 1;
    snprintf(from, sizeof from, "%s/instances", s[0].dir);
    snprintf(path, sizeof path, "%s/instances", work);
    struct stat st;
    if (stat(from, &st) == 0 && copy_tree(from, path, 0)) return 1;
    bench_out o;
    snprintf(path, sizeof path, "%s/runs.csv", work);
    FILE *f = bench_open(CMD, &o, path, 1);
    if (!f) return 1;
    const bench_csv *H = &s[0].runs;  /* the shards' own columns (join: all the same), so that
                                         shards of another build keep theirs */
    for (int k = 0; k < H->ncol; k++) {
        if (k) fputc(',', f);
        bench_csv_field(f, H->head[k]);
    }
    fputc('\n', f);
    int bad = 0;
    for (int c = 0; c < s[0].cells.nrow; c++) {
        if (at[2 * c] < 0) continue;      /* an unreadable instance: no row, as in a run */
        const bench_csv *R = &s[at[2 * c]].runs;
        int r = at[2 * c + 1], ch = bench_csv_col(R, "history");
        for (int k = 0; k < R->ncol; k++) {
            if (k) fputc(',', f);
            bench_csv_field(f, bench_csv_get(R, r, k));
        }
        fputc('\n', f);
        const char *h = bench_csv_get(R, r, ch);
        if (*h) {
            snprintf(from, sizeof from, "%s/history/%s", s[at[2 * c]].dir, h);
            snprintf(path, sizeof path, "%s/history/%s", work, h);
            bad |= copy_file(from, path);
        }
    }
    if (bench_close(CMD, &o)) return 1;
    return bad;
}

static void help(void)
{
    printf("usage: lcpbench merge DIR_1 ... DIR_N --out DIR [--force] [--no-plots]\n"
           "\n"
           "Join the folders of `lcpbench run SUITE --shard K/N --out DIR_K' (K = 1..N, in\n"
           "any order) into DIR: the folder the whole run writes (runs.csv in the grid's\n"
           "order, history/, instances/, plots/), with provenance.json of the merge.\n"
           "Refuses incomplete folders, shards of different grids, a shard given twice or a\n"
           "missing shard, with one line.  Refuses a non-empty DIR unless --force.\n");
}

typedef struct shard_words {
    shard *s;
    int n;
} shard_words;

static int shard_word(const char *cmd, const char *w, void *to)
{
    (void)cmd;
    shard_words *sw = to;
    sw->s[sw->n++].dir = w;
    return 0;
}

int bench_cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    int force = 0, no_plots = 0;
    shard *s = lcp_calloc((size_t)argc, sizeof *s);
    if (!s) {
        bench_error(CMD, "out of memory");
        return 1;
    }
    shard_words sw = {s, 0};
    const bench_arg args[] = {
        {"--force", BENCH_ARG_FLAG, &force, NULL, "replace a non-empty DIR"},
        {"--no-plots", BENCH_ARG_FLAG, &no_plots, NULL, "no figures"},
        {"--out", BENCH_ARG_VALUE, &out, NULL, "the merged run folder"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), shard_word, &sw, NULL, NULL, 0};
    int rc = bench_args_parse(&p, argc, argv), n = sw.n, plots = !no_plots;
    if (rc == BENCH_ARGS_HELP) {
        help();
        lcp_free(s);
        return 0;
    }
    if (!rc && !out) {
        bench_error(CMD, "--out DIR is required");
        rc = 2;
    }
    if (!rc && n == 0) {
        bench_error(CMD, "no shard folder given (lcpbench merge --help)");
        rc = 2;
    }
    int got = 0;
    for (; !rc && got < n; got++)
        if (shard_read(&s[got], s[got].dir)) {
            bench_csv_free(&s[got].cells);
            rc = 1;
        }
    if (rc) got--;
    int *at = rc ? NULL : lcp_malloc(2 * (size_t)(s[0].cells.nrow + 1), sizeof(int));
    if (!rc && !at) {
        bench_error(CMD, "out of memory");
        rc = 1;
    }
    if (!rc) rc = join(s, n, at);
    bench_stage stage;
    if (!rc && bench_stage_open(CMD, &stage, out, force)) rc = 1;
    else if (!rc) {
        rc = write_merged(s, at, stage.work, argc, argv);
        if (!rc && plots && bench_plot_dir(CMD, stage.work, 0) != 0) rc = 1;
        if (bench_stage_commit(CMD, &stage, !rc) && !rc) rc = 1;
    }
    for (int i = 0; i < got; i++) {
        bench_csv_free(&s[i].cells);
        bench_csv_free(&s[i].runs);
    }
    lcp_free(at);
    lcp_free(s);
    return rc;
}
