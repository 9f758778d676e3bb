/* bench_mem.c: the matrix-free PGS sweep against the streaming floor, and the peak memory
 * of a matrix-free solve with and without A (results/performance.md, issue "sweeps nearer
 * the memory limit").
 *   triad      a_i = b_i + s c_i on three arrays of TRIAD_N doubles (3 x 512 MiB, well past
 *              the last-level cache), one thread, STREAM's count of 24 bytes an element;
 *              the best of the round's 3 passes is the round's bandwidth
 *   bytes      what one matrix-free sweep in natural order must move at least once: J and
 *              B = J Minv (8-byte value + 4-byte column an entry, 4-byte row pointers), q,
 *              lo, hi, the step omega / a_ii and z (8 bytes a row each), E and findex when
 *              present, and u = Minv J^T z read and written (16 bytes a body coordinate)
 *   floor      bytes / bandwidth of the same round
 *   sweep      slope of pgs's solve time (tol < 0, 101 sweeps against 1), on the plain
 *              matrix-free rows and through the streaming layout (lcp/stream.c; its build,
 *              in both solves, cancels in the slope and is timed apart)
 *   layout     the bytes the layout's sweep moves (its records, J's values, z, u read and
 *              written), printed beside the floor's count with the ratio against them
 *   float32    pgs precision=float32 through the layout in the same rounds (J and B rounded
 *              to float32, B's values two to a word; lcp/README.md, "float32 storage"),
 *              against its own floors: the CSR count with 8 bytes an entry of J and B, and
 *              the bytes its layout moves (its records, J's float values, z, u read and
 *              written), each over the same round's triad (target <= 1.15 at 10^6 rows)
 *   read pass  the plain rows' reads in their order with their row sums but no projection
 *              and no update (rows independent): what memory gives the access pattern; the
 *              sweep / read pass is what the Gauss-Seidel dependence and the update add
 *   cycles     the core's clock, timed on a chain of dependent integer additions (one a
 *              cycle), turns the sweep's and the floor's ns a row into cycles a row: in
 *              cache, cycles a row over instructions a row (results/performance.md) tells
 *              whether the rows' instructions alone exceed what the floor allows
 * ROUNDS rounds, each timing the triad then the two sweeps (paired: this machine's
 * neighbours change the bandwidth from one second to the next); prints the median ratios
 * sweep / floor, plain / layout, and their ranges.
 * With an instance folder, two child processes each read it (whole, or without A) and run
 * 20 matrix-free pgs sweeps; each one's peak RSS (wait4's resource usage of that child)
 * is printed.
 * Usage: bench_mem [CONTACTS | DIR]...   (CONTACTS: a synthetic 3D problem with 3 rows per
 * contact, as tests/bench/bench_core.c; default 3334, 33334 and 333334, i.e. 10^4 rows, whose
 * sweep fits in the last-level cache (what the rows' instructions cost without memory),
 * then 10^5 and 10^6 rows)
 */
#define _DEFAULT_SOURCE /* wait4 */
#include "lcp.h"
#include "testprob.h"
#include "benchclock.h"
#include "stream.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 7
#define TRIAD_N (1L << 26)

/* bytes per second of the triad, best of 3 passes */
static double triad(double *a, const double *b, const double *c)
{
    double best = 0.0;
    for (int pass = 0; pass < 3; pass++) {
        double t0 = now();
        for (long i = 0; i < TRIAD_N; i++) a[i] = b[i] + 3.0 * c[i];
        double bw = 24.0 * (double)TRIAD_N / (now() - t0);
        if (bw > best) best = bw;
    }
    return best;
}

/* seconds of a matrix-free pgs solve of `sweeps' sweeps, the layout as asked (stream.h) */
static double solve_time_as(const lcp_problem *P, int sweeps, double *z, int layout,
                           double *build, lcp_precision prec)
{
    lcp_options o;
    lcp_options_default(&o);
    o.precision = prec;
    o.tol = -1;
    o.max_iter = sweeps;
    o.form = LCP_FORM_MATRIX_FREE;
    lcp_info info;
    for (int i = 0; i < P->m; i++) z[i] = 0.0;
    double t0 = now();
    lcp_pgs_solve_layout(P, &o, z, &info, layout, build);
    return now() - t0;
}

