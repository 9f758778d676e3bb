/* test_nomem_prob.c: allocation failure at every allocation of problems/, the CSparse Tcov
 * way (Davis 2006, "Direct Methods for Sparse Linear Systems", section 8.3).
 *
 * Linked with the test-only build of the library (-DLCP_TCOV, lcp/csr.c) and the scenes'
 * sources compiled against it: the scenes allocate through the library's wrapper
 * (lcp_alloc.h), so one counter sees every allocation of building a world, detecting
 * contacts, assembling the LCP, solving it (CHOLMOD's included) and writing it.  For a few
 * small scenes, each built from its parameters and stepped a few times with every step's
 * problem written as an instance folder (what `lcpbench capture' does), and for each
 * k = 1, 2, ... until the run no longer reaches its k-th allocation:
 *   - the run ends with out-of-memory (from prob_world_create or prob_step, message naming
 *     it), the world left at the state of its last complete step (bit for bit);
 *   - every file written is complete and identical to the unarmed run's, never a temporary;
 *   - no allocation is left live once the world is freed (the counter's live count; ASan's
 *     leak checker sees the same in its build);
 * and the first k that no longer fails reproduces the unarmed run bit for bit (each step's
 * status, sweeps, residual, contacts; the final positions, orientations, velocities and
 * impulses; the files).
 * Cost: about 1300 runs of 2 or 3 steps of scenes of up to 12 bodies, about a second.
 */
#include "lcp_alloc.h"
#include "prob.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KMAX = 200000, MAXSTEPS = 8 };

typedef struct scene_case {
    const char *scene;
    const char *kv[4];   /* "key=value" parameters, NULL-ended */
    const char *solver;  /* NULL: the scene's (pgs) */
    int steps;
    int capture;         /* write each step's problem */
} scene_case;

/* what a run leaves: per-step figures and the world's state after each complete step */
typedef struct outcome {
    lcp_status st;
    char msg[512];
    int done;                       /* steps completed */
    prob_step_info info[MAXSTEPS];
    double *state[MAXSTEPS + 1];    /* state[t]: after t steps (test-owned, malloc) */
    size_t nstate;
} outcome;

typedef struct capture_ctx {
    const char *dir;
    char msg[512];
} capture_ctx;

static lcp_status capture_hook(void *vctx, const prob_world *W, const lcp_problem *P,
                               int step)
{
    capture_ctx *c = vctx;
    char dir[1200];
    (void)W;
    snprintf(dir, sizeof dir, "%s/step%d", c->dir, step);
    return lcp_write_instance(dir, P, c->msg, sizeof c->msg);
}

/* positions, orientations, velocities, joint impulses, contacts' impulses, step count */
static double *snapshot(const prob_world *W, size_t *n)
{
    size_t nb = (size_t)W->nb, k = 0;
    *n = 3 * nb + 4 * nb + (size_t)W->ndof * nb + (size_t)W->nj + 3 * (size_t)W->nc + 2;
    double *s = malloc(*n * sizeof *s);
    if (!s) return NULL;
    memcpy(s + k, W->pos, 3 * nb * sizeof *s), k += 3 * nb;
    memcpy(s + k, W->rot, 4 * nb * sizeof *s), k += 4 * nb;
    memcpy(s + k, W->vel, (size_t)W->ndof * nb * sizeof *s), k += (size_t)W->ndof * nb;
    if (W->nj) memcpy(s + k, W->zj, (size_t)W->nj * sizeof *s), k += (size_t)W->nj;
    for (int c = 0; c < W->nc; c++, k += 3) memcpy(s + k, W->c[c].z, 3 * sizeof *s);
    s[k++] = W->step;
    s[k++] = W->nc;
    return s;
}

static void outcome_free(outcome *o)
{
    for (int t = 0; t <= MAXSTEPS; t++) free(o->state[t]);
    memset(o, 0, sizeof *o);
}

