/* test_problems.c: the physical checks of problems/README.md and the stepper's contracts, as TAP.
 *
 *   sizes/...             pool has 221 bodies and n = 663 columns of J
 *   stack-30/...          stands 600 steps: penetration < 1% r, KE < 1e-6 J once settled
 *                         (steps 400..600), sideways drift < 1 mm, and the column is
 *                         shortened by exactly the SPOOK compliance eps times the loads
 *   slide/...             box-friction slide, mu 1, no spin: stops after v0^2/(2 mu g) m and
 *                         v0/(mu g) s within 2% (capsule and three-spheres)
 *   bounce/...            a disk dropped from 1 m with e = 0.5 rebounds to e^2 within 5%
 *                         (h = 1/600 so that a step's travel at impact, 7 mm, is small, and
 *                         eps = 0: a rigid contact; measured 0.2479 m.  At h = 1/60 it
 *                         reaches 0.2359 m, 5.6% low; at h = 1/600 with eps = 1e-6 0.144 m,
 *                         the compliance E ~ eps / h^2 absorbing part of the impact);
 *                         below the restitution threshold it does not bounce
 *   pool/...              after 300 steps KE < 1% of its peak, every disk in the container
 *   chain/...             every link length within 1% over 600 steps, and over 1000 (the
 *                         chain's default h is 1/1000: 1000 steps include the whip)
 *   A/...                 A == J Minv J^T + diag(E) to 1e-12 relative (computed here, row by
 *                         row, independently of lcp_csr_jmjt) and A symmetric, for the
 *                         problems of every scene at several steps, and for every committed
 *                         instance under the folder given as argv[1] (problems/instances)
 *   warm/...              contact identity keeps the impulses across steps
 *   params/...            invalid parameters are rejected with a message
 *   determinism/...       two runs give bit-identical states
 */
#include "prob.h"
#include "makeworld.h"
#include "tap.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- A == J Minv J^T + diag(E), checked independently ----------------------------------- */

typedef struct acheck {
    int problems;     /* problems checked */
    double worst;     /* worst relative difference */
    int asym;         /* problems with A not symmetric */
    int n, m;         /* sizes of the last problem */
    int z0_bad;       /* warm-start rows not equal to the previous impulses */
    int z0_rows;      /* rows compared */
    int every;        /* check every this many steps */
} acheck;

static lcp_status check_hook(void *vctx, const prob_world *W, const lcp_problem *P, int t)
{
    acheck *c = vctx;
    c->n = P->n;
    c->m = P->m;
    if (t % c->every != 0) return LCP_OK;
    const lcp_csr *J = &P->J, *M = &P->Minv, *A = &P->A;
    double *u = calloc((size_t)P->n, sizeof(double));
    double *dense = calloc((size_t)P->n, sizeof(double));
    double *row = calloc((size_t)P->m, sizeof(double));
    if (!u || !dense || !row) return LCP_ERR_NOMEM;
    double amax = 0.0, dmax = 0.0;
    for (int k = 0; k < LCP_CSR_NNZ(A); k++) amax = fmax(amax, fabs(A->x[k]));
    for (int i = 0; i < P->m; i++) {
        memset(dense, 0, (size_t)P->n * sizeof(double));
        for (int k = J->p[i]; k < J->p[i + 1]; k++) dense[J->j[k]] = J->x[k]; /* J_i^T */
        for (int r = 0; r < P->n; r++) {                                    /* u = Minv J_i^T */
            double s = 0.0;
            for (int k = M->p[r]; k < M->p[r + 1]; k++) s += M->x[k] * dense[M->j[k]];
            u[r] = s;
        }
        for (int j = 0; j < P->m; j++) {                                    /* J_j u */
            double s = 0.0;
            for (int k = J->p[j]; k < J->p[j + 1]; k++) s += J->x[k] * u[J->j[k]];
            row[j] = s + (i == j && P->E ? P->E[i] : 0.0);
        }
        for (int k = A->p[i]; k < A->p[i + 1]; k++) row[A->j[k]] -= A->x[k];
        for (int j = 0; j < P->m; j++) dmax = fmax(dmax, fabs(row[j]));
    }
    c->worst = fmax(c->worst, dmax / fmax(amax, 1e-300));
    c->asym += !lcp_csr_is_symmetric(A);
    c->problems++;
    free(u);
    free(dense);
    free(row);
    (void)W;
    return LCP_OK;
}

