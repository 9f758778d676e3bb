/* bench_ref.c: time of the pivoting reference against rows, sparse CHOLMOD LDL^T
 * (`ldlt-ref') against the same pivoting on dense LAPACKE Cholesky (lcp_solve_ldlt_dense).
 *
 * Problems are contact-like and generated here: rigid bodies (6 dof: mass 0.5..1.5, box
 * inertia) on a jittered 3D grid, each touching its +x, +y, +z neighbours at two points;
 * a contact row couples two bodies,  J_i = [d, (c - p_a) x d | -d, -(c - p_b) x d]  for the
 * normal or a tangent direction d at contact point c.  A = J Minv J^T + diag(E), E = 1e-6
 * (compliance; without it the two points per face make A singular).  q = J v with random
 * body velocities.  Two kinds:
 *   frictionless  one normal row per contact point, standard LCP (lo = 0, hi = inf);
 *   friction      three rows per contact point (normal, two tangents with lo = -mu,
 *                 hi = mu, findex = the normal, mu = 0.5): the coupled boxed problem.
 * m = 250 .. 4000 for both paths (dense friction up to m = 1000: it needs about a
 * thousand factorisations), and a frictionless pile of 10^4 rows (sparse only), run first
 * so that getrusage's peak RSS is the sparse solver's.
 *
 * Output: one CSV line per run on stdout (kind,m,solver,status,iterations,pivots,
 * factorizations,time_s,residual_inf).  Run with OPENBLAS_NUM_THREADS=1 (meson benchmark
 * sets it).  Arguments: [dense_max [pile_rows]], or an instance folder and limits (a
 * captured pile, see run_instance).  Exit status 1 when a frictionless run fails to reach LCP_OK /
 * LCP_NONUNIQUE or the pile takes 5 s or more.
 */
