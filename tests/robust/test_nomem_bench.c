/* test_nomem_bench.c: allocation failure at every allocation of `lcpbench solve', `run' and
 * `capture', the CSparse Tcov way (Davis 2006, "Direct Methods for Sparse Linear Systems",
 * section 8.3).
 *
 * Linked with the harness's and the scenes' objects and the test-only build of the library
 * (-DLCP_TCOV, lcp/csr.c): bench/ and problems/ allocate through the library's wrapper
 * (lcp_alloc.h), so one counter sees every allocation of the command, the library's and
 * CHOLMOD's included.  Each command runs in this process (its subcommand function, stdout
 * and stderr sent to files) once unarmed, then for k = 1, 2, ... until it no longer reaches
 * its k-th allocation, with the k-th and every later allocation refused; each refusal must
 * give
 *   - a non-zero exit and exactly one line on stderr, naming out-of-memory;
 *   - the output folder's previous contents intact (every file byte for byte) and no
 *     temporary file or folder beside or inside it;
 *   - no allocation left live (the counter's live count; ASan's leak checker in its build);
 * and the first k that no longer fails gives the unarmed exit status, an empty stderr and
 * the same files (contents compared where they hold no times).
 * Commands: solve of a 9-row friction instance with pgs and ldlt-ref, and with pgs alone read
 * without A (--lean) recording its history; a run of a suite of
 * that instance and one captured 3-disk stack step x two solvers (no timing runs, no plots);
 * capture of two steps of the same stack; plot of that run's folder; convert of the instance
 * to ODE's text.
 * Cost: about 3000 commands, a few seconds (ASan: about 30 s).
 */
#include "cmd.h" /* the subcommands it calls */
#include "lcp_alloc.h"
#include "tap.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KMAX = 100000, NARG = 16 };

static char tmpdir[512];

/* the whole text of a file (test-owned); NULL when unreadable */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (cap - n < 2) {
            char *c = realloc(b, cap *= 2);
            if (!c) free(b);
            b = c;
        }
    }
    fclose(f);
    if (b) b[n] = 0;
    if (len) *len = n;
    return b;
}

/* A folder's tree as text, sorted by path: "path\n<size>\n<bytes>" per file, with
 * times-bearing files (runs.csv, provenance.json, history/) listed by name only when
 * names_only_timed.  Appends to *buf (test-owned). */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void tree(const char *root, const char *rel, int names_only_timed, char **buf,
                 size_t *len)
{
    char path[2048];
    snprintf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d) return;
    char *names[512];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 512;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        char r[2048], p[4096];
        struct stat st;
        snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        snprintf(p, sizeof p, "%s/%s", root, r);
        free(names[i]);
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            tree(root, r, names_only_timed, buf, len);
            continue;
        }
        int timed = strstr(r, "runs.csv") || strstr(r, "provenance") || strstr(r, "history/");
        size_t fl = 0;
        char *f = names_only_timed && timed ? NULL : slurp(p, &fl);
        size_t need = *len + strlen(r) + fl + 64;
        char *nb = realloc(*buf, need);
        if (!nb) {
            free(f);
            continue;
        }
        *buf = nb;
        *len += (size_t)sprintf(*buf + *len, "%s\n%zu\n", r, fl);
        if (f) memcpy(*buf + *len, f, fl), *len += fl, (*buf)[*len] = 0;
        free(f);
    }
}

static char *snapshot(const char *dir, int names_only_timed)
{
    char *b = calloc(1, 1);
    size_t n = 0;
    if (b) tree(dir, "", names_only_timed, &b, &n);
    return b;
}

/* entries under dir (recursively) whose name holds ".tmp" */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        n += strstr(e->d_name, ".tmp") != NULL;
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) n += temporaries(p);
    }
    closedir(d);
    return n;
}

/* fn(argc, argv) with stdout and stderr into tmpdir/out, tmpdir/err; returns its status */
static int call(bench_cmd_fn *fn, char **argv)
{
    char out[600], err[600];
    int argc = 0;
    while (argv[argc]) argc++;
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(err, sizeof err, "%s/err", tmpdir);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
    int rc = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    return rc;
}

/* exactly one line naming out-of-memory */
static int one_nomem_line(const char *err)
{
    char *nl = strchr(err, '\n');
    return nl && !nl[1] && (strstr(err, "out of memory") || strstr(err, "out-of-memory"));
}

/* what each refusal is checked for: one TAP line each */
enum { P_NOMEM, P_ONELINE, P_FOLDER, P_LEAK, NPROP };
static const char *const prop_name[NPROP] = {
    "exits non-zero naming out-of-memory on stderr",
    "with exactly one error line",
    "leaves the previous folder intact and no temporary",
    "leaves no allocation live",
};

/* Run cmd under every refused allocation.  outdir: the folder the command writes (NULL:
 * none); it holds an earlier unarmed run's output before each armed run. */
