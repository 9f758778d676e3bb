/* test_nomem.c: allocation failure at every allocation, the CSparse Tcov way.
 *
 * Linked with the test-only build of the library (compiled with -DLCP_TCOV, see lcp/csr.c),
 * where lcp_tcov_arm(k) makes the k-th allocation and every later one fail, CHOLMOD's
 * included (its SuiteSparse_config hooks go through the same counter).  For each instance
 * given and each k = 1, 2, ... until a run no longer reaches its k-th allocation:
 *   - reading the instance returns out-of-memory with the problem left empty;
 *   - every registered solver that supports the instance (in each form it offers) returns
 *     out-of-memory;
 *   - writing the instance over an older one returns out-of-memory and leaves the old
 *     files, or succeeds with the new ones; never a temporary file;
 * and no allocation is left live (the counter's own count of live blocks returns to where it
 * was; ASan's leak checker and valgrind see the same in their builds).  The first k that no
 * longer fails must reproduce the unarmed run bit for bit (status, z).
 * The reference's paths that its defaults reach only on large problems are forced on small
 * ones the same way: the supernodal factorisation (ref_super.c) and the interior-point
 * start (ref_ipm.c), each alone and together.  So are the setups (lcp_prepare) of pgs
 * (its streaming layout, forced with lcp_pgs_prepare_layout), pgs-color and
 * pgs-color-contact: each armed run
 * prepares, then solves twice with what was prepared, then frees it (the unarmed run must
 * have prepared something), and each solver is also called directly without a set-up
 * (it then sets up for itself: pgs with the layout forced, lcp_pgs_solve_layout).
 * Cost: a few thousand runs on instances of 9 and 20 rows, about a second (ASan: ~10 s).
 */
#include "lcp_internal.h"
#include "ldlt_ref.h"
#include "stream.h"
#include "sameprob.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


static int is_empty(const lcp_problem *P)
{
    return P->m == 0 && !P->A.p && !P->q && !P->lo && !P->hi && !P->findex && !P->J.p &&
           !P->Minv.p && !P->E && !P->z0 && !P->zref && !P->meta;
}

/* names in dir containing ".tmp"; -1 when dir cannot be read */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) n += strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return n;
}

enum { KMAX = 100000 };

static void test_read(const char *dir, const char *name, const lcp_problem *P0)
{
    char msg[512];
    long live0 = lcp_tcov_live(), k, bad = 0;
    lcp_problem Q;
    for (k = 1; k < KMAX; k++) {
        lcp_tcov_arm(k);
        lcp_status st = lcp_read_instance(dir, &Q, msg, sizeof msg);
        long failed = lcp_tcov_failed();
        lcp_tcov_arm(0);
        int good = failed ? st == LCP_ERR_NOMEM && is_empty(&Q) &&
                                (strstr(msg, "out of memory") || strstr(msg, "out-of-memory"))
                          : st == LCP_OK && same_problem(P0, &Q);
        lcp_problem_free(&Q);
        good = good && lcp_tcov_live() == live0;
        if (!good && bad++ == 0)
            tap_diag("read %s, allocation %ld refused: %s \"%s\", %ld blocks live (want %ld)",
                     name, k, lcp_status_str(st), msg, lcp_tcov_live(), live0);
        if (!failed) break;
    }
    ok(bad == 0 && k > 1 && k < KMAX,
       "nomem/read/%s: each of %ld allocations refused gives out-of-memory, nothing leaks", name,
       k - 1);
}

/* how a registered solver is called: lcp_solve; its setup, two solves, its teardown; its
 * own function (it sets up for itself) */
enum { BY_LCP_SOLVE, PREPARED, DIRECT };

/* one solve, as the armed loop repeats it */
typedef struct solve_call {
    const lcp_solver *s;       /* a registered solver, or NULL: ref_solve with ro */
    const lcp_problem *P;
    lcp_options opt;
    ref_options ro;
    ref_stats rs;
    int how;                   /* BY_LCP_SOLVE, PREPARED or DIRECT */
    int layout;                /* pgs: 1 forces the streaming layout (stream.h) */
    int prepared;              /* PREPARED: the last setup made something */
} solve_call;

