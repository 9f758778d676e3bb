/* fclib.c: FCLIB HDF5 (Acary et al., the frictional-contact collection) through libfclib,
 * compiled only when meson finds libfclib (bench/meson.build): local problems in and out,
 * global problems in.
 *
 * A contact alpha of dimension d (2 or 3) has rows d*alpha (normal) and d*alpha+1..
 * (tangents); FCLIB's Coulomb cone |r_T| <= mu r_N becomes, with --friction box (default),
 * the box-friction BLCP of ODE's convention: normal row 0 <= z, tangent rows
 * -mu z_N <= z <= mu z_N (findex = the normal row), dropping the cone's De Saxce term
 * mu |u_T| from the normal velocity; with --friction none, the frictionless normal LCP
 * (W_NN, q_N).  The mixed part (V, R, s: multipliers lambda with V^T r + R lambda + s = 0)
 * becomes free rows (lo = -inf, hi = +inf) after the contact rows.  Global problems
 * (M v = H r + G lambda + f, G^T v + b = 0, u = H^T v + w) are reduced with
 * v = M^-1 (H r + G lambda + f): J = [H^T; G^T], Minv = M^-1 (dense LAPACKE Cholesky,
 * n <= 4000), A = J Minv J^T, q = J Minv f + [w; b].
 * Out: the instance's rows must be contacts (a normal row 0 <= z followed by its 1 or 2
 * friction rows with findex, one mu per contact) and free rows; a frictionless LCP is
 * written as 2D contacts with mu = 0 and a decoupled tangent row (W_tt = 1, q_t = 0), which
 * reads back as itself with --friction none.  z0.mtx travels as FCLIB's (first) guess.
 * FCLIB's solution solves the cone problem, not the box-friction (or normal) LCP written
 * here, so it is kept apart as zref-cone.mtx, never zref.mtx (which zdiff/wdiff compare
 * against); written out, the folder's zref-cone.mtx (never its zref.mtx) becomes FCLIB's
 * solution.  meta.txt records the source file and problem, the contacts, mu (one value, or
 * min .. max and each contact's up to 64) and exactly what the friction rows are.
 * Cost: linear in the nonzeros, except the global reduction (O(n^3) dense).
 */
#include "formats.h"

#include <errno.h>
#include <fcntl.h>
#include <fclib.h>
#include <hdf5.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define fail bench_fmt_fail /* msg filled, the status returned (dense.c) */

/* the FCLIB matrix as 0-based triplets (row off r0, col off c0, transposed when trans)
 * appended to (ti, tj, tx) at *k; capacity checked by the caller (entries = fc_nnz) */
static int fc_nnz(const struct fclib_matrix *M)
{
    if (!M) return 0;
    if (M->nz >= 0) return M->nz;
    return M->nz == -1 ? M->p[M->n] : M->p[M->m];
}

static void fc_triplets(const struct fclib_matrix *M, int r0, int c0, int trans, int *ti,
                        int *tj, double *tx, int *k)
{
    int n = fc_nnz(M);
    for (int e = 0, col = 0, rw = 0; e < n; e++) {
        int i, j;
        if (M->nz >= 0) { i = M->p[e]; j = M->i[e]; }
        else if (M->nz == -1) { while (e >= M->p[col + 1]) col++; i = M->i[e]; j = col; }
        else { while (e >= M->p[rw + 1]) rw++; i = rw; j = M->i[e]; }
        ti[*k] = (trans ? j : i) + r0;
        tj[*k] = (trans ? i : j) + c0;
        tx[*k] = M->x[e];
        (*k)++;
    }
}

static int fc_valid(const struct fclib_matrix *M, int m, int n)
{
    if (!M || M->m != m || M->n != n || !M->x || !M->i || !M->p) return 0;
    int nn = fc_nnz(M);
    if (nn < 0) return 0;
    for (int e = 0; e < nn; e++) {
        if (!isfinite(M->x[e])) return 0;
        int a = M->nz >= 0 ? M->p[e] : M->i[e], b = M->nz >= 0 ? M->i[e] : 0;
        if (M->nz >= 0 && (a < 0 || a >= m || b < 0 || b >= n)) return 0;
        if (M->nz == -1 && (a < 0 || a >= m)) return 0;
        if (M->nz == -2 && (a < 0 || a >= n)) return 0;
    }
    return 1;
}

/* Bounds and findex of an FCLIB row layout: nc contacts of dimension d (rows d*a ...), then
 * p free rows; box friction or (keep == normal rows only) the normal LCP.  keep[i] = new
 * index of row i or -1. */
static lcp_status fc_layout(lcp_problem *P, int nc, int d, int p, const double *mu,
                            const int *keep, int box)
{
    int m = P->m;
    if (box && !(P->findex = lcp_malloc((size_t)(m ? m : 1), sizeof(int)))) return LCP_ERR_NOMEM;
    for (int a = 0; a < nc; a++)
        for (int r = 0; r < d; r++) {
            int i = keep[d * a + r];
            if (i < 0) continue;
            if (box) P->findex[i] = r ? keep[d * a] : -1;
            P->lo[i] = r ? -mu[a] : 0.0;
            P->hi[i] = r ? mu[a] : INFINITY;
        }
    for (int r = 0; r < p; r++) {
        int i = keep[nc * d + r];
        P->lo[i] = -INFINITY;
        P->hi[i] = INFINITY;
        if (box) P->findex[i] = -1;
    }
    return LCP_OK;
}