static void test_cmd(const char *name, bench_cmd_fn *fn, char **argv, const char *outdir)
{
    char errpath[600], outpath[600];
    snprintf(errpath, sizeof errpath, "%s/err", tmpdir);
    snprintf(outpath, sizeof outpath, "%s/out", tmpdir);
    int rc0 = call(fn, argv);           /* the folder's previous contents, and the baseline */
    char *err0 = slurp(errpath, NULL), *out0 = slurp(outpath, NULL);
    char *full0 = outdir ? snapshot(outdir, 0) : NULL;
    char *names0 = outdir ? snapshot(outdir, 1) : NULL;
    long live0 = lcp_tcov_live(), k, bad[NPROP] = {0}, after = 0;
    if (rc0 != 0) tap_diag("%s unarmed: exit %d, stderr \"%s\"", name, rc0, err0 ? err0 : "");
    for (k = 1; k < KMAX; k++) {
        lcp_tcov_arm(k);
        int rc = call(fn, argv);
        long failed = lcp_tcov_failed();
        lcp_tcov_arm(0);
        char *err = slurp(errpath, NULL);
        char *now = outdir ? snapshot(outdir, !failed) : NULL;
        int tmps = temporaries(tmpdir);
        int good[NPROP] = {1, 1, 1, 1};
        const char *e = err ? err : "";
        int folder = !outdir || (now && strcmp(now, failed ? full0 : names0) == 0);
        good[P_FOLDER] = tmps == 0 && folder;
        good[P_LEAK] = lcp_tcov_live() == live0;
        if (failed) {
            good[P_NOMEM] = rc != 0 && (strstr(e, "out of memory") || strstr(e, "out-of-memory"));
            good[P_ONELINE] = one_nomem_line(e);
        } else {
            after = rc == rc0 && err0 && strcmp(e, err0) == 0 && good[P_FOLDER];
        }
        for (int p = 0; p < NPROP; p++)
            if (!good[p] && bad[p]++ == 0) {
                char line[512];                 /* stderr on one diagnostic line */
                snprintf(line, sizeof line, "%s", e);
                for (char *c = line; *c; c++)
                    if (*c == '\n') *c = '|';
                tap_diag("%s, allocation %ld refused: exit %d, stderr \"%s\", %d temporaries, "
                         "folder %s, %ld blocks live (want %ld)", name, k, rc, line, tmps,
                         folder ? "as before" : "changed", lcp_tcov_live(), live0);
            }
        free(err);
        free(now);
        if (!failed) break;
    }
    int ran = k > 1 && k < KMAX && rc0 == 0 && out0 && (outdir || out0[0]);
    for (int p = 0; p < NPROP; p++) {
        if (p == P_FOLDER && !outdir) continue;
        ok(ran && bad[p] == 0, "nomem/bench/%s: each of %ld allocations refused %s%s", name,
           k - 1, prop_name[p], bad[p] ? "" : " (all)");
        if (bad[p]) tap_diag("%ld of %ld refusals do not", bad[p], k - 1);
    }
    ok(ran && after, "nomem/bench/%s: then unrefused: the unarmed exit status, stderr and files",
       name);
    free(err0);
    free(out0);
    free(full0);
    free(names0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("Bail out! usage: test_nomem_bench INSTANCES-FOLDER\n");
        return 1;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/lcpnomembench-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp failed\n");
        return 1;
    }
    char inst[4200], suite[1024], out[1024], cap[1024];
    char cwd[2048] = "";
    if (argv[1][0] != '/' && !getcwd(cwd, sizeof cwd)) {
        printf("Bail out! getcwd failed\n");
        return 1;
    }
    snprintf(inst, sizeof inst, "%s%s%s/three-spheres-step1", cwd, cwd[0] ? "/" : "", argv[1]);
    snprintf(suite, sizeof suite, "%s/tiny.suite", tmpdir);
    snprintf(out, sizeof out, "%s/run", tmpdir);
    snprintf(cap, sizeof cap, "%s/cap", tmpdir);
    FILE *f = fopen(suite, "w");
    if (!f) {
        printf("Bail out! cannot write %s\n", suite);
        return 1;
    }
    fprintf(f, "suite tiny\nset reps=0 maxit=50\ninstance %s\nscene stack step=2 n=3\n"
               "solver pgs\nsolver ldlt-ref\n", inst);
    fclose(f);

    char *solve[NARG] = {"solve", inst, "--solver", "pgs,ldlt-ref", "--reps", "0", NULL};
    test_cmd("solve/three-spheres-step1/pgs,ldlt-ref", bench_cmd_solve, solve, NULL);
    /* read without A, histories recorded: the monitor's residual workspace (Minv's blocks) */
    char hist[1100];
    snprintf(hist, sizeof hist, "%s/hist", tmpdir);
    char *lean[NARG] = {"solve", inst, "--solver", "pgs", "--lean", "--reps", "0", "--history",
                        hist, "--force", NULL};
    test_cmd("solve/three-spheres-step1/pgs-lean-history", bench_cmd_solve, lean, hist);
    char *run[NARG] = {"run", suite, "--out", out, "--force", "--no-plots", NULL};
    test_cmd("run/three-spheres-and-stack-3-x-pgs,ldlt-ref", bench_cmd_run, run, out);
    char *capture[NARG] = {"capture", "stack", "--param", "n=3", "--at", "1,2", "--out", cap,
                           "--force", NULL};
    test_cmd("capture/stack-3-steps-1-2", bench_cmd_capture, capture, cap);
    /* the run folder's figures redrawn (staged: all moved in, or none), and a conversion */
    char plots[1100], conv[1100], ode[1200];
    snprintf(plots, sizeof plots, "%s/plots", out);
    char *plot[NARG] = {"plot", out, NULL};
    test_cmd("plot/run-folder", bench_cmd_plot, plot, plots);
    snprintf(conv, sizeof conv, "%s/conv", tmpdir);
    snprintf(ode, sizeof ode, "%s/three-spheres.ode", conv);
    if (mkdir(conv, 0755) != 0) tap_diag("cannot make %s", conv);
    char *convert[NARG] = {"convert", inst, ode, "--force", NULL};
    test_cmd("convert/folder-to-ode", bench_cmd_convert, convert, conv);

    ok(lcp_tcov_live() == 0, "nomem/bench/no-block-live-at-the-end");
    int rc = tap_done();
    if (rc == 0) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0) tap_diag("could not remove %s", tmpdir);
    }
    return rc;
}
