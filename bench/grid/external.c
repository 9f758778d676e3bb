/* external.c: solvers outside this library in a suite, as `solver external NAME [KEY=VALUE]
 * cmd=COMMAND...' (the rest of the line after cmd= is the command).
 *
 * PROTOCOL.  For each instance the harness runs `/bin/sh -c 'COMMAND "$1" "$2"'' with $1 the
 * instance folder and $2 a fresh empty output folder, in its own process group, with
 * LCPBENCH_WARM=0|1 in its environment (warm=1: start from the folder's z0.mtx).  The command
 * writes $2/z.mtx (m x 1 Matrix Market array: the answer; required) and may write
 * $2/history.csv (one iterate per line, m numbers, an optional header naming `iteration'
 * and `time_s' columns: lcpbench score's format).  Exit status 0 means it answered.
 *
 * WHAT IS MEASURED.  The answer and every iterate are scored by lcp_residual() from (A, q, z)
 * as for the library's solvers (and zdiff, wdiff against zref).  The time is the command's
 * wall time as a process (fork to exit, CLOCK_MONOTONIC), so it includes its start-up and its
 * reading of the folder: a timing sample per run, `reps' runs (at least one; with reps = 0
 * none is reported), median, min and max.  A run past `timeout' seconds is killed (its whole
 * process group) and the row says `timeout'; a command that fails, dies or writes no valid
 * z.mtx gives `external-failed' with one line saying why; an answer is `answered' (the
 * harness cannot know whether the command thinks it converged): the row's peer_status, its
 * status the suite's verdict from the residual (run.c: converged iff ||r||_2 <= the tol
 * asked).
 * Cost: the command's, plus one product with A per scored iterate. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "grid.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int bench_external_spec(bench_spec *s, const char *name, const char *command, char *msg,
                        size_t msglen)
{
    lcp_solver *x = lcp_calloc(1, sizeof *x);
    char *nm = lcp_strdup(name), *cmd = lcp_strdup(command);
    if (!x || !nm || !cmd) {
        lcp_free(x);
        lcp_free(nm);
        lcp_free(cmd);
        snprintf(msg, msglen, "out of memory");
        return 1;
    }
    x->name = nm;
    x->description = "an external command (solver external)";
    /* every problem is handed over; no sweeps of the library's loop: no tol, maxit, ... */
    x->needs = LCP_DIRECT | LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX;
    s->solver = x;
    s->ext_cmd = cmd;
    return 0;
}

void bench_external_free(bench_spec *s)
{
    if (!s->ext_cmd) return;
    lcp_free((char *)s->solver->name);
    lcp_free((lcp_solver *)s->solver);
    lcp_free(s->ext_cmd);
    s->ext_cmd = NULL;
    s->solver = NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* run the command once into outdir; 0 exited 0, 1 failed (why in msg), 2 timed out */
static int run_once(const bench_spec *sp, const char *inst, const char *outdir, int warm,
                    double timeout, double *secs, char *msg, size_t msglen)
{
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, msglen, "cannot start the command: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        setenv("LCPBENCH_WARM", warm ? "1" : "0", 1);
        char script[8192];
        snprintf(script, sizeof script, "%s \"$1\" \"$2\"", sp->ext_cmd);
        execl("/bin/sh", "sh", "-c", script, "sh", inst, outdir, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            snprintf(msg, msglen, "lost the command: %s", strerror(errno));
            return 1;
        }
        if (timeout > 0 && bench_now() - t0 > timeout) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 2;
        }
        struct timespec ts = {0, 200000}; /* 0.2 ms: the time's resolution */
        nanosleep(&ts, NULL);
    }
    *secs = bench_now() - t0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (WIFEXITED(status))
        snprintf(msg, msglen, "the command exited with status %d", WEXITSTATUS(status));
    else snprintf(msg, msglen, "the command died of signal %d", WTERMSIG(status));
    return 1;
}

typedef struct hist_ctx {
    const lcp_problem *P;
    bench_history *h;
    double *w;
    int oom;
} hist_ctx;

static void add_iterate(void *vctx, long it, double t, const double *z)
{
    hist_ctx *c = vctx;
    bench_history *h = c->h;
    lcp_residuals R;
    lcp_residual(c->P, z, c->w, &R);
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 64;
        int *ni = lcp_realloc(h->iter, (size_t)cap, sizeof *ni);
        if (ni) h->iter = ni;
        double *a = lcp_realloc(h->r2, (size_t)cap, sizeof *a);
        if (a) h->r2 = a;
        double *b = lcp_realloc(h->rinf, (size_t)cap, sizeof *b);
        if (b) h->rinf = b;
        double *d = lcp_realloc(h->t, (size_t)cap, sizeof *d);
        if (d) h->t = d;
        if (!ni || !a || !b || !d) {
            c->oom = 1;
            return;
        }
        h->cap = cap;
    }
    h->iter[h->n] = (int)it;
    h->r2[h->n] = R.r2;
    h->rinf[h->n] = R.rinf;
    h->t[h->n++] = t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the answer of run 0 (base/0/z.mtx) and its history.csv scored into z, r and h; 0, or 1
 * with msg */