/* an FCLIB vector pair, r (the mc contact rows) and l (the free rows after them, zero when
 * absent), onto the rows kept (n = mc + free rows in all): z0 or the cone solution */
static lcp_status pick(const double *r, const double *l, const int *keep, int mc, int n, int m,
                       double **out)
{
    if (!(*out = lcp_calloc((size_t)(m ? m : 1), sizeof **out))) return LCP_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        if (keep[i] >= 0) (*out)[keep[i]] = i < mc ? r[i] : l ? l[i - mc] : 0.0;
    return LCP_OK;
}

/* A, q of a local problem [W V; V^T R], [q; s] restricted to the rows kept */
static lcp_status fc_local_problem(const struct fclib_local *L, int box, lcp_problem *P,
                                   int **keep_out, int *nfull, const char *path, char *msg,
                                   size_t len)
{
    int m = L->W ? L->W->m : -1, p = L->R ? L->R->m : 0, d = L->spacedim;
    if (m <= 0 || (d != 2 && d != 3) || m % d || !L->q || !L->mu)
        return fail(msg, len, LCP_ERR_FORMAT, "%s: not a local FCLIB problem (W %d rows, "
                    "spacedim %d)", path, m, d);
    if (!fc_valid(L->W, m, m) || (p && (!fc_valid(L->V, m, p) || !fc_valid(L->R, p, p) ||
                                       !L->s)))
        return fail(msg, len, LCP_ERR_FORMAT, "%s: W, V or R malformed (sizes, indices or "
                    "non-finite values)", path);
    int nc = m / d, n = m + p, *keep = lcp_malloc((size_t)n, sizeof *keep), mm = 0;
    if (!keep) return fail(msg, len, LCP_ERR_NOMEM, "%s: out of memory", path);
    for (int a = 0; a < nc; a++) {
        if (!(isfinite(L->mu[a]) && L->mu[a] >= 0)) {
            lcp_free(keep);
            return fail(msg, len, LCP_ERR_FORMAT, "%s: mu of contact %d is %g", path, a,
                        L->mu[a]);
        }
        for (int r = 0; r < d; r++) keep[d * a + r] = (box || r == 0) ? mm++ : -1;
    }
    for (int r = 0; r < p; r++) keep[m + r] = mm++;
    int cap = fc_nnz(L->W) + 2 * fc_nnz(L->V) + fc_nnz(L->R), k = 0;
    int *ti = lcp_malloc((size_t)(cap ? cap : 1), sizeof *ti);
    int *tj = lcp_malloc((size_t)(cap ? cap : 1), sizeof *tj);
    double *tx = lcp_malloc((size_t)(cap ? cap : 1), sizeof *tx), *q = NULL;
    lcp_status st = ti && tj && tx ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        fc_triplets(L->W, 0, 0, 0, ti, tj, tx, &k);
        if (p) {
            fc_triplets(L->V, 0, m, 0, ti, tj, tx, &k);
            fc_triplets(L->V, m, 0, 1, ti, tj, tx, &k);
            fc_triplets(L->R, m, m, 0, ti, tj, tx, &k);
        }
        int kk = 0; /* drop the rows and columns not kept, renumber */
        for (int e = 0; e < k; e++)
            if (keep[ti[e]] >= 0 && keep[tj[e]] >= 0) {
                ti[kk] = keep[ti[e]];
                tj[kk] = keep[tj[e]];
                tx[kk++] = tx[e];
            }
        st = lcp_csr_from_triplets(&P->A, mm, mm, kk, ti, tj, tx);
    }
    if (st == LCP_OK) st = lcp_problem_alloc_vectors(P, mm);
    if (st == LCP_OK && (q = lcp_malloc((size_t)n, sizeof *q))) {
        memcpy(q, L->q, (size_t)m * sizeof *q);
        if (p) memcpy(q + m, L->s, (size_t)p * sizeof *q);
        for (int i = 0; i < n; i++)
            if (keep[i] >= 0) P->q[keep[i]] = q[i];
    } else if (st == LCP_OK) {
        st = LCP_ERR_NOMEM;
    }
    if (st == LCP_OK) st = fc_layout(P, nc, d, p, L->mu, keep, box);
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    lcp_free(q);
    if (st != LCP_OK) {
        lcp_free(keep);
        return fail(msg, len, st, "%s: %s", path, lcp_status_str(st));
    }
    *keep_out = keep;
    *nfull = n;
    return LCP_OK;
}