static void check_A(const char *scene, const char *const *kv, int steps, int every)
{
    prob_world W;
    acheck c = {0, 0.0, 0, 0, 0, 0, 0, every};
    if (make(&W, scene, kv) != 0) {
        ok(0, "A/%s-built", scene);
        return;
    }
    prob_step_info info;
    int good = 1;
    for (int t = 0; t < steps && good; t++) good = step(&W, check_hook, &c, &info) == 0;
    ok(good && c.problems > 0 && c.worst <= 1e-12,
       "A/%s-equals-J-Minv-Jt-plus-E (%d problems, worst %.2g)", scene, c.problems, c.worst);
    ok(good && c.problems > 0 && c.asym == 0, "A/%s-symmetric", scene);
    prob_world_free(&W);
}

/* ---- checks ------------------------------------------------------------------------------ */

static void test_stack(void)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "stack", NULL) == 0;
    double r = 0.18, pen = 0.0, ke_late = 0.0, drift = 0.0;
    for (int t = 1; t <= 600 && good; t++) {
        good = step(&W, NULL, NULL, &info) == 0;
        pen = fmax(pen, info.max_penetration);
        if (t >= 400) ke_late = fmax(ke_late, info.kinetic_energy);
        for (int k = 0; k < W.nb; k++) drift = fmax(drift, fabs(W.pos[3 * k]));
    }
    ok(good && W.nc == 30, "stack-30/still-30-contacts-after-600-steps");
    ok(good && pen < 0.01 * r, "stack-30/penetration-below-1%%-of-radius (%.3g m)", pen);
    ok(good && ke_late < 1e-6, "stack-30/kinetic-energy-below-1e-6-after-settling (%.3g J)",
       ke_late);
    ok(good && drift < 1e-3, "stack-30/sideways-drift-below-1mm (%.3g m)", drift);
    /* SPOOK at rest: a g + E z = 0, so a contact sinks by g = -E z / a = -eps z / h = -eps F
     * with F the weight it carries; the top disk sits eps sum_i (30 - i) m g lower */
    double eps = W.eps, want = 0.18 + 29 * 0.36 - eps * 465 * 9.80665, top = W.pos[3 * 29 + 1];
    ok(good && fabs(top - want) < 1e-5,
       "stack-30/compliance-only-compression-eps-times-load (top %.6f m, want %.6f m)", top,
       want);
    prob_world_free(&W);
}

static void test_slide(const char *scene)
{
    static const char *const kv[] = {"w0=0", "mu=1", "v0=10", NULL};
    prob_world W;
    prob_step_info info;
    int good = make(&W, scene, kv) == 0;
    double g = 9.80665, v0 = 10.0, mu = 1.0, x0 = W.pos[0], tstop = -1.0;
    for (int t = 1; t <= 200 && good; t++) {
        good = step(&W, NULL, NULL, &info) == 0;
        if (tstop < 0 && fabs(W.vel[0]) < 1e-3) tstop = t * W.h;
    }
    double dist = W.pos[0] - x0;
    /* both expected values exceed 1: ok_close's tolerance is relative */
    ok_close(dist, v0 * v0 / (2 * mu * g), 0.02, "slide/%s-stops-after-v0^2/(2 mu g) (%.4f m)",
             scene, dist);
    ok_close(tstop, v0 / (mu * g), 0.02, "slide/%s-stops-after-v0/(mu g)-seconds (%.4f s)",
             scene, tstop);
    ok(good && fabs(W.pos[1]) < 1e-4 && fabs(W.vel[5]) < 1e-4,
       "slide/%s-goes-straight-without-spin (y %.3g m, spin %.3g rad/s)", scene, W.pos[1],
       W.vel[5]);
    prob_world_free(&W);
}

