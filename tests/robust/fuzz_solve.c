/* fuzz_solve.c: libFuzzer target running every registered solver on small problems.
 *
 * The input bytes are decoded into a problem of m <= 20 rows (a reader of bytes that gives 0
 * past the end, so every input decodes): byte 0 gives m, byte 1 flags (factors, symmetric,
 * friction, boxes, warm start, form); then either factors J (m x n, n <= 12), a symmetric
 * Minv and E with A = J Minv J^T + diag(E) formed by lcp_csr_jmjt, or A entry by entry; then
 * q, bounds, findex and z0.  Values are k 2^e with k in -128..127 and e in -40..40, so
 * indefinite, singular, badly scaled and zero-diagonal matrices all occur.  A problem that
 * lcp_problem_check accepts goes to every solver that supports it (both forms when the
 * factors are present; pivoting solvers in one), with 30 sweeps or 200 pivots at most; each
 * must return a named status equal to info.status, and when the status is not an error
 * (>= 0) a finite z with a finite residual.  Any violation
 * aborts, which libFuzzer reports as a crash; ASan and UBSan catch the rest.
 * FUZZ_VERBOSE=1 prints one line per solver run (status, iterations, pivots, CPU time).
 *
 * Build (tests/robust/fuzz.sh does it): clang -fsanitize=fuzzer,address,undefined with the
 * library's sources.  Seeds: tests/robust/fuzz/corpus-solve/.
 */
#include "lcp.h"
#ifdef FUZZ_PEERS
#include "lcp_peers.h"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct rd {
    const uint8_t *s, *e;
} rd;

static unsigned byte(rd *r) { return r->s < r->e ? *r->s++ : 0u; }

static double value(rd *r)
{
    int k = (int)(int8_t)byte(r);
    int e = (int)(byte(r) % 81) - 40;
    return ldexp((double)k, e);
}

static void must(int cond, const char *what, const char *solver)
{
    if (!cond) {
        fprintf(stderr, "fuzz_solve: %s: violated: %s\n", solver, what);
        abort();
    }
}

enum { MMAX = 20, NMAX = 12 };

/* the problem the bytes describe; 0 when lcp_problem_check refuses it */
static int decode(rd *r, lcp_problem *P, int *warm, lcp_form *form)
{
    int ti[MMAX * MMAX + 4 * MMAX], tj[MMAX * MMAX + 4 * MMAX];
    double tx[MMAX * MMAX + 4 * MMAX];
    char msg[256];
    int m = 1 + (int)(byte(r) % MMAX), nz = 0;
    unsigned fl = byte(r);
    lcp_problem_init(P);
    if (lcp_problem_alloc_vectors(P, m) != LCP_OK) return 0;
    if (fl & 1u) {                                                  /* factors */
        int n = 1 + (int)(byte(r) % NMAX);
        P->n = n;
        for (int i = 0; i < m; i++)
            for (int c = (int)(byte(r) % 4); c > 0; c--) {
                ti[nz] = i;
                tj[nz] = (int)(byte(r) % (unsigned)n);
                tx[nz++] = value(r);
            }
        if (lcp_csr_from_triplets(&P->J, m, n, nz, ti, tj, tx) != LCP_OK) return 0;
        nz = 0;
        for (int k = 0; k < n; k++) {                               /* diagonal, some pairs */
            ti[nz] = tj[nz] = k;
            tx[nz++] = value(r);
            if (k > 0 && byte(r) % 3 == 0) {
                double x = value(r);
                ti[nz] = k, tj[nz] = k - 1, tx[nz++] = x;
                ti[nz] = k - 1, tj[nz] = k, tx[nz++] = x;
            }
        }
        if (lcp_csr_from_triplets(&P->Minv, n, n, nz, ti, tj, tx) != LCP_OK) return 0;
        if (byte(r) & 1u) {
            P->E = calloc((size_t)m, sizeof(double));
            if (!P->E) return 0;
            for (int i = 0; i < m; i++) P->E[i] = value(r);
        }
        if (lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A) != LCP_OK) return 0;
    } else {                                                        /* A itself */
        int sym = (fl & 2u) != 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < (sym ? i + 1 : m); j++) {
                if (i != j && byte(r) % 4 != 0) continue;
                double x = value(r);
                ti[nz] = i, tj[nz] = j, tx[nz++] = x;
                if (sym && i != j) ti[nz] = j, tj[nz] = i, tx[nz++] = x;
            }
        if (lcp_csr_from_triplets(&P->A, m, m, nz, ti, tj, tx) != LCP_OK) return 0;
    }
    for (int i = 0; i < m; i++) P->q[i] = value(r);
    if (fl & 8u)                                                    /* boxes */
        for (int i = 0; i < m; i++) {
            unsigned kind = byte(r) % 4;
            double a = value(r), b = value(r);
            if (kind == 1) {
                P->lo[i] = -INFINITY;
            } else if (kind == 2) {
                P->lo[i] = -fabs(a);
                P->hi[i] = fabs(b);
            } else if (kind == 3) {
                P->lo[i] = fmin(a, b);
                P->hi[i] = fmax(a, b);
            }
        }
    if (fl & 4u) {                                                  /* friction */
        P->findex = malloc(sizeof(int) * (size_t)m);
        if (!P->findex) return 0;
        for (int i = 0; i < m; i++) P->findex[i] = -1;
        for (int i = 1; i < m; i++) {
            int f = (int)(byte(r) % (unsigned)i);
            if (byte(r) % 2 == 0 || P->findex[f] >= 0) continue;
            double mu = fabs(value(r));
            P->findex[i] = f;
            P->lo[i] = -mu;
            P->hi[i] = mu;
        }
    }
    *warm = (fl & 16u) != 0;
    if (*warm) {
        P->z0 = malloc(sizeof(double) * (size_t)m);
        if (!P->z0) return 0;
        for (int i = 0; i < m; i++) P->z0[i] = value(r);
    }
    *form = (fl & 32u) ? LCP_FORM_ASSEMBLED : LCP_FORM_AUTO;
    return lcp_problem_check(P, msg, sizeof msg) == LCP_OK;
}