static double solve_time(const lcp_problem *P, int sweeps, double *z, int layout, double *build)
{
    return solve_time_as(P, sweeps, z, layout, build, LCP_PRECISION_FLOAT64);
}

/* float32: bytes of the CSR sweep with 8 bytes an entry of J and B, and *layout those of the
 * float32 layout (records with B's float values, J's float values, z, u read and written) */
static double sweep_bytes_f32(const lcp_problem *P, double *layout)
{
    lcp_csr B = {0};
    *layout = 0.0;
    if (lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) return 0.0;
    double m = P->m, n = P->n;
    double b = 8.0 * LCP_CSR_NNZ(&P->J) + 8.0 * LCP_CSR_NNZ(&B) + 8.0 * (m + 1);
    b += 40.0 * m + (P->E ? 8.0 * m : 0.0) + (P->findex ? 4.0 * m : 0.0) + 16.0 * n;
    double *step = calloc((size_t)P->m + 1, sizeof(double));
    lcp_stream S;
    if (step && lcp_stream_build_as(&S, P, &B, step, NULL, 0, 1) == LCP_OK) {
        *layout = 8.0 * S.off[P->m] + 4.0 * LCP_CSR_NNZ(&P->J) + 8.0 * m + 16.0 * n;
        lcp_stream_free(&S);
    }
    free(step);
    lcp_csr_free(&B);
    return b;
}

/* bytes one matrix-free sweep must move at least once in CSR form; *layout gets those of
 * the streaming layout (its records, J's values, z, and u read and written) */
static double sweep_bytes(const lcp_problem *P, double *layout)
{
    lcp_csr B = {0};
    *layout = 0.0;
    if (lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) return 0.0;
    double m = P->m, n = P->n;
    double b = 12.0 * LCP_CSR_NNZ(&P->J) + 12.0 * LCP_CSR_NNZ(&B) + 8.0 * (m + 1);
    b += 40.0 * m + (P->E ? 8.0 * m : 0.0) + (P->findex ? 4.0 * m : 0.0) + 16.0 * n;
    double *step = calloc((size_t)P->m + 1, sizeof(double));
    lcp_stream S;
    if (step && lcp_stream_build(&S, P, &B, step, NULL, 0) == LCP_OK) {
        *layout = 8.0 * S.off[P->m] + 8.0 * LCP_CSR_NNZ(&P->J) + 8.0 * m + 16.0 * n;
        lcp_stream_free(&S);
    }
    free(step);
    lcp_csr_free(&B);
    return b;
}

static void sorted(double *x) { qsort(x, ROUNDS, sizeof(double), cmp); }

/* seconds of one pass that reads what the plain rows read, in their order: q, lo, hi, the
 * step, z, E, findex, J's row with u at its columns (r_i = q_i + J_i u + E_i z_i), and B's
 * row; no projection and no update of u, so no row waits for another.  What the memory
 * system gives the sweep's access pattern; the best of 3 passes. */
static volatile double read_sink; /* the read pass's sums land here, so they are kept */

static double read_pass(const lcp_problem *P, const lcp_csr *B, const double *step,
                        const double *z, const double *u)
{
    const lcp_csr *J = &P->J;
    double best = 1e300;
    for (int pass = 0; pass < 3; pass++) {
        double t0 = now(), s0 = 0.0, s1 = 0.0, s2 = 0.0;
        long li = 0;
        for (int i = 0; i < P->m; i++) {
            double r = P->q[i] + P->lo[i] + P->hi[i] + step[i];
            for (int k = J->p[i]; k < J->p[i + 1]; k++) r += J->x[k] * u[J->j[k]];
            if (P->E) r += P->E[i] * z[i];
            if (P->findex) li += P->findex[i];
            double b0 = 0.0, b1 = 0.0;
            int k = B->p[i];
            for (; k + 1 < B->p[i + 1]; k += 2) {
                b0 += B->x[k];
                b1 += B->x[k + 1];
                li += B->j[k] ^ B->j[k + 1];
            }
            if (k < B->p[i + 1]) b0 += B->x[k] + B->j[k];
            s0 += r;
            s1 += b0;
            s2 += b1;
        }
        double t = now() - t0;
        read_sink = s0 + s1 + s2 + (double)li;
        if (t < best) best = t;
    }
    return best;
}