/* highest bottom height y - r after the first contact; returns -1 on failure */
static double rebound(const char *const *kv, int steps)
{
    prob_world W;
    prob_step_info info;
    if (make(&W, "stack", kv) != 0) return -1;
    double r = W.geom[0].r, best = 0.0;
    int touched = 0;
    for (int t = 0; t < steps; t++) {
        if (step(&W, NULL, NULL, &info) != 0) {
            best = -1;
            break;
        }
        if (info.contacts > 0) touched = 1;
        if (touched && W.vel[1] < 0 && best > 0) break; /* falling again after the bounce */
        if (touched) best = fmax(best, W.pos[1] - r);
    }
    prob_world_free(&W);
    return best;
}

static void test_bounce(void)
{
    /* rigid contact (eps = 0): with compliance the separating speed is e v_approach - E z */
    static const char *const kv[] = {"n=1", "drop=1", "e=0.5", "h=1/600", "eps=0", NULL};
    double hmax = rebound(kv, 3000);
    ok_close(hmax, 0.25, 0.05 * 0.25,
             "bounce/disk-rebounds-to-e^2-of-drop-height (e 0.5, h 1/600, eps 0: %.4f m)", hmax);
    /* impact speed sqrt(2 g 0.01) = 0.44 m/s < vrest 0.5: no restitution */
    static const char *const slow[] = {"n=1", "drop=0.01", "e=0.5", "h=1/600", NULL};
    double hs = rebound(slow, 600);
    ok(hs >= 0 && hs < 1e-3, "bounce/no-bounce-below-vrest (rebound %.3g m)", hs);
}

/* One run of a pool scene serves several checks: the A check at steps 50 and 100, the sizes
 * at step 100, the warm-start matches over steps 101..120, the settling after 300 steps, and
 * (pool) a second run of 60 steps that must be bit-identical. */
static void test_pool(const char *scene)
{
    prob_world W;
    prob_step_info info;
    acheck c = {0, 0.0, 0, 0, 0, 0, 0, 50};
    int good = make(&W, scene, NULL) == 0, det = strcmp(scene, "pool") == 0;
    double peak = 0.0, half = 3.0, *pos60 = calloc(3 * 221, sizeof(double));
    int out = 0, matched = 0, contacts = 0;
    ok(good && W.nb == 221 && W.nb * W.ndof == 663, "sizes/%s-221-disks-n-663", scene);
    for (int t = 1; t <= 300 && good; t++) {
        good = step(&W, t <= 100 ? check_hook : NULL, &c, &info) == 0;
        peak = fmax(peak, info.kinetic_energy);
        for (int k = 0; k < W.nb; k++)
            out += fabs(W.pos[3 * k]) > half || W.pos[3 * k + 1] < 0.0;
        if (t == 60 && pos60) memcpy(pos60, W.pos, 3 * 221 * sizeof(double));
        if (t == 100)
            ok(good && c.n == 663 && c.m == info.rows && info.rows == 2 * info.contacts,
               "sizes/%s-step100-J-has-663-columns-and-2-rows-per-contact (m = %d)", scene,
               c.m);
        if (t > 100 && t <= 120) matched += info.warm_matched, contacts += info.contacts;
    }
    ok(good && c.problems == 2 && c.worst <= 1e-12,
       "A/%s-equals-J-Minv-Jt-plus-E (steps 50 and 100, worst %.2g)", scene, c.worst);
    ok(good && c.problems == 2 && c.asym == 0, "A/%s-symmetric", scene);
    ok(good && matched >= 0.9 * contacts,
       "warm/%s-most-contacts-keep-their-identity-over-steps-101-120 (%d of %d)", scene,
       matched, contacts);
    ok(good && info.kinetic_energy <= 0.01 * peak,
       "pool/%s-kinetic-energy-down-99%%-after-300-steps (%.3g of peak %.3g J)", scene,
       info.kinetic_energy, peak);
    ok(good && out == 0, "pool/%s-no-disk-left-the-container", scene);
    prob_world_free(&W);
    if (det) {
        good = good && pos60 && make(&W, scene, NULL) == 0;
        for (int t = 1; t <= 60 && good; t++) good = step(&W, NULL, NULL, &info) == 0;
        ok(good && memcmp(W.pos, pos60, 3 * 221 * sizeof(double)) == 0,
           "determinism/%s-two-runs-bit-identical-after-60-steps", scene);
        prob_world_free(&W);
    }
    free(pos60);
}