/* build the scene and step it; W freed at the end */
static void run(const scene_case *sc, const char *dir, outcome *o)
{
    const prob_scene *s = prob_scene_find(sc->scene);
    prob_params P;
    prob_world W;
    capture_ctx cap = {dir, ""};
    memset(o, 0, sizeof *o);
    memset(&W, 0, sizeof W);
    prob_params_default(s, &P);
    for (const char *const *kv = sc->kv; *kv; kv++)
        if ((o->st = prob_params_set(&P, *kv, o->msg, sizeof o->msg)) != LCP_OK) return;
    o->st = prob_world_create(&W, s, &P, o->msg, sizeof o->msg);
    if (o->st == LCP_OK && sc->solver)
        o->st = prob_world_set_solver(&W, sc->solver, 100, 1e-8);
    if (o->st == LCP_OK) o->state[0] = snapshot(&W, &o->nstate);
    for (int t = 0; o->st == LCP_OK && t < sc->steps; t++) {
        o->st = prob_step(&W, sc->capture ? capture_hook : NULL, &cap, &o->info[t], o->msg,
                          sizeof o->msg);
        if (o->st == LCP_OK) o->done = t + 1;
        /* the state after the step, or after a failed one (the last good state) */
        free(o->state[o->done]);
        o->state[o->done] = snapshot(&W, &o->nstate);
    }
    if (cap.msg[0] && o->st != LCP_OK) snprintf(o->msg, sizeof o->msg, "%s", cap.msg);
    prob_world_free(&W);
}

static int same_info(const prob_step_info *a, const prob_step_info *b)
{
    return a->step == b->step && a->bodies == b->bodies && a->contacts == b->contacts &&
           a->rows == b->rows && a->warm_matched == b->warm_matched && a->status == b->status &&
           a->iterations == b->iterations &&
           memcmp(&a->residual, &b->residual, sizeof a->residual) == 0 &&
           memcmp(&a->max_penetration, &b->max_penetration, sizeof(double)) == 0 &&
           memcmp(&a->kinetic_energy, &b->kinetic_energy, sizeof(double)) == 0;
}

static int same_state(const double *a, const double *b, size_t n)
{
    return a && b && memcmp(a, b, n * sizeof *a) == 0;
}