/* the setup of c's solver (pgs with c->layout) */
static lcp_status setup(solve_call *c, void **data)
{
    return c->layout ? lcp_pgs_prepare_layout(c->P, &c->opt, c->layout, data)
                     : lcp_prepare(c->s, c->P, &c->opt, data);
}

/* c's solver called directly (pgs with c->layout) */
static lcp_status solve(solve_call *c, const lcp_options *o, double *z, lcp_info *info)
{
    return c->layout ? lcp_pgs_solve_layout(c->P, o, z, info, c->layout, NULL)
                     : c->s->solve(c->P, o, z, info);
}

static lcp_status call(solve_call *c, double *z, lcp_info *info)
{
    if (!c->s) return ref_solve(c->P, &c->opt, &c->ro, z, info, &c->rs);
    if (c->how == BY_LCP_SOLVE) return lcp_solve(c->s, c->P, &c->opt, z, info);
    if (c->how == DIRECT) return solve(c, &c->opt, z, info);
    void *data = NULL;
    lcp_options o = c->opt;
    lcp_status st = setup(c, &data);
    c->prepared = data != NULL;
    o.prepared = data;
    if (st != LCP_OK) {                   /* the setup failed: no solve runs */
        lcp_info_init(info);
        info->status = st;
    }
    for (int k = 0; k < 2 && st == LCP_OK; k++) st = solve(c, &o, z, info);
    lcp_unprepare(c->s, data);
    return st;
}

/* k = 1, 2, ...: the k-th allocation refused gives out-of-memory with nothing live, and the
 * first k the solve no longer reaches gives the unarmed answer bit for bit; returns the
 * number of allocations (< 0: a defect, reported once as a diagnostic naming `what') */
static long armed_loop(solve_call *c, const char *what, lcp_status *st0)
{
    lcp_info info;
    int m = c->P->m;
    double *z0 = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    long live0 = lcp_tcov_live(), k, bad = 0;
    *st0 = z0 ? call(c, z0, &info) : LCP_ERR_NOMEM;
    for (k = 1; k < KMAX && z && z0; k++) {
        lcp_tcov_arm(k);
        lcp_status st = call(c, z, &info);
        long failed = lcp_tcov_failed();
        lcp_tcov_arm(0);
        int good = failed ? st == LCP_ERR_NOMEM && info.status == st
                          : st == *st0 && memcmp(z, z0, sizeof(double) * (size_t)m) == 0;
        good = good && lcp_tcov_live() == live0;
        if (!good && bad++ == 0)
            tap_diag("%s, allocation %ld refused: %s (unarmed %s), %ld blocks live (want %ld)",
                     what, k, lcp_status_str(st), lcp_status_str(*st0), lcp_tcov_live(), live0);
        if (!failed) break;
    }
    free(z);
    free(z0);
    return bad == 0 && k > 1 && k < KMAX ? k - 1 : -1;
}

static void test_solver(const lcp_solver *s, const lcp_problem *P, const char *name,
                        lcp_form form, lcp_order order, int omega_auto)
{
    solve_call c = {.s = s, .P = P};
    char what[256];
    lcp_status st0;
    lcp_options_default(&c.opt);
    c.opt.form = form;
    c.opt.order = order;
    c.opt.omega_auto = omega_auto;
    c.opt.max_iter = 50;
    snprintf(what, sizeof what, "%s on %s (%s)", s->name, name, lcp_form_name(form));
    long n = armed_loop(&c, what, &st0);
    ok(n > 0, "nomem/solve/%s/%s/%s/%s%s: each of %ld allocations refused gives out-of-memory, "
       "nothing leaks (unarmed: %s)", s->name, name, lcp_form_name(form), lcp_order_name(order),
       omega_auto ? "/omega-auto" : "", n, lcp_status_str(st0));
}