/* pool-graded is pool with masses from 1 kg (lowest row) to 3 kg (highest row); its
 * dynamics share pool's code (its step-100 instance is checked with the committed set) */
static void test_graded(void)
{
    prob_world W;
    int good = make(&W, "pool-graded", NULL) == 0, mono = good;
    for (int k = 1; good && k < W.nb; k++)
        mono = mono && (W.pos[3 * k + 1] > W.pos[3 * k - 2] ? W.mass[k] > W.mass[k - 1]
                                                            : W.mass[k] == W.mass[k - 1]);
    ok(good && W.nb == 221 && W.mass[0] == 1.0 && W.mass[220] == 3.0 && mono,
       "sizes/pool-graded-masses-1-to-3-kg-growing-with-height");
    if (good) prob_world_free(&W);
}

static void test_chain(void)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "chain", NULL) == 0;
    double worst = 0.0, worst600 = 0.0, low = 0.0;
    for (int t = 1; t <= 1000 && good; t++) {
        if (t == 601) worst600 = worst;
        low = fmin(low, W.pos[3 * (W.nb - 1) + 1]);
        good = step(&W, NULL, NULL, &info) == 0;
        for (int j = 0; j < W.nj; j++) {
            const prob_joint *J = &W.joint[j];
            const double *a = W.pos + 3 * J->a;
            const double *b = J->b >= 0 ? W.pos + 3 * J->b : J->pb;
            double d = hypot(a[0] - b[0], a[1] - b[1]);
            worst = fmax(worst, fabs(d - J->len) / J->len);
        }
    }
    ok(good && worst600 < 0.01, "chain/links-within-1%%-over-600-steps (worst %.3g)", worst600);
    ok(good && worst < 0.01, "chain/links-within-1%%-over-1000-steps-through-the-whip (worst %.3g)",
       worst);
    ok(good && low < -1.5, "chain/has-swung-down (lowest end y = %.3f m)", low);
    prob_world_free(&W);
}

typedef struct warmctx {
    int rows, bad;
} warmctx;

/* z0 of the problem equals the impulses the previous step stored with the same identity */
static lcp_status warm_hook(void *vctx, const prob_world *W, const lcp_problem *P, int t)
{
    warmctx *c = vctx;
    (void)t;
    int rpc = P->m / (W->nc ? W->nc : 1);
    for (int k = 0; k < W->nc && P->m == rpc * W->nc; k++)
        for (int f = 0; f < rpc; f++) {
            c->rows++;
            c->bad += P->z0[k * rpc + f] != W->c[k].z[f];
        }
    return LCP_OK;
}

static void test_warm(void)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "stack", NULL) == 0, all = 1;
    warmctx c = {0, 0};
    for (int t = 1; t <= 50 && good; t++) {
        good = step(&W, t > 40 ? warm_hook : NULL, &c, &info) == 0;
        if (t > 1) all = all && info.warm_matched == info.contacts;
    }
    ok(good && all, "warm/stack-every-contact-matched-every-step");
    ok(good && c.rows == 10 * 60 && c.bad == 0,
       "warm/stack-z0-equals-previous-impulses (%d rows, %d differ)", c.rows, c.bad);
    prob_world_free(&W);
}