/* dense M^-1 (n x n, row-major) by Cholesky; LCP_ERR_BREAKDOWN when M is not SPD */
static lcp_status spd_inverse(const struct fclib_matrix *M, int n, double *inv)
{
    int k = 0, nn = fc_nnz(M);
    int *ti = lcp_malloc((size_t)(nn ? nn : 1), sizeof *ti);
    int *tj = lcp_malloc((size_t)(nn ? nn : 1), sizeof *tj);
    double *tx = lcp_malloc((size_t)(nn ? nn : 1), sizeof *tx);
    if (!ti || !tj || !tx) {
        lcp_free(ti);
        lcp_free(tj);
        lcp_free(tx);
        return LCP_ERR_NOMEM;
    }
    memset(inv, 0, (size_t)n * n * sizeof *inv);
    fc_triplets(M, 0, 0, 0, ti, tj, tx, &k);
    for (int e = 0; e < k; e++) inv[(size_t)ti[e] * n + tj[e]] += tx[e];
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, inv, n) != 0 ||
        LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, inv, n) != 0)
        return LCP_ERR_BREAKDOWN;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) inv[(size_t)i * n + j] = inv[(size_t)j * n + i];
    return LCP_OK;
}

enum { GLOBAL_MAX = 4000 };

/* q = J Minv f + [w; b] of a global problem over all its rows (qf, m + p of them; t: n of
 * workspace), then P->q on the rows kept */
static lcp_status fc_global_q(const struct fclib_global *G, const double *inv, const int *keep,
                              double *t, double *qf, lcp_problem *P)
{
    int n = G->M->m, m = G->H->n, p = G->G ? G->G->n : 0, rows = m + p, k = 0;
    lcp_status st = LCP_OK;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += inv[(size_t)i * n + j] * G->f[j];
        t[i] = s;
    }
    memset(qf, 0, (size_t)rows * sizeof *qf);
    int nh = fc_nnz(G->H), ng = fc_nnz(G->G), cap2 = nh + ng;
    int *ri = lcp_malloc((size_t)(cap2 ? cap2 : 1), sizeof *ri);
    int *rj = lcp_malloc((size_t)(cap2 ? cap2 : 1), sizeof *rj);
    double *rx = lcp_malloc((size_t)(cap2 ? cap2 : 1), sizeof *rx);
    if (ri && rj && rx) {
        fc_triplets(G->H, 0, 0, 1, ri, rj, rx, &k);
        if (p) fc_triplets(G->G, m, 0, 1, ri, rj, rx, &k);
        for (int e = 0; e < k; e++) qf[ri[e]] += rx[e] * t[rj[e]];
        for (int i = 0; i < m; i++) qf[i] += G->w[i];
        for (int i = 0; i < p; i++) qf[m + i] += G->b[i];
        for (int i = 0; i < rows; i++)
            if (keep[i] >= 0) P->q[keep[i]] = qf[i];
    } else {
        st = LCP_ERR_NOMEM;
    }
    lcp_free(ri);
    lcp_free(rj);
    lcp_free(rx);
    return st;
}

/* a global problem reduced to the contact (and equality) multipliers */
static lcp_status fc_global_problem(const struct fclib_global *G, int box, lcp_problem *P,
                                    int **keep_out, int *nfull, const char *path, char *msg,
                                    size_t len)
{
    int n = G->M ? G->M->m : -1, m = G->H ? G->H->n : -1, p = G->G ? G->G->n : 0;
    int d = G->spacedim;
    if (n <= 0 || m <= 0 || (d != 2 && d != 3) || m % d || !G->f || !G->w || !G->mu ||
        (p && !G->b))
        return fail(msg, len, LCP_ERR_FORMAT, "%s: not a global FCLIB problem", path);
    if (n > GLOBAL_MAX)
        return fail(msg, len, LCP_ERR_TOO_LARGE, "%s: M has %d rows; the dense reduction takes "
                    "at most %d", path, n, GLOBAL_MAX);
    if (!fc_valid(G->M, n, n) || !fc_valid(G->H, n, m) || (p && !fc_valid(G->G, n, p)))
        return fail(msg, len, LCP_ERR_FORMAT, "%s: M, H or G malformed", path);
    int rows = m + p, nc = m / d, *keep = lcp_malloc((size_t)rows, sizeof *keep), mm = 0;
    double *inv = lcp_malloc((size_t)n * n, sizeof *inv), *t = lcp_malloc((size_t)n, sizeof *t);
    int cap = fc_nnz(G->H) + fc_nnz(G->G), k = 0;
    int *ti = lcp_malloc((size_t)(cap ? cap : 1), sizeof *ti);
    int *tj = lcp_malloc((size_t)(cap ? cap : 1), sizeof *tj);
    double *tx = lcp_malloc((size_t)(cap ? cap : 1), sizeof *tx), *qf = NULL;
    lcp_status st = keep && inv && t && ti && tj && tx ? LCP_OK : LCP_ERR_NOMEM;
    for (int a = 0; st == LCP_OK && a < nc; a++)
        for (int r = 0; r < d; r++) keep[d * a + r] = (box || r == 0) ? mm++ : -1;
    for (int r = 0; st == LCP_OK && r < p; r++) keep[m + r] = mm++;
    if (st == LCP_OK) st = spd_inverse(G->M, n, inv);
    if (st == LCP_OK) { /* J = [H^T; G^T] on the rows kept */
        fc_triplets(G->H, 0, 0, 1, ti, tj, tx, &k);
        if (p) fc_triplets(G->G, m, 0, 1, ti, tj, tx, &k);
        int kk = 0;
        for (int e = 0; e < k; e++)
            if (keep[ti[e]] >= 0) {
                ti[kk] = keep[ti[e]];
                tj[kk] = tj[e];
                tx[kk++] = tx[e];
            }
        st = lcp_csr_from_triplets(&P->J, mm, n, kk, ti, tj, tx);
    }
    if (st == LCP_OK) st = bench_csr_from_dense(&P->Minv, n, inv); /* Minv, zeros dropped */
    if (st == LCP_OK) st = lcp_csr_jmjt(&P->J, &P->Minv, NULL, &P->A);
    if (st == LCP_OK) st = lcp_problem_alloc_vectors(P, mm);
    if (st == LCP_OK && !(qf = lcp_malloc((size_t)rows, sizeof *qf))) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) st = fc_global_q(G, inv, keep, t, qf, P);
    P->n = n;
    if (st == LCP_OK) st = fc_layout(P, nc, d, p, G->mu, keep, box);
    lcp_free(inv);
    lcp_free(t);
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    lcp_free(qf);
    if (st != LCP_OK) {
        lcp_free(keep);
        return fail(msg, len, st, "%s: %s%s", path, lcp_status_str(st),
                    st == LCP_ERR_BREAKDOWN ? " (M is not symmetric positive definite)" : "");
    }
    *keep_out = keep;
    *nfull = rows;
    return LCP_OK;
}