/* cycles a second: a chain of dependent integer additions, each a cycle on current cores
 * (the empty asm keeps every addition and its order); the median of 5 passes */
static double clock_hz(void)
{
    double hz[5];
    for (int pass = 0; pass < 5; pass++) {
        const long n = 20000000;
        long x = 0;
        double t0 = now();
        for (long i = 0; i < n; i++) {
#pragma GCC unroll 8
            for (int j = 0; j < 8; j++) {          /* 8 a turn: the loop's own work overlaps */
                x += 1;
                __asm__ volatile("" : "+r"(x));
            }
        }
        hz[pass] = (double)x / (now() - t0);
    }
    qsort(hz, 5, sizeof(double), cmp);
    return hz[2];
}

/* the last-level cache of one core, from sysfs (glibc's sysconf reported ten times the
 * size on a virtual machine here); 0 when unknown */
static long llc_bytes(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    long kb = 0;
    if (f) {
        if (fscanf(f, "%ldK", &kb) != 1) kb = 0;
        fclose(f);
    }
    return kb * 1024;
}

static void stream_case(const lcp_problem *P, const char *what, double *a, double *b, double *c,
                        double hz)
{
    double *z = calloc((size_t)P->m, sizeof(double));
    double lbytes, bytes = sweep_bytes(P, &lbytes), bw[ROUNDS], sw[ROUNDS], ls[ROUNDS];
    double ratio[ROUNDS], lratio[ROUNDS], lown[ROUNDS], gain[ROUNDS], build[ROUNDS];
    double rp[ROUNDS], rpratio[ROUNDS], rpgap[ROUNDS];
    double l32bytes, bytes32 = sweep_bytes_f32(P, &l32bytes), s32[ROUNDS], r32[ROUNDS];
    double r32own[ROUNDS], g32[ROUNDS];
    lcp_csr B = {0};
    double *step = calloc((size_t)P->m + 1, sizeof(double));
    double *u = calloc((size_t)P->n + 1, sizeof(double));
    if (!z || !step || !u || lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) {
        fprintf(stderr, "bench_mem: no room for %s\n", what);
        exit(1);
    }
    for (int i = 0; i < P->m; i++) step[i] = 1.0;
    for (int r = 0; r < ROUNDS; r++) {
        bw[r] = triad(a, b, c);
        rp[r] = read_pass(P, &B, step, z, u);
        rpratio[r] = rp[r] / (bytes / bw[r]);
        sw[r] = (solve_time(P, 101, z, 0, NULL) - solve_time(P, 1, z, 0, NULL)) / 100;
        rpgap[r] = sw[r] / rp[r];
        double t1 = solve_time(P, 1, z, 1, &build[r]);
        ls[r] = (solve_time(P, 101, z, 1, NULL) - t1) / 100;
        ratio[r] = sw[r] / (bytes / bw[r]);
        lratio[r] = ls[r] / (bytes / bw[r]);
        lown[r] = ls[r] / (lbytes / bw[r]);
        gain[r] = sw[r] / ls[r];
        double t32 = solve_time_as(P, 1, z, 1, NULL, LCP_PRECISION_FLOAT32);
        s32[r] = (solve_time_as(P, 101, z, 1, NULL, LCP_PRECISION_FLOAT32) - t32) / 100;
        r32[r] = s32[r] / (bytes32 / bw[r]);
        r32own[r] = s32[r] / (l32bytes / bw[r]);
        g32[r] = s32[r] / ls[r];
    }
    sorted(bw), sorted(sw), sorted(ls), sorted(ratio), sorted(lratio), sorted(lown), sorted(gain);
    sorted(build), sorted(rp), sorted(rpratio), sorted(rpgap);
    sorted(s32), sorted(r32), sorted(r32own), sorted(g32);
    int h = ROUNDS / 2, e = ROUNDS - 1;
    printf("%s: rows %d, nnz(J) %d, body coordinates %d\n", what, P->m, LCP_CSR_NNZ(&P->J), P->n);
    printf("  triad bandwidth %.2f GB/s (median of %d rounds, %.2f to %.2f)\n", bw[h] / 1e9,
           ROUNDS, bw[0] / 1e9, bw[e] / 1e9);
    printf("  bytes per sweep %.1f MB (%.0f a row); floor %.3f ms at the median bandwidth\n",
           bytes / 1e6, bytes / P->m, 1e3 * bytes / bw[h]);
    printf("  plain rows: sweep %.3f ms median (%.3f to %.3f), %.1f ns a row\n", 1e3 * sw[h],
           1e3 * sw[0], 1e3 * sw[e], 1e9 * sw[h] / P->m);
    printf("  plain rows: sweep / floor %.2f median of %d paired (%.2f to %.2f)\n", ratio[h],
           ROUNDS, ratio[0], ratio[e]);
    printf("  plain rows: %.0f cycles a row at %.2f GHz; the floor allows %.0f\n",
           hz * sw[h] / P->m, hz / 1e9, hz * bytes / bw[h] / P->m);
    printf("  read pass (the plain rows' reads and row sums, no update, no row waiting for "
           "another): %.3f ms, / floor %.2f (%.2f to %.2f); plain sweep / read pass %.2f (%.2f "
           "to %.2f)\n", 1e3 * rp[h], rpratio[h], rpratio[0], rpratio[e], rpgap[h], rpgap[0],
           rpgap[e]);
    printf("  layout: built in %.3f ms (median; %.3f to %.3f); %.1f MB a sweep (%.0f a row)\n",
           1e3 * build[h], 1e3 * build[0], 1e3 * build[e], lbytes / 1e6, lbytes / P->m);
    printf("  layout: sweep %.3f ms median (%.3f to %.3f), %.1f ns a row\n", 1e3 * ls[h],
           1e3 * ls[0], 1e3 * ls[e], 1e9 * ls[h] / P->m);
    printf("  layout: sweep / floor %.2f median of %d paired (%.2f to %.2f) (target <= 1.15)\n",
           lratio[h], ROUNDS, lratio[0], lratio[e]);
    printf("  layout: sweep / its own bytes' floor %.2f (%.2f to %.2f)\n", lown[h], lown[0],
           lown[e]);
    printf("  plain / layout sweep time %.2f (%.2f to %.2f)\n", gain[h], gain[0], gain[e]);
    printf("  float32 layout: %.0f bytes a row in CSR form, %.0f through its layout; sweep "
           "%.3f ms median (%.3f to %.3f), %.1f ns a row, / float64 layout %.2f (%.2f to %.2f)\n",
           bytes32 / P->m, l32bytes / P->m, 1e3 * s32[h], 1e3 * s32[0], 1e3 * s32[e],
           1e9 * s32[h] / P->m, g32[h], g32[0], g32[e]);
    printf("  float32 layout: sweep / its CSR floor %.2f, / its own layout bytes' floor %.2f "
           "median of %d paired (%.2f to %.2f) (target <= 1.15 at 10^6 rows)\n", r32[h],
           r32own[h], ROUNDS, r32own[0], r32own[e]);
    long llc = llc_bytes();
    if (llc > 0 && bytes < 0.5 * (double)llc)
        printf("  fits in the last-level cache (%ld MB): the sweep / floor here is what the rows' "
               "own instructions cost, the bound for a sweep from memory\n", llc >> 20);
    fflush(stdout);
    lcp_csr_free(&B);
    free(step);
    free(u);
    free(z);
}