#include "ldlt_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng_next(uint64_t *s) /* splitmix64 */
{
    uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static double unif(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* A contact problem with about m rows (friction: 3 rows per contact point).  0 on success. */
static int mk_contacts(lcp_problem *P, int m_target, int friction, uint64_t seed)
{
    uint64_t s = seed;
    int rows_pt = friction ? 3 : 1, pts = 2;
    int pairs_needed = (m_target + rows_pt * pts - 1) / (rows_pt * pts);
    int g = 1; /* grid side: about 3 g^3 neighbour pairs */
    while (3 * g * g * (g - 1) < pairs_needed) g++;
    int nb = g * g * g, n = 6 * nb, m = pairs_needed * pts * rows_pt;
    int nzJ = m * 12, rc = 0, t = 0, row = 0;
    int *ti = malloc(sizeof(int) * (size_t)nzJ), *tj = malloc(sizeof(int) * (size_t)nzJ);
    double *tx = malloc(sizeof(double) * (size_t)nzJ);
    double *pos = malloc(sizeof(double) * 3 * (size_t)nb);
    double *E = malloc(sizeof(double) * (size_t)m), *v = malloc(sizeof(double) * (size_t)n);
    lcp_problem_init(P);
    if (!ti || !tj || !tx || !pos || !E || !v) rc = -1;
    for (int b = 0; b < nb && rc == 0; b++) {
        int ix = b % g, iy = (b / g) % g, iz = b / (g * g);
        pos[3 * b + 0] = ix + 0.02 * (unif(&s) - 0.5);
        pos[3 * b + 1] = iy + 0.02 * (unif(&s) - 0.5);
        pos[3 * b + 2] = iz + 0.02 * (unif(&s) - 0.5);
    }
    if (rc == 0) P->findex = friction ? malloc(sizeof(int) * (size_t)m) : NULL;
    if (rc == 0 && lcp_problem_alloc_vectors(P, m) != LCP_OK) rc = -1;
    int pairs = 0;
    for (int b = 0; b < nb && rc == 0 && pairs < pairs_needed; b++)
        for (int ax = 0; ax < 3 && pairs < pairs_needed; ax++) {
            int ix = b % g, iy = (b / g) % g, iz = b / (g * g);
            int c3[3] = {ix, iy, iz};
            if (c3[ax] + 1 >= g) continue;
            int o = b + (ax == 0 ? 1 : ax == 1 ? g : g * g); /* the neighbour */
            double nrm[3] = {0, 0, 0}, t1[3] = {0, 0, 0}, t2[3];
            nrm[ax] = 1.0;
            t1[(ax + 1) % 3] = 1.0;
            cross(nrm, t1, t2);
            for (int k = 0; k < pts; k++) {
                double c[3], ra[3], rb[3];
                for (int d = 0; d < 3; d++) c[d] = 0.5 * (pos[3 * b + d] + pos[3 * o + d]);
                c[(ax + 1) % 3] += (k == 0 ? -0.4 : 0.4);
                c[(ax + 2) % 3] += 0.3 * (unif(&s) - 0.5);
                for (int d = 0; d < 3; d++) {
                    ra[d] = c[d] - pos[3 * b + d];
                    rb[d] = c[d] - pos[3 * o + d];
                }
                int normal = row;
                for (int r = 0; r < rows_pt; r++, row++) {
                    const double *dir = r == 0 ? nrm : (r == 1 ? t1 : t2);
                    double xa[3], xb[3];
                    cross(ra, dir, xa);
                    cross(rb, dir, xb);
                    for (int d = 0; d < 3; d++) { /* body b gets -d: n points from o to b */
                        ti[t] = row; tj[t] = 6 * b + d; tx[t++] = -dir[d];
                        ti[t] = row; tj[t] = 6 * b + 3 + d; tx[t++] = -xa[d];
                        ti[t] = row; tj[t] = 6 * o + d; tx[t++] = dir[d];
                        ti[t] = row; tj[t] = 6 * o + 3 + d; tx[t++] = xb[d];
                    }
                    E[row] = 1e-6;
                    if (friction) {
                        P->findex[row] = r == 0 ? -1 : normal;
                        if (r > 0) {
                            P->lo[row] = -0.5;
                            P->hi[row] = 0.5;
                        }
                    }
                }
            }
            pairs++;
        }
    if (rc == 0 && lcp_csr_from_triplets(&P->J, m, n, t, ti, tj, tx) != LCP_OK) rc = -1;
    t = 0;
    for (int b = 0; b < nb && rc == 0; b++) { /* Minv: 1/mass, inverse box inertia */
        double mass = 0.5 + unif(&s), inert = mass * (1.0 + 1.0) / 12.0;
        for (int d = 0; d < 6; d++) {
            ti[t] = tj[t] = 6 * b + d;
            tx[t++] = d < 3 ? 1.0 / mass : 1.0 / inert;
        }
    }
    if (rc == 0 && lcp_csr_from_triplets(&P->Minv, n, n, t, ti, tj, tx) != LCP_OK) rc = -1;
    if (rc == 0) {
        P->n = n;
        P->E = E;
        E = NULL;
        if (lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A) != LCP_OK) rc = -1;
    }
    if (rc == 0) {
        for (int k = 0; k < n; k++) v[k] = 2.0 * unif(&s) - 1.0;
        lcp_csr_matvec(&P->J, v, P->q); /* q = J v */
        char msg[256];
        if (lcp_problem_check(P, msg, sizeof msg) != LCP_OK) rc = -1;
    }
    free(ti);
    free(tj);
    free(tx);
    free(pos);
    free(E);
    free(v);
    return rc;
}

/* one timed run; returns 0 when the status is usable and exact */
static int run(const char *kind, const lcp_problem *P, int dense, double *seconds)
{
    lcp_options opt;
    lcp_info info;
    lcp_options_default(&opt);
    double *z = calloc((size_t)P->m, sizeof(double));
    double t0 = now();
    ref_options ro;
    ref_stats rs;
    ref_options_default(&ro);
    ro.backend = dense ? REF_DENSE : REF_CHOLMOD;
    lcp_status st = ref_solve(P, &opt, &ro, z, &info, &rs);
    double t = now() - t0;
    printf("%s,%d,%s,%s,%d,%ld,%ld,%.4f,%.3g\n", kind, P->m, dense ? "dense-lapacke" : "ldlt-ref",
           lcp_status_str(st), info.iterations, info.pivots, info.factorizations, t,
           info.residual_inf);
    if (getenv("BENCH_REF_VERBOSE"))
        fprintf(stderr, "# rounds %d shifted %d newton %ld single %ld ipm %ld analyses %ld "
                "flops %.3g\n", rs.rounds, rs.shifted, rs.newton_steps, rs.single_steps,
                rs.ipm_steps, rs.analyses, info.flops);
    fflush(stdout);
    free(z);
    if (seconds) *seconds = t;
    return (st == LCP_OK || st == LCP_NONUNIQUE) ? 0 : 1;
}

/* bench_ref INSTANCE_DIR [MAX_S [MAX_MB [SUPERNODAL]]]: one captured instance
 * (tests/bench/bench_ref_pile.sh captures sphere piles): its time, peak RSS, steps,
 * factorisations and nnz(L) (cpu_s: the process's CPU time, reading included, a
 * measure less disturbed by a loaded machine than the wall time); exit 1 unless exact in under MAX_S seconds (default 5) and
 * MAX_MB of peak RSS (default 1024).  SUPERNODAL: ref_options.supernodal (-1 auto, 0
 * CHOLMOD's simplicial LDL^T, 1 supernodal), for paired comparisons. */
static int run_instance(int argc, char **argv)
{
    const char *dir = argv[1];
    double max_s = argc > 2 ? atof(argv[2]) : 5.0, max_mb = argc > 3 ? atof(argv[3]) : 1024.0;
    lcp_problem P;
    char msg[512];
    if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
        fprintf(stderr, "bench_ref: %s\n", msg);
        return 1;
    }
    lcp_options opt;
    lcp_info info;
    ref_options ro;
    ref_stats rs;
    lcp_options_default(&opt);
    ref_options_default(&ro);
    if (argc > 4) ro.supernodal = atoi(argv[4]);
    if (argc > 5) ro.ssn = atoi(argv[5]);
    double *z = calloc((size_t)P.m + 1, sizeof(double));
    double t0 = now();
    lcp_status st = ref_solve(&P, &opt, &ro, z, &info, &rs);
    double t = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double mb = (double)ru.ru_maxrss / 1024.0;
    double cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                 (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    printf("rows,nnz_A,status,time_s,cpu_s,peak_rss_mb,steps,ipm_steps,factorizations,supernodal,"
           "gflop,max_nnz_L,residual_inf\n");
    printf("%d,%d,%s,%.3f,%.3f,%.1f,%d,%ld,%ld,%ld,%.3g,%.4g,%.3g\n", P.m, LCP_CSR_NNZ(&P.A),
           lcp_status_str(st), t, cpu, mb, info.iterations, rs.ipm_steps, info.factorizations,
           rs.supernodal, 1e-9 * info.flops, rs.lnz, info.residual_inf);
    printf("# rounds %d, coupled steps %ld, semismooth Newton steps %ld\n", rs.rounds,
           rs.coupled_steps, rs.ssn_steps);
    printf("# %s: targets %.0f s, %.0f MB\n", dir, max_s, max_mb);
    free(z);
    lcp_problem_free(&P);
    return !(st == LCP_OK || st == LCP_NONUNIQUE) || t >= max_s || mb >= max_mb;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9')) return run_instance(argc, argv);
    int dense_max = argc > 1 ? atoi(argv[1]) : 4000; /* dense runs up to this m */
    int pile = argc > 2 ? atoi(argv[2]) : 10000;      /* rows of the pile */
    int dense_friction_max = 1100;                    /* friction: ~1000 factorisations */
    int fail = 0;
    const int sizes[] = {250, 500, 1000, 2000, 4000};
    lcp_problem P;
    printf("kind,m,solver,status,iterations,pivots,factorizations,time_s,residual_inf\n");

    if (mk_contacts(&P, pile, 0, 7) == 0) { /* the pile first: RSS is then the sparse one */
        double t;
        fail |= run("pile-frictionless", &P, 0, &t);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("# pile: %d rows, %d bodies, nnz(A) %d, %.3f s, peak RSS %.1f MB\n", P.m, P.n / 6,
               LCP_CSR_NNZ(&P.A), t, (double)ru.ru_maxrss / 1024.0);
        if (t >= 5.0) fail = 1;
    } else {
        fail = 1;
    }
    lcp_problem_free(&P);

    for (int friction = 0; friction <= 1; friction++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            const char *kind = friction ? "friction" : "frictionless";
            if (mk_contacts(&P, sizes[k], friction, 100 + k) != 0) {
                fail = 1;
                continue;
            }
            int ff = run(kind, &P, 0, NULL);
            if (!friction) fail |= ff; /* friction: pivot caps are reported, not failures */
            if (sizes[k] <= dense_max && (!friction || sizes[k] <= dense_friction_max))
                run(kind, &P, 1, NULL);
            lcp_problem_free(&P);
        }
    return fail;
}