/* Which FCLIB groups the file holds.  libfclib ends the process when asked for a group that
 * is absent, so every read is preceded by this look (with HDF5's error printing off). */
typedef struct fc_groups {
    int local, global, guesses, solution;
} fc_groups;

static lcp_status fc_look(const char *path, fc_groups *g, char *msg, size_t len)
{
    struct stat sb;
    memset(g, 0, sizeof *g);
    if (stat(path, &sb) != 0)
        return fail(msg, len, LCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return fail(msg, len, LCP_ERR_IO, "%s: not a regular file", path);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (H5Fis_hdf5(path) <= 0)
        return fail(msg, len, LCP_ERR_FORMAT, "%s: not an HDF5 file", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return fail(msg, len, LCP_ERR_IO, "%s: HDF5 cannot open it", path);
    g->local = H5Lexists(f, "fclib_local", H5P_DEFAULT) > 0;
    g->global = H5Lexists(f, "fclib_global", H5P_DEFAULT) > 0;
    g->guesses = H5Lexists(f, "guesses", H5P_DEFAULT) > 0;
    g->solution = H5Lexists(f, "solution", H5P_DEFAULT) > 0;
    H5Fclose(f);
    if (!g->local && !g->global)
        return fail(msg, len, LCP_ERR_FORMAT, "%s: no fclib_local or fclib_global group (not an "
                    "FCLIB problem)", path);
    return LCP_OK;
}

/* the shortest %g form of v that reads back as v */
static void exact(char *b, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(b, n, "%.*g", prec, v);
        if (strtod(b, NULL) == v) return;
    }
}

enum { MU_LIST = 64 }; /* meta.txt lists each contact's mu up to this many contacts */

/* meta.txt of an instance read from FCLIB: where it came from (file, problem), its contacts
 * and mu, and exactly what the friction rows are; NULL when out of memory */
static char *fc_meta(const char *path, const fc_groups *has, int local, int d, int nc, int p,
                     const double *mu, int box, int ng, int solution)
{
    size_t cap = 4096 + (size_t)(nc <= MU_LIST ? nc : 0) * 32 + strlen(path), n = 0;
    char *t = lcp_malloc(cap, 1), b[40], c[40];
    if (!t) return NULL;
#define PUT(...) (n += (size_t)snprintf(t + n, n < cap ? cap - n : 0, __VA_ARGS__))
    PUT("source = FCLIB %s problem\nsource_file = %s\n", local ? "local" : "global", path);
    PUT("source_problem = %s (an FCLIB file holds one problem%s)\n",
        local ? "fclib_local" : "fclib_global",
        local && has->global ? "; this one also has fclib_global, not read" : "");
    PUT("dim = %d\ncontacts = %d\n", d, nc);
    if (p) PUT("free_rows = %d (the %s equality multipliers, after the contact rows)\n", p,
               local ? "mixed part's" : "global problem's");
    double lo = INFINITY, hi = -INFINITY;
    for (int a = 0; a < nc; a++) {
        lo = fmin(lo, mu[a]);
        hi = fmax(hi, mu[a]);
    }
    exact(b, sizeof b, lo);
    exact(c, sizeof c, hi);
    if (lo == hi) PUT("mu = %s (every contact)\n", b);
    else PUT("mu = %s .. %s (min .. max over the %d contacts)\n", b, c, nc);
    if (lo != hi && nc <= MU_LIST) {
        PUT("mu_per_contact =");
        for (int a = 0; a < nc; a++) {
            exact(b, sizeof b, mu[a]);
            PUT(" %s", b);
        }
        PUT("\n");
    } else if (lo != hi) {
        PUT("mu_per_contact = %s\n", box ? "not listed (over 64 contacts): hi.mtx of each "
                                           "contact's tangent rows" : "not listed (over 64 "
                                           "contacts)");
    }
    if (!box)
        PUT("friction = none: FCLIB's normal rows only, the frictionless LCP (W_NN, q_N); "
            "mu and the tangent rows are dropped\n");
    else if (d == 3)
        PUT("friction = box: each of a contact's 2 tangent rows bounded on its own, "
            "-mu z_N <= z_t <= mu z_N (findex = the contact's normal row), i.e. the 4-facet "
            "pyramid |z_t1|, |z_t2| <= mu z_N circumscribing FCLIB's Coulomb cone "
            "|r_T| <= mu r_N (the cone's De Saxce term mu |u_T| in the normal velocity is "
            "dropped)\n");
    else
        PUT("friction = box: a contact's tangent row bounded by -mu z_N <= z_t <= mu z_N "
            "(findex = the contact's normal row), which is FCLIB's 2D Coulomb cone "
            "|r_T| <= mu r_N itself (the cone's De Saxce term mu |u_T| in the normal velocity "
            "is dropped)\n");
    if (ng > 0) PUT("z0 = FCLIB's guess 1 of %d\n", ng);
    if (solution)
        PUT("zref-cone = zref-cone.mtx: FCLIB's solution (r%s) of its cone problem, %s; kept "
            "apart from zref.mtx (none is written), nothing compares against it\n",
            p ? ", then l on the free rows" : "",
            !box ? "not of this LCP (whose tangent rows are dropped)"
            : d == 3 ? "not of this LCP (friction in a disk there, in a square here)"
                     : "to the accuracy of the solver that made it");
    else PUT("zref-cone = none (the file holds no solution)\n");
#undef PUT
    if (n >= cap) t[cap - 1] = 0; /* cannot happen: cap holds every line */
    return t;
}

/* P from the FCLIB file; *cone: FCLIB's solution on the rows kept (NULL when the file has
 * none), which solves the cone problem, not P */
lcp_status bench_fclib_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                            double **cone, char *msg, size_t len)
{
    int box = o->friction_box;
    fc_groups has;
    *cone = NULL;
    lcp_status st0 = fc_look(path, &has, msg, len);
    if (st0 != LCP_OK) return st0;
    struct fclib_local *L = has.local ? fclib_read_local(path) : NULL;
    struct fclib_global *G = L || !has.global ? NULL : fclib_read_global(path);
    if (!L && !G)
        return fail(msg, len, LCP_ERR_FORMAT, "%s: libfclib could not read its %s problem",
                    path, has.local ? "local" : "global");
    int *keep = NULL, n = 0;
    lcp_status st = L ? fc_local_problem(L, box, P, &keep, &n, path, msg, len)
                      : fc_global_problem(G, box, P, &keep, &n, path, msg, len);
    int ng = 0, d = 0, mc = 0;
    struct fclib_solution *g = NULL, *s = NULL;
    if (st == LCP_OK) { /* the guess and the solution: r of FCLIB, l on the free rows */
        d = L ? L->spacedim : G->spacedim;
        mc = L ? L->W->m : G->H->n;
        g = has.guesses ? fclib_read_guesses(path, &ng) : NULL;
        s = has.solution ? fclib_read_solution(path) : NULL;
        if (g && ng > 0 && g[0].r) st = pick(g[0].r, g[0].l, keep, mc, n, P->m, &P->z0);
        if (st == LCP_OK && s && s->r) st = pick(s->r, s->l, keep, mc, n, P->m, cone);
        if (st == LCP_OK && !(P->meta = fc_meta(path, &has, L != NULL, d, mc / d, n - mc,
                                                L ? L->mu : G->mu, box, g && g[0].r ? ng : 0,
                                                *cone != NULL)))
            st = LCP_ERR_NOMEM;
        if (st != LCP_OK) fail(msg, len, st, "%s: %s", path, lcp_status_str(st));
    }
    if (g) fclib_delete_solutions(g, ng);
    if (s) fclib_delete_solutions(s, 1);
    /* libfclib's delete functions free the contents; the structs are the caller's */
    if (L) fclib_delete_local(L);
    if (G) fclib_delete_global(G);
    free(L); /* made by libfclib's malloc */
    free(G);
    lcp_free(keep);
    if (st == LCP_OK) {
        char m2[1024];
        st = lcp_problem_check(P, m2, sizeof m2);
        if (st == LCP_OK && *cone) { /* the same checks as zref: m rows, finite */
            for (int i = 0; i < P->m && st == LCP_OK; i++)
                if (!isfinite((*cone)[i]))
                    st = fail(m2, sizeof m2, LCP_ERR_FORMAT, "its solution is not finite "
                              "(row %d)", i);
        }
        if (st != LCP_OK) fail(msg, len, st, "%s: %s", path, m2);
    }
    if (st != LCP_OK) {
        lcp_free(*cone);
        *cone = NULL;
    }
    return st;
}