/* 1 when the files are byte-identical */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* Files under dir/stepT (t = 1..steps): each identical to ref's, none a temporary; when
 * complete, every step up to `complete' has all of ref's files.  Returns 1 when so. */
static int files_ok(const char *dir, const char *ref, int steps, int complete)
{
    int good = 1;
    for (int t = 1; t <= steps && good; t++) {
        char d[1200], r[1200], a[2400], b[2400];
        snprintf(d, sizeof d, "%s/step%d", dir, t);
        snprintf(r, sizeof r, "%s/step%d", ref, t);
        int nd = 0, nr = 0;
        DIR *D = opendir(d);
        for (struct dirent *e; D && (e = readdir(D));) {
            if (e->d_name[0] == '.') continue;
            snprintf(a, sizeof a, "%s/%s", d, e->d_name);
            snprintf(b, sizeof b, "%s/%s", r, e->d_name);
            good = good && !strstr(e->d_name, ".tmp") && same_file(a, b);
            nd++;
        }
        if (D) closedir(D);
        D = opendir(r);
        for (struct dirent *e; D && (e = readdir(D));) nr += e->d_name[0] != '.';
        if (D) closedir(D);
        if (t <= complete) good = good && nd == nr && nr > 0;
    }
    return good;
}

/* remove dir/stepT/ * and dir/stepT (the folders the hook makes) */
static void clear(const char *dir, int steps)
{
    for (int t = 1; t <= steps; t++) {
        char d[1200], f[2400];
        snprintf(d, sizeof d, "%s/step%d", dir, t);
        DIR *D = opendir(d);
        for (struct dirent *e; D && (e = readdir(D));) {
            if (e->d_name[0] == '.') continue;
            snprintf(f, sizeof f, "%s/%s", d, e->d_name);
            unlink(f);
        }
        if (D) closedir(D);
        rmdir(d);
    }
}

static void test_scene(const scene_case *sc, const char *tmpdir, int n)
{
    char name[256], ref[1024], dir[1024];
    snprintf(name, sizeof name, "%s%s%s%s%s", sc->scene, sc->kv[0] ? "/" : "",
             sc->kv[0] ? sc->kv[0] : "", sc->solver ? "/" : "", sc->solver ? sc->solver : "");
    snprintf(ref, sizeof ref, "%s/ref%d", tmpdir, n);
    snprintf(dir, sizeof dir, "%s/run%d", tmpdir, n);
    if (mkdir(ref, 0777) != 0 || mkdir(dir, 0777) != 0) {
        ok(0, "nomem/problems/%s: cannot make %s", name, ref);
        return;
    }
    long live0 = lcp_tcov_live(), k, bad = 0, nomem = 0;
    outcome o0, o;
    lcp_tcov_arm(0);
    run(sc, ref, &o0);
    if (o0.st != LCP_OK || o0.done != sc->steps || lcp_tcov_live() != live0) {
        ok(0, "nomem/problems/%s: the unarmed run: %s %s", name, lcp_status_str(o0.st), o0.msg);
        outcome_free(&o0);
        return;
    }
    tap_diag("%s: %d contacts and %d rows at the last step", name, o0.info[sc->steps - 1].contacts,
             o0.info[sc->steps - 1].rows);
    for (k = 1; k < KMAX; k++) {
        clear(dir, sc->steps);
        lcp_tcov_arm(k);
        run(sc, dir, &o);
        long failed = lcp_tcov_failed();
        lcp_tcov_arm(0);
        int good;
        if (failed) {
            nomem++;
            /* the failed step leaves the world as the last complete one left it */
            good = o.st == LCP_ERR_NOMEM &&
                   (strstr(o.msg, "out of memory") || strstr(o.msg, "out-of-memory")) &&
                   (!o.state[0] || (o.state[o.done] &&
                                    same_state(o.state[o.done], o0.state[o.done], o.nstate))) &&
                   files_ok(dir, ref, sc->steps, sc->capture ? o.done : 0);
            for (int t = 0; good && t < o.done; t++) good = same_info(&o.info[t], &o0.info[t]);
        } else {
            good = o.st == LCP_OK && o.done == sc->steps && o.nstate == o0.nstate &&
                   same_state(o.state[o.done], o0.state[o0.done], o.nstate) &&
                   files_ok(dir, ref, sc->steps, sc->capture ? sc->steps : 0);
            for (int t = 0; good && t < o.done; t++) good = same_info(&o.info[t], &o0.info[t]);
        }
        good = good && lcp_tcov_live() == live0;
        if (!good && bad++ == 0)
            tap_diag("%s, allocation %ld refused: %s \"%s\" after %d steps, %ld blocks live "
                     "(want %ld)", name, k, lcp_status_str(o.st), o.msg, o.done,
                     lcp_tcov_live(), live0);
        outcome_free(&o);
        if (!failed) break;
    }
    ok(bad == 0 && k > 1 && k < KMAX && nomem == k - 1,
       "nomem/problems/%s: %d steps%s: each of %ld allocations refused gives out-of-memory, "
       "the last good state, complete files only, nothing leaks; then the unarmed run bit for "
       "bit", name, sc->steps, sc->capture ? " written" : "", k - 1);
    clear(dir, sc->steps);
    clear(ref, sc->steps);
    rmdir(dir);
    rmdir(ref);
    outcome_free(&o0);
}

int main(void)
{
    static const scene_case cases[] = {
        {"three-spheres", {NULL}, NULL, 3, 1},
        {"capsule", {NULL}, "ldlt-ref", 2, 1},
        {"stack", {"n=4", NULL}, NULL, 3, 1},
        {"chain", {"n=5", NULL}, NULL, 3, 0},
        {"hang", {"n=4", NULL}, NULL, 2, 0},
        {"pool", {"n=12", NULL}, "dantzig", 2, 0},
        {"slide", {NULL}, NULL, 2, 0},
        {"towed", {"n=4", NULL}, NULL, 2, 0},
    };
    char tmpdir[512];
    snprintf(tmpdir, sizeof tmpdir, "%s/lcpnomemprob-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp failed\n");
        return 1;
    }
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        test_scene(&cases[c], tmpdir, (int)c);
    ok(lcp_tcov_live() == 0, "nomem/problems/no-block-live-at-the-end");
    int rc = tap_done();
    if (rmdir(tmpdir) != 0) tap_diag("could not remove %s", tmpdir);
    return rc;
}