static void test_params(void)
{
    const prob_scene *s = prob_scene_find("pool");
    prob_params P;
    char msg[512];
    static const char *const bad[] = {"r=-1", "m=0", "mu=-0.1", "e=1.5", "n=2.5", "bogus=1",
                                      "r=abc", "h=0", "seed=-1", "r", NULL};
    for (const char *const *b = bad; *b; b++) {
        prob_params_default(s, &P);
        msg[0] = 0;
        lcp_status st = prob_params_set(&P, *b, msg, sizeof msg);
        ok(st == LCP_ERR_ARG && msg[0], "params/rejects-%s (%s)", *b, msg);
    }
    prob_params_default(s, &P);
    ok(prob_params_set(&P, "h=1/120", msg, sizeof msg) == LCP_OK &&
           prob_param_get(&P, "h") == 1.0 / 120.0,
       "params/fraction-value-h=1/120");
    prob_world W;
    prob_params_default(s, &P);
    prob_params_set(&P, "r=0.3", msg, sizeof msg);
    msg[0] = 0;
    ok(prob_world_create(&W, s, &P, msg, sizeof msg) == LCP_ERR_ARG &&
           strstr(msg, "does not fit"),
       "params/pool-that-does-not-fit-is-rejected (%s)", msg);
    int n;
    const prob_scene *all = prob_scenes(&n);
    int named = n == 17;
    for (int k = 0; k < n; k++)
        named = named && all[k].name && all[k].description && prob_scene_find(all[k].name);
    ok(named, "params/registry-lists-17-named-scenes");
}

/* every instance folder under dir: read (validated) and checked like the stepper's */
static void check_folders(const char *dir)
{
    DIR *d = opendir(dir);
    int seen = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096], msg[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        lcp_problem P;
        lcp_problem_init(&P);
        if (lcp_read_instance(path, &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "A/instance-%s-reads (%s)", e->d_name, msg);
            continue;
        }
        acheck c = {0, 0.0, 0, 0, 0, 0, 0, 1};
        lcp_status st = lcp_problem_has_factors(&P) ? check_hook(&c, NULL, &P, 1) : LCP_ERR_ARG;
        ok(st == LCP_OK && c.worst <= 1e-12 && c.asym == 0,
           "A/instance-%s-equals-J-Minv-Jt-plus-E-and-is-symmetric (m %d, worst %.2g)",
           e->d_name, P.m, c.worst);
        lcp_problem_free(&P);
        seen++;
    }
    if (d) closedir(d);
    ok(seen >= 10, "A/instances-found-under-%s (%d)", dir, seen);
}

int main(int argc, char **argv)
{
    test_params();
    test_stack();
    test_slide("capsule");
    test_slide("three-spheres");
    test_bounce();
    test_pool("pool");
    test_graded();
    test_chain();
    test_warm();
    static const char *const mu0[] = {"mu=0", "n=65", NULL};
    check_A("pool", mu0, 100, 50);
    check_A("stack", NULL, 100, 50);
    static const char *const sph[] = {"n=60", NULL};
    check_A("spheres", sph, 60, 30);
    check_A("capsule", NULL, 20, 1);
    check_A("three-spheres", NULL, 20, 1);
    check_A("chain", NULL, 100, 25);
    static const char *const wall[] = {"layers=3", "cols=3", NULL};
    check_A("boxes", wall, 60, 20);
    check_A("mass-ratio", NULL, 60, 20);
    static const char *const drape[] = {"pose=1", "n=8", NULL};
    check_A("links", drape, 120, 20);
    static const char *const silo[] = {"n=24", "cols=3", NULL}, *kapla[] = {"layers=2", NULL};
    check_A("silo", silo, 40, 20);
    check_A("kapla", kapla, 20, 10);
    if (argc > 1) check_folders(argv[1]);
    return tap_done();
}