/* the FCLIB matrix of rows/cols `rows' (new index -> old row) of A, compressed columns */
static struct fclib_matrix *fc_block(const lcp_problem *P, const int *where, int which_r,
                                     int which_c, int nr, int nc, const int *pos)
{
    /* where[i]: block of row i (0 contact, 1 free); pos[i]: its index in the block */
    struct fclib_matrix *M = lcp_calloc(1, sizeof *M);
    if (!M) return NULL;
    int nz = 0;
    for (int i = 0; i < P->m; i++)
        if (where[i] == which_r)
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) nz += where[P->A.j[k]] == which_c;
    M->m = nr;
    M->n = nc;
    M->nzmax = nz;
    M->nz = -1;
    M->p = lcp_calloc((size_t)nc + 1, sizeof *M->p);
    M->i = lcp_malloc((size_t)(nz ? nz : 1), sizeof *M->i);
    M->x = lcp_malloc((size_t)(nz ? nz : 1), sizeof *M->x);
    if (!M->p || !M->i || !M->x) return M; /* caller checks */
    /* A is symmetric in structure for what we write: column c of the block = row c of A^T;
     * build CSC by counting per column */
    for (int i = 0; i < P->m; i++)
        if (where[i] == which_r)
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
                if (where[P->A.j[k]] == which_c) M->p[pos[P->A.j[k]] + 1]++;
    for (int c = 0; c < nc; c++) M->p[c + 1] += M->p[c];
    int *next = lcp_malloc((size_t)(nc ? nc : 1), sizeof *next);
    if (!next) {
        lcp_free(M->p);
        M->p = NULL;
        return M;
    }
    memcpy(next, M->p, (size_t)nc * sizeof *next);
    /* rows in increasing new index: visit old rows in the order of their new index */
    int *byrow = lcp_malloc((size_t)(nr ? nr : 1), sizeof *byrow);
    if (!byrow) {
        lcp_free(next);
        lcp_free(M->p);
        M->p = NULL;
        return M;
    }
    for (int r = 0; r < nr; r++) byrow[r] = -1; /* slots no row fills (padded tangents) */
    for (int i = 0; i < P->m; i++)
        if (where[i] == which_r) byrow[pos[i]] = i;
    for (int r = 0; r < nr; r++) {
        int i = byrow[r];
        if (i < 0) continue;
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
            if (where[P->A.j[k]] == which_c) {
                int c = pos[P->A.j[k]], e = next[c]++;
                M->i[e] = r;
                M->x[e] = P->A.x[k];
            }
    }
    lcp_free(next);
    lcp_free(byrow);
    return M;
}