/* a solver's setup (PREPARED) or its own function (DIRECT), pgs with `layout' */
static void test_setup(const lcp_solver *s, const lcp_problem *P, const char *name, int how,
                       int layout)
{
    solve_call c = {.s = s, .P = P, .how = how, .layout = layout};
    char what[256];
    lcp_status st0;
    lcp_options_default(&c.opt);
    c.opt.max_iter = 50;
    snprintf(what, sizeof what, "%s on %s (%s)", s->name, name,
             how == PREPARED ? "prepared" : "own set-up");
    long n = armed_loop(&c, what, &st0);
    ok(n > 0 && (how != PREPARED || c.prepared),
       "nomem/%s/%s%s/%s: each of %ld allocations refused gives out-of-memory, nothing leaks "
       "(unarmed: %s)", how == PREPARED ? "prepare" : "own-set-up", s->name,
       layout ? "/layout" : "", name, n, lcp_status_str(st0));
}

/* ldlt-ref with a variant forced (supernodal factorisation, interior-point start) */
static void test_ref_variant(const lcp_problem *P, const char *name, int supernodal, int ipm)
{
    solve_call c = {.s = NULL, .P = P};
    char what[256];
    lcp_status st0;
    lcp_options_default(&c.opt);
    ref_options_default(&c.ro);
    c.ro.supernodal = supernodal;
    c.ro.ipm = ipm;
    snprintf(what, sizeof what, "ldlt-ref (supernodal %d, ipm %d) on %s", supernodal, ipm, name);
    long n = armed_loop(&c, what, &st0);
    /* the variant must really run: a supernodal factorisation / interior-point steps (the
     * statistics of the unarmed run, the last one armed_loop made without a refusal) */
    int ran = st0 == LCP_OK && (supernodal <= 0 || c.rs.supernodal > 0) &&
              (ipm <= 0 || c.rs.ipm_steps > 0);
    ok(ran && n > 0,
       "nomem/solve/ldlt-ref%s%s/%s: each of %ld allocations refused gives out-of-memory, "
       "nothing leaks (unarmed: %s, %ld supernodal factorisations, %ld interior-point steps)",
       supernodal > 0 ? "/supernodal" : "", ipm > 0 ? "/interior-point" : "", name, n,
       lcp_status_str(st0), c.rs.supernodal, c.rs.ipm_steps);
}

