/* bench_io.c: how long lcp_read_instance takes on a contact-like instance of about 10^5 rows.
 *
 * The problem (tests/common/testprob.h, tp_contact): 3D bodies of 6 dof, 33334 contacts between
 * random body pairs, 3 rows per contact (normal and two friction rows with findex), J with 12
 * entries per row, block-diagonal Minv, E = 0.01, A = J Minv J^T + diag(E).  It is written to
 * a mkdtemp() folder, then read 3 times; the median wall time (CLOCK_MONOTONIC) is printed,
 * with the median CPU time (a loaded machine stretches the wall time) and the time of the
 * validation alone (lcp_problem_check: the rows of J Minv J^T compared with A).
 *   bench_io [bodies]     (default 6500 bodies: about 3e6 entries in the lower triangle)
 * Target: under 1 s in the release build.  Needs about 1 GB of memory and 250 MB of disk.
 */
#include "lcp.h"
#include "testprob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU time of this process: tells a loaded machine from a slow reader */
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double median3(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : (c > b ? b : c);
}

static long file_size(const char *dir, const char *name)
{
    char path[600];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 6500, nc = 33334, rc = 1;
    char dir[256], msg[512];
    double t[3], u[3], c[3];
    lcp_problem P, Q;
    lcp_problem_init(&Q);
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/lcpio-bench-XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_io: mkdtemp failed\n");
        return 1;
    }
    double t0 = now();
    if (tp_contact(&P, 6, nb, nc, 2, 0.5, 0.01, 2026) != 0) {
        fprintf(stderr, "bench_io: cannot build the problem\n");
        goto done;
    }
    long lower = 0;
    for (int i = 0; i < P.m; i++)
        for (int k = P.A.p[i]; k < P.A.p[i + 1]; k++) lower += P.A.j[k] <= i;
    double t1 = now();
    if (lcp_write_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
        fprintf(stderr, "bench_io: %s\n", msg);
        goto done;
    }
    double t2 = now();
    printf("# m = %d rows, n = %d, nnz(A) = %d (%ld in the lower triangle), nnz(J) = %d, "
           "nnz(Minv) = %d\n", P.m, P.n, LCP_CSR_NNZ(&P.A), lower, LCP_CSR_NNZ(&P.J),
           LCP_CSR_NNZ(&P.Minv));
    printf("# files: A.mtx %.1f MB, J.mtx %.1f MB; built in %.2f s, written in %.2f s\n",
           (double)file_size(dir, "A.mtx") / 1e6, (double)file_size(dir, "J.mtx") / 1e6,
           t1 - t0, t2 - t1);
    for (int r = 0; r < 3; r++) {
        lcp_problem_free(&Q);
        double a = now(), b = cpu();
        lcp_status st = lcp_read_instance(dir, &Q, msg, sizeof msg);
        t[r] = now() - a;
        u[r] = cpu() - b;
        if (st != LCP_OK) {
            fprintf(stderr, "bench_io: %s\n", msg);
            goto done;
        }
        a = now();
        st = lcp_problem_check(&Q, msg, sizeof msg);
        c[r] = now() - a;
    }
    printf("read-1e5: lcp_read_instance median %.3f s (runs %.3f %.3f %.3f; cpu %.3f s); "
           "of which lcp_problem_check %.3f s\n", median3(t[0], t[1], t[2]), t[0], t[1], t[2],
           median3(u[0], u[1], u[2]), median3(c[0], c[1], c[2]));
    rc = 0;
done:
    lcp_problem_free(&P);
    lcp_problem_free(&Q);
    {
        static const char *const names[] = {"A.mtx", "q.mtx", "lo.mtx", "hi.mtx", "findex.mtx",
                                            "J.mtx", "Minv.mtx", "E.mtx", "z0.mtx", "zref.mtx",
                                            "meta.txt"};
        char path[600];
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[k]);
            remove(path);
        }
        remove(dir);
    }
    return rc;
}