static void fc_free_matrix(struct fclib_matrix *M)
{
    if (!M) return;
    lcp_free(M->p);
    lcp_free(M->i);
    lcp_free(M->x);
    lcp_free(M);
}

/* Rows of P as FCLIB sees them: where[i] 0 for a contact row (a normal row 0 <= z without
 * findex, or a friction row with findex; nfric counts each normal's), 1 for a free row;
 * *nc contacts of *k0 friction rows each (the same for all).  LCP_OK or unsupported. */
static lcp_status fc_classify(const lcp_problem *P, int *where, int *nfric, int *nc, int *k0,
                              char *msg, size_t len)
{
    int m = P->m;
    for (int i = 0; i < m; i++) {
        int f = P->findex ? P->findex[i] : -1;
        if (f >= 0) {
            nfric[f]++;
            where[i] = 0;
        } else if (P->lo[i] == 0.0 && P->hi[i] == INFINITY) {
            where[i] = 0;
        } else if (P->lo[i] == -INFINITY && P->hi[i] == INFINITY) {
            where[i] = 1;
        } else {
            return fail(msg, len, LCP_ERR_UNSUPPORTED, "row %d: bounds [%g, %g] without a "
                        "findex have no FCLIB form (contacts and free rows only)", i, P->lo[i],
                        P->hi[i]);
        }
    }
    for (int i = 0; i < m; i++) {
        if (where[i] != 0 || (P->findex && P->findex[i] >= 0)) continue;
        if (*k0 < 0) *k0 = nfric[i];
        if (nfric[i] != *k0 || *k0 > 2)
            return fail(msg, len, LCP_ERR_UNSUPPORTED, "row %d: a contact with %d friction "
                        "rows where others have %d (FCLIB contacts have one dimension, 2 or 3)",
                        i, nfric[i], *k0);
        (*nc)++;
    }
    return LCP_OK;
}