static int score_answer(const char *cmd, const char *base, const lcp_problem *P, double *z,
                        double *w, bench_result *r, bench_history *h, char *msg, size_t msglen)
{
    char path[4200];
    int mz = 0, rc = 0;
    double *zz = NULL;
    snprintf(path, sizeof path, "%s/0/z.mtx", base);
    if (lcp_read_vector(path, &mz, &zz, msg, msglen) != LCP_OK) {
        rc = 1;
    } else if (mz != P->m) {
        snprintf(msg, msglen, "z.mtx has %d rows, the instance %d", mz, P->m);
        rc = 1;
    } else {
        memcpy(z, zz, (size_t)P->m * sizeof *z);
        lcp_residual(P, z, w, &r->res);
        if (P->zref) lcp_ref_distance(P, z, &r->zdiff, &r->wdiff);
        if (!isfinite(r->res.r2)) {
            snprintf(msg, msglen, "z.mtx gives a residual that is not finite");
            rc = 1;
        }
    }
    lcp_free(zz);
    snprintf(path, sizeof path, "%s/0/history.csv", base);
    if (rc == 0 && h && access(path, F_OK) == 0) {
        hist_ctx c = {P, h, w, 0};
        double *scratch = lcp_malloc((size_t)P->m, sizeof *scratch);
        if (!scratch || bench_iterates_read(cmd, path, P->m, scratch, add_iterate, &c) || c.oom) {
            snprintf(msg, msglen, "history.csv could not be read (above)");
            rc = 1;
        }
        lcp_free(scratch);
    }
    return rc;
}

lcp_status bench_run_external(const char *cmd, const bench_spec *sp, const char *inst,
                              const lcp_problem *P, double *z, bench_result *r,
                              bench_history *h, const char **status)
{
    const bench_settings *set = &sp->set;
    memset(r, 0, sizeof *r);
    lcp_info_init(&r->info);
    r->res.r2 = r->res.rinf = r->res.rel = r->zdiff = r->wdiff = NAN;
    r->t_median = r->t_min = r->t_max = r->t_setup = NAN;
    *status = "external-failed";
    char base[] = "/tmp/lcpbench-external-XXXXXX", out[sizeof base + 16], msg[4400] = "";
    if (!mkdtemp(base)) {
        bench_error(cmd, "%s: external: cannot make a scratch folder: %s", sp->set.label,
                    strerror(errno));
        return LCP_ERR_IO;
    }
    int runs = set->reps > 0 ? set->reps : 1, rc = 0;
    double *t = lcp_calloc((size_t)runs, sizeof *t), *w = lcp_malloc((size_t)P->m, sizeof *w);
    if (!t || !w) {
        snprintf(msg, sizeof msg, "out of memory");
        rc = 1;
    }
    for (int k = 0; rc == 0 && k < runs; k++) { /* run 0's answer is scored */
        snprintf(out, sizeof out, "%s/%d", base, k);
        if (mkdir(out, 0700) != 0) {
            snprintf(msg, sizeof msg, "cannot make %s: %s", out, strerror(errno));
            rc = 1;
        } else {
            rc = run_once(sp, inst, out, set->opt.warm, set->timeout, &t[k], msg, sizeof msg);
        }
    }
    lcp_status st = LCP_ERR_BREAKDOWN;
    if (rc == 2) {
        *status = "timeout";
        r->timed_out = 1;
    } else if (rc == 0 && (rc = score_answer(cmd, base, P, z, w, r, h, msg, sizeof msg)) == 0) {
        st = LCP_OK;
        *status = "answered";
        r->iterations = h && h->n ? h->iter[h->n - 1] : 0;
        r->info.iterations = r->iterations;
        if (set->reps > 0) {
            qsort(t, (size_t)runs, sizeof *t, cmp_double);
            r->t_median = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
            r->t_min = t[0];
            r->t_max = t[runs - 1];
            r->batch = 1;
        }
    }
    if (rc == 1) bench_error(cmd, "%s: external %s: %s", inst, sp->set.label, msg);
    r->status = st;
    r->info.status = st;
    nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    lcp_free(t);
    lcp_free(w);
    return st;
}