/* write P2 over a folder holding P1: out-of-memory keeps P1, success gives P2, no temporary */
static void test_write(const char *tmpdir, const char *name, const lcp_problem *P1,
                       const lcp_problem *P2)
{
    char msg[512], dir[1024];
    lcp_problem R;
    long live0 = lcp_tcov_live(), k, bad = 0;
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
    for (k = 1; k < KMAX; k++) {
        lcp_status s1 = lcp_write_instance(dir, P1, msg, sizeof msg);
        lcp_tcov_arm(k);
        lcp_status st = lcp_write_instance(dir, P2, msg, sizeof msg);
        long failed = lcp_tcov_failed();
        lcp_tcov_arm(0);
        lcp_status sr = lcp_read_instance(dir, &R, msg, sizeof msg);
        int good = s1 == LCP_OK && sr == LCP_OK && temporaries(dir) == 0 &&
                   (failed ? st == LCP_ERR_NOMEM && same_problem(P1, &R)
                           : st == LCP_OK && same_problem(P2, &R));
        lcp_problem_free(&R);
        good = good && lcp_tcov_live() == live0;
        if (!good && bad++ == 0)
            tap_diag("write %s, allocation %ld refused: %s, reread %s, %d temporaries", name, k,
                     lcp_status_str(st), lcp_status_str(sr), temporaries(dir));
        if (!failed) break;
    }
    ok(bad == 0 && k > 1 && k < KMAX,
       "nomem/write/%s: each of %ld allocations refused keeps the old files, no temporaries",
       name, k - 1);
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"three-spheres-step1", "chain-step300",
                                        "stack-150-mu0-step100"};
    char dir[1024], msg[512], tmpdir[512];
    if (argc < 2) {
        printf("Bail out! usage: test_nomem INSTANCES-FOLDER\n");
        return 1;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/lcpnomem-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp failed\n");
        return 1;
    }
    int ns;
    const lcp_solver *solvers = lcp_solvers(&ns);
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        lcp_problem P, P2;
        snprintf(dir, sizeof dir, "%s/%s", argv[1], names[t]);
        if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "nomem/%s: read: %s", names[t], msg);
            continue;
        }
        test_read(dir, names[t], &P);
        for (int s = 0; s < ns; s++) {
            if (lcp_solver_supports(&solvers[s], &P) != LCP_OK) {
                tap_diag("%s does not support %s", solvers[s].name, names[t]);
                continue;
            }
            const char *sn = solvers[s].name;
            test_solver(&solvers[s], &P, names[t], LCP_FORM_AUTO, LCP_ORDER_NATURAL, 0);
            if (!(solvers[s].needs & (LCP_DENSE | LCP_DIRECT)) && lcp_problem_has_factors(&P))
                test_solver(&solvers[s], &P, names[t], LCP_FORM_ASSEMBLED, LCP_ORDER_NATURAL, 0);
            if (t == 0 && strcmp(sn, "pgs") == 0)                   /* orderings' workspace */
                for (int o = LCP_ORDER_REVERSE; o <= LCP_ORDER_MASS; o++)
                    test_solver(&solvers[s], &P, names[t], LCP_FORM_AUTO, (lcp_order)o, 0);
            if (t == 0 && strcmp(sn, "pgs") == 0) {      /* the error ordering without A */
                lcp_read_options ro;
                lcp_problem Pf;
                char nf[300];
                lcp_read_options_default(&ro);
                ro.skip = LCP_READ_SKIP_A;
                snprintf(nf, sizeof nf, "%s-without-A", names[t]);
                if (lcp_read_instance_opt(dir, &ro, &Pf, msg, sizeof msg) == LCP_OK) {
                    test_solver(&solvers[s], &Pf, nf, LCP_FORM_AUTO, LCP_ORDER_ERROR, 0);
                    lcp_problem_free(&Pf);
                } else
                    ok(0, "nomem/%s: read without A: %s", names[t], msg);
            }
            if (t == 0 && strcmp(sn, "jacobi") == 0)                /* power iteration */
                test_solver(&solvers[s], &P, names[t], LCP_FORM_AUTO, LCP_ORDER_NATURAL, 1);
            int layout = strcmp(sn, "pgs") == 0 && lcp_problem_has_factors(&P);
            if (layout || strncmp(sn, "pgs-color", 9) == 0)          /* the setups */
                for (int how = PREPARED; how <= DIRECT; how++)
                    test_setup(&solvers[s], &P, names[t], how, layout);
        }
        if (t < 2) test_ref_variant(&P, names[t], 1, -1); /* friction; joints (chain) */
        if (t == 0) {               /* block steps leave violators only on three-spheres */
            test_ref_variant(&P, names[t], -1, 1);
            test_ref_variant(&P, names[t], 1, 1);
        }
        /* the new problem: q changed, zref added, z0 dropped */
        lcp_problem_init(&P2);
        int m = P.m;
        if (lcp_read_instance(dir, &P2, msg, sizeof msg) == LCP_OK) {
            P2.q[0] += 1.0;
            lcp_free(P2.z0);
            P2.z0 = NULL;
            P2.zref = lcp_calloc((size_t)m, sizeof(double));
            test_write(tmpdir, names[t], &P, &P2);
        }
        lcp_problem_free(&P2);
        lcp_problem_free(&P);
    }
    ok(lcp_tcov_live() == 0, "nomem/no-block-live-at-the-end");
    int rc = tap_done();
    if (rc == 0) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0) tap_diag("could not remove %s", tmpdir);
    }
    return rc;
}