/* the frictionless padding: a decoupled tangent column (W_tt = 1) after each normal of W */
static lcp_status fc_pad_tangents(struct fclib_matrix *W, int mc, int nc)
{
    int nz = W->p[mc] + nc;
    int *pp = lcp_calloc((size_t)mc + 1, sizeof *pp), *ii = lcp_malloc((size_t)nz, sizeof *ii);
    double *xx = lcp_malloc((size_t)nz, sizeof *xx);
    if (!pp || !ii || !xx) {
        lcp_free(pp);
        lcp_free(ii);
        lcp_free(xx);
        return LCP_ERR_NOMEM;
    }
    int e = 0;
    for (int c = 0; c < mc; c++) {
        if (c % 2) {
            ii[e] = c;
            xx[e++] = 1.0;
        } else {
            for (int k = W->p[c]; k < W->p[c + 1]; k++) {
                ii[e] = W->i[k];
                xx[e++] = W->x[k];
            }
        }
        pp[c + 1] = e;
    }
    lcp_free(W->p);
    lcp_free(W->i);
    lcp_free(W->x);
    W->p = pp;
    W->i = ii;
    W->x = xx;
    W->nzmax = nz;
    return LCP_OK;
}

/* ONE LIBFCLIB WRITE IN A CHILD PROCESS.  When a write fails (a full disk), libfclib prints
 * its own error, HDF5 its error stack, and the file stays open inside HDF5, whose exit
 * handler then cannot close it and prints "infinite loop closing library" with a screenful
 * of codes.  So each write runs in a forked child whose standard output and error are
 * discarded and which leaves by _exit (no exit handler): 0 when written, else the errno
 * the failed write left (ENOSPC on a full disk) or 255.  The parent prints one line. */
typedef struct fc_job {
    const struct fclib_local *L;      /* fclib_write_local, or */
    struct fclib_solution *g;         /* the guess (guess = 1) or the solution */
    int guess;
    const char *tmp;
} fc_job;

static int fc_child(const fc_job *j)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        errno = 0;
        int ok = j->L ? fclib_write_local((struct fclib_local *)j->L, j->tmp)
               : j->guess ? fclib_write_guesses(1, j->g, j->tmp)
                          : fclib_write_solution(j->g, j->tmp);
        _exit(ok ? 0 : errno > 0 && errno < 255 ? errno : 255);
    }
    int status = 0;
    if (pid < 0) return errno ? errno : 255;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 255;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

/* fail() for a child's status: the reason when it left one */
static lcp_status fc_failed(int code, char *msg, size_t len, const char *path, const char *what)
{
    if (code > 0 && code < 255)
        return fail(msg, len, LCP_ERR_IO, "%s: libfclib could not write the %s: %s", path, what,
                    strerror(code));
    return fail(msg, len, LCP_ERR_IO, "%s: libfclib could not write the %s", path, what);
}

/* z0 and the cone solution (zref-cone.mtx, never zref.mtx: the box LCP's answer does not
 * solve FCLIB's cone problem) as FCLIB's guess and solution (r, in FCLIB's row order) */
static lcp_status fc_write_guess(const lcp_problem *P, const double *cone, const int *where,
                                 const int *pos, int mc, int nf, const char *tmp,
                                 const char *path, char *msg, size_t len)
{
    struct fclib_solution g = {0};
    double *z0 = lcp_calloc((size_t)mc + nf + 1, sizeof *z0);
    double *zr = lcp_calloc((size_t)mc + nf + 1, sizeof *zr);
    lcp_status st = z0 && zr ? LCP_OK : LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < P->m; i++) {
        int at = where[i] == 0 ? pos[i] : mc + pos[i];
        if (P->z0) z0[at] = P->z0[i];
        if (cone) zr[at] = cone[i];
    }
    int code;
    g.r = z0;
    if (st == LCP_OK && P->z0 && (code = fc_child(&(fc_job){NULL, &g, 1, tmp})) != 0)
        st = fc_failed(code, msg, len, path, "guess");
    g.r = zr;
    if (st == LCP_OK && cone && (code = fc_child(&(fc_job){NULL, &g, 0, tmp})) != 0)
        st = fc_failed(code, msg, len, path, "solution");
    lcp_free(z0);
    lcp_free(zr);
    return st;
}

/* pos[i] of each row of P in FCLIB's order (contact a: normal at d*a, its friction rows
 * after it; then the free rows, *nf of them) and mu of each contact; every row whose
 * friction bounds are not one symmetric mu per contact is refused, the last one named */
static lcp_status fc_positions(const lcp_problem *P, const int *where, int d, int *pos,
                               double *mu, int *slot, int *nf, char *msg, size_t len)
{
    int m = P->m, a = 0;
    lcp_status st = LCP_OK;
    for (int i = 0; i < m; i++) slot[i] = 0;
    for (int i = 0; i < m; i++)
        if (where[i] == 0 && !(P->findex && P->findex[i] >= 0)) {
            pos[i] = d * a;
            mu[a] = 0.0;
            a++;
        }
    for (int i = 0; i < m; i++)
        if (where[i] == 0 && P->findex && P->findex[i] >= 0) {
            int f = P->findex[i], c = pos[f] / d;
            pos[i] = pos[f] + 1 + slot[f]++;
            if (P->lo[i] != -P->hi[i] || !isfinite(P->hi[i]) ||
                (slot[f] > 1 && mu[c] != P->hi[i]))
                st = fail(msg, len, LCP_ERR_UNSUPPORTED, "row %d: friction bounds [%g, %g] "
                          "are not one symmetric mu per contact", i, P->lo[i], P->hi[i]);
            mu[c] = P->hi[i];
        }
    for (int i = 0; i < m; i++)
        if (where[i] == 1) pos[i] = (*nf)++;
    return st;
}