static int verbose; /* FUZZ_VERBOSE=1: one line per solver run on stderr */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *e = getenv("FUZZ_VERBOSE");
    verbose = e && strcmp(e, "1") == 0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, data + size};
    lcp_problem P;
    int warm = 0, ns = 0;
    lcp_form form = LCP_FORM_AUTO;
    if (!decode(&r, &P, &warm, &form)) {
        lcp_problem_free(&P);
        return 0;
    }
    int m = P.m;
    double *z = malloc(sizeof(double) * (size_t)m), *w = malloc(sizeof(double) * (size_t)m);
    const lcp_solver *solvers = lcp_solvers(&ns);
    int np = 0;
#ifdef FUZZ_PEERS /* the replay: liblcp-peers's solvers too */
    const lcp_solver *peers = lcp_peer_solvers(&np);
#else
    const lcp_solver *peers = NULL;
#endif
    for (int s = 0; s < ns + np && z && w; s++) {
        const lcp_solver *S = s < ns ? &solvers[s] : &peers[s - ns];
        if (lcp_solver_supports(S, &P) != LCP_OK) continue;
        for (int pass = 0; pass < 2; pass++) {
            lcp_options opt;
            lcp_info info;
            lcp_residuals R;
            lcp_options_default(&opt);
            opt.max_iter = 30;
            opt.max_pivots = 200;                                   /* bounded time */
            opt.warm = warm;
            opt.form = pass ? LCP_FORM_ASSEMBLED : form;
            if (pass && (form == LCP_FORM_ASSEMBLED || !lcp_problem_has_factors(&P) ||
                         (S->needs & LCP_DIRECT)))
                break;                                              /* one form only */
            for (int i = 0; i < m; i++) z[i] = warm ? P.z0[i] : 0.0;
            clock_t t0 = clock();
            lcp_status st = lcp_solve(S, &P, &opt, z, &info);
            if (verbose)
                fprintf(stderr, "fuzz_solve: %s (%s, m = %d): %s, %d iterations, %ld pivots, "
                        "%.3f s\n", S->name, lcp_form_name(opt.form), m, lcp_status_str(st),
                        info.iterations, info.pivots, (double)(clock() - t0) / CLOCKS_PER_SEC);
            must(strcmp(lcp_status_str(st), "unknown-status") != 0, "a named status", S->name);
            must(info.status == st, "info.status = the status returned", S->name);
            if (st < 0) continue;
            for (int i = 0; i < m; i++) must(isfinite(z[i]), "finite z when status >= 0", S->name);
            lcp_residual(&P, z, w, &R);
            if (!(isfinite(R.r2) && isfinite(R.rinf))) {
                double zmax = 0.0;
                for (int i = 0; i < m; i++) zmax = fmax(zmax, fabs(z[i]));
                fprintf(stderr, "fuzz_solve: %s (%s, m = %d): %s with ||r||_2 = %g, "
                        "max|z| = %g\n", S->name, lcp_form_name(opt.form), m,
                        lcp_status_str(st), R.r2, zmax);
            }
            must(isfinite(R.r2) && isfinite(R.rinf), "finite residual when status >= 0",
                 S->name);
        }
    }
    free(z);
    free(w);
    lcp_problem_free(&P);
    return 0;
}