/* peak RSS (kB) of a child that reads dir with skip and runs 20 matrix-free pgs sweeps */
static long child_rss(const char *dir, unsigned skip, int *status)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        lcp_problem P;
        lcp_read_options ro;
        char msg[1024];
        lcp_read_options_default(&ro);
        ro.skip = skip;
        if (lcp_read_instance_opt(dir, &ro, &P, msg, sizeof msg) != LCP_OK) {
            fprintf(stderr, "bench_mem: %s\n", msg);
            _exit(1);
        }
        double *z = calloc((size_t)P.m, sizeof(double));
        lcp_options o;
        lcp_options_default(&o);
        o.max_iter = 20;
        o.form = LCP_FORM_MATRIX_FREE;
        lcp_info info;
        lcp_status st = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
        _exit(st < 0 ? 1 : 0);
    }
    struct rusage ru;
    int ws = 0;
    if (pid < 0 || wait4(pid, &ws, 0, &ru) != pid) return -1;
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
    return ru.ru_maxrss;   /* this child's own peak */
}

int main(int argc, char **argv)
{
    /* the children first, before the triad's arrays exist (a child's RSS counts the pages
     * it shares with its parent) */
    long rss[64][2];
    for (int k = 1; k < argc && k < 64; k++) {
        int s1 = 0, s2 = 0;
        rss[k][0] = rss[k][1] = -1;
        if (argv[k][0] >= '0' && argv[k][0] <= '9') continue;
        rss[k][1] = child_rss(argv[k], LCP_READ_SKIP_A, &s2);
        rss[k][0] = child_rss(argv[k], 0, &s1);
        if (s1 || s2) rss[k][0] = rss[k][1] = -1;
    }
    double *a = malloc(TRIAD_N * sizeof(double)), *b = malloc(TRIAD_N * sizeof(double)),
           *c = malloc(TRIAD_N * sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "bench_mem: no room for the triad's arrays\n");
        return 1;
    }
    for (long i = 0; i < TRIAD_N; i++) a[i] = 0.0, b[i] = 1.0, c[i] = 2.0;
    double hz = clock_hz();
    printf("clock about %.2f GHz (a chain of dependent integer additions, one a cycle)\n",
           hz / 1e9);
    const char *def[] = {"3334", "33334", "333334"};
    int nargs = argc > 1 ? argc - 1 : 3;
    int bad = 0;
    for (int k = 0; k < nargs; k++) {
        const char *arg = argc > 1 ? argv[k + 1] : def[k];
        lcp_problem P;
        if (arg[0] >= '0' && arg[0] <= '9') {
            int contacts = atoi(arg);
            if (tp_contact(&P, 6, contacts * 2 / 3, contacts, 2, 0.5, 1e-3, 1) != 0) return 1;
            lcp_csr_free(&P.A);        /* the matrix-free sweep does not need it */
            stream_case(&P, "synthetic", a, b, c, hz);
            lcp_problem_free(&P);
            continue;
        }
        long whole = k + 1 < 64 ? rss[k + 1][0] : -1, lean = k + 1 < 64 ? rss[k + 1][1] : -1;
        lcp_read_options ro;
        char msg[1024];
        lcp_read_options_default(&ro);
        ro.skip = LCP_READ_SKIP_A;
        if (whole < 0 || lean < 0 || lcp_read_instance_opt(arg, &ro, &P, msg, sizeof msg) != LCP_OK) {
            fprintf(stderr, "bench_mem: %s: cannot read or solve\n", arg);
            bad = 1;
            continue;
        }
        printf("%s: peak RSS of reading it and 20 matrix-free pgs sweeps: %.0f MB with A, "
               "%.0f MB without (%.0f and %.0f bytes a row)\n", arg, whole / 1024.0,
               lean / 1024.0, 1024.0 * whole / P.m, 1024.0 * lean / P.m);
        stream_case(&P, arg, a, b, c, hz);
        lcp_problem_free(&P);
    }
    free(a);
    free(b);
    free(c);
    return bad;
}