/* the local problem's q, s, mu, dimension and info (its W, V, R made by fc_block) */
static void fc_fill(const lcp_problem *P, const int *where, const int *pos, int d,
                    int frictionless, double *q, double *mu, struct fclib_info *info,
                    struct fclib_local *L)
{
    for (int i = 0; i < P->m; i++) {
        if (where[i] == 0) q[pos[i]] = P->q[i];
        else L->s[pos[i]] = P->q[i];
    }
    L->q = q;
    L->mu = mu;
    L->spacedim = d;
    info->title = (char *)"lcpbench instance";
    info->description = (char *)(frictionless
        ? "frictionless LCP as 2D contacts with mu = 0 and decoupled tangent rows "
          "(W_tt = 1, q_t = 0); read back with --friction none"
        : "box-friction BLCP (ODE findex convention) written as a local problem: the "
          "friction bounds mu z_N of each tangent row become the Coulomb cone of its contact");
    info->math_info = (char *)"w = W r + q (lcpbench: w = A z + q)";
    L->info = info;
}

lcp_status bench_fclib_write(const char *path, const lcp_problem *P, const double *cone,
                             int force, char *msg, size_t len)
{
    int m = P->m, d = 0, nc = 0, nf = 0, k0 = -1;
    int *where = lcp_malloc((size_t)(m ? m : 1), sizeof *where);
    int *pos = lcp_malloc((size_t)(m ? m : 1), sizeof *pos);
    int *nfric = lcp_calloc((size_t)(m ? m : 1), sizeof *nfric);
    lcp_status st = where && pos && nfric ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) st = fc_classify(P, where, nfric, &nc, &k0, msg, len);
    if (st == LCP_OK && nc == 0)
        st = fail(msg, len, LCP_ERR_UNSUPPORTED, "no contact rows (0 <= z) to write");
    d = k0 <= 0 ? 2 : k0 + 1;
    int frictionless = k0 == 0;
    int mc = nc * d; /* contact rows in FCLIB (padded tangents when frictionless) */
    double *q = NULL, *mu = NULL;
    struct fclib_local L = {0};
    struct fclib_info info = {0};
    int *slot = lcp_malloc((size_t)(m ? m : 1), sizeof *slot);
    if (st == LCP_OK && (!slot || !(q = lcp_calloc((size_t)mc + 1, sizeof *q)) ||
                         !(mu = lcp_calloc((size_t)nc + 1, sizeof *mu))))
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK) st = fc_positions(P, where, d, pos, mu, slot, &nf, msg, len);
    if (st == LCP_OK) {
        L.W = fc_block(P, where, 0, 0, mc, mc, pos);
        if (nf) {
            L.V = fc_block(P, where, 0, 1, mc, nf, pos);
            L.R = fc_block(P, where, 1, 1, nf, nf, pos);
            L.s = lcp_calloc((size_t)nf, sizeof *L.s);
        }
        if (!L.W || !L.W->p || (nf && (!L.V || !L.V->p || !L.R || !L.R->p || !L.s)))
            st = LCP_ERR_NOMEM;
    }
    if (st == LCP_OK && frictionless) st = fc_pad_tangents(L.W, mc, nc);
    if (st == LCP_OK) {
        fc_fill(P, where, pos, d, frictionless, q, mu, &info, &L);
        if (!force && access(path, F_OK) == 0)
            st = fail(msg, len, LCP_ERR_IO, "%s: exists (use --force to replace it)", path);
    }
    /* written under a temporary name, renamed into place when whole */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    int code, clean = bench_cleanup_file(tmp);    /* removed if a signal ends the command */
    if (st == LCP_OK && (code = fc_child(&(fc_job){&L, NULL, 0, tmp})) != 0)
        st = fc_failed(code, msg, len, path, "problem");
    if (st == LCP_OK && (P->z0 || cone))
        st = fc_write_guess(P, cone, where, pos, mc, nf, tmp, path, msg, len);
    if (st == LCP_OK && rename(tmp, path) != 0)
        st = fail(msg, len, LCP_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    if (st != LCP_OK) remove(tmp); /* nothing half-written */
    bench_cleanup_done(clean);
    if (st == LCP_ERR_NOMEM) fail(msg, len, st, "%s: out of memory", path);
    fc_free_matrix(L.W);
    fc_free_matrix(L.V);
    fc_free_matrix(L.R);
    lcp_free(L.s);
    lcp_free(q);
    lcp_free(mu);
    lcp_free(where);
    lcp_free(pos);
    lcp_free(nfric);
    lcp_free(slot);
    return st;
}
