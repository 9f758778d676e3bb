/* ref_coupled.c: coupled pivoting of the friction rounds, and the coupled partition that
 * the semismooth Newton phase (ref_ssn.c) shares.
 *
 * COMPUTES.  Once the friction rounds keep their partition, what is left is a linear
 * fixed-point iteration that converges only linearly (on the 200-sphere pile about 450
 * rounds to 1e-12).  So once REF_CPL_HELD rounds in a row kept the partition (the driver
 * decides), the coupling is solved inside the pivoting.  Friction row t with normal
 * n = findex[t] is free (sticking: w_t = 0), or sliding at lo_t z_n or hi_t z_n (the bound
 * moves with z_n inside the solve, not frozen); with n at zero, z_t = 0.  For a partition
 * the free unknowns solve the non-symmetric system
 *     (A_FF + A_FS C) z_F = -(q_F + A_FB z_B),     z_S = C z_F  (z_t = c_t z_n),
 * by GMRES right-preconditioned with the LDL^T factor of A_FF:  K M^-1 = I + A_FS C A_FF^-1,
 * a perturbation of rank |S| of the identity (ref_ssn.c: by the sparse LU of the coupled
 * matrix instead, ref_klu.c).  With a semi-definite A the shifted factor A_FF + eps D
 * preconditions (the shift subtracted in the operator, so the coupled system solved is the
 * unshifted one).  Violators are moved as in block steps (halved down to single steps when
 * they do not lower the count) for at most REF_CPL_STEPS partitions; the driver allows
 * REF_CPL_TRIES tries a solve.  When a try finds a partition without violator, the coupled
 * problem is solved to rounding (1e-16 to 1e-14 on the scene instances, where the rounds
 * alone stopped at 1e-12; info->route `coupled').
 *
 * ENTRY (ref_coupled).  A friction round just solved: z, C->state its partition, C->lo,
 * C->hi its frozen bounds, C->eps the shift (0 unless semi-definite).
 * EXIT.  *solved = 1: z solves the coupled problem on C->state, C->F, C->w = A z + q,
 * C->lo, C->hi the bounds z meets.  *solved = 0 (more than REF_IPM_VIOL violators at the
 * first step, GMRES not converging, or no progress): z, the partition and the frozen bounds
 * as they were (C->w stale: the next round recomputes it).  C->eps as on entry; the
 * backend's factor replaced (C->nff = -1).
 *
 * COST.  One factorisation of A_FF a step and one solve per GMRES iteration (tens a step).
 *
 * SOURCES.  Y. Saad and M. H. Schultz, "GMRES", SIAM J. Sci. Stat. Comput. 7 (1986)
 * 856-869; R. Smith, ODE lcp.cpp (the bound-freezing convention of findex).
 */
#include "ref_ctx.h"

#include <float.h>
#include <string.h>

#define REF_CPL_STEPS 8
#define REF_GM_K 50      /* GMRES restart length */
#define REF_GM_MAX 200   /* GMRES iterations a solve (more: the try is given up) */

/* out = K M^-1 u = u + A_FS C (M^-1 u) - shift D_F (M^-1 u),  M = A_FF + shift D_F */
static lcp_status cpl_apply(ref_ctx *C, ref_cpl *K, const double *u, double *out)
{
    const lcp_csr *A = &C->P->A;
    lcp_status st = C->be.solve(&C->be, u, K->t1);
    if (st != LCP_OK) return st;
    memcpy(out, u, (size_t)K->nf * sizeof *out);
    if (K->shift > 0.0)
        for (int t = 0; t < K->nf; t++) out[t] -= K->shift * C->diag[C->F[t]] * K->t1[t];
    for (int s = 0; s < K->ns; s++) {
        int t = K->S[s];
        double pt = K->c[t] * K->t1[K->pos[C->P->findex[t]]];
        for (int k = A->p[t]; k < A->p[t + 1]; k++) {
            int r = K->pos[A->j[k]];
            if (r >= 0) out[r] += A->x[k] * pt;
        }
    }
    return LCP_OK;
}

/* x = K^-1 b by restarted GMRES on K M^-1 (x = M^-1 u), to a relative 1e-12 (the caller
 * refines with the true residual). */
static lcp_status cpl_gmres(ref_ctx *C, ref_cpl *K, const double *b, double *x)
{
    int n = K->nf, its = 0;
    double *u = x, *r = K->t2, bn = 0.0;
    lcp_status st = LCP_OK;
    for (int i = 0; i < n; i++) {
        u[i] = 0.0;
        r[i] = b[i];
        bn += b[i] * b[i];
    }
    bn = sqrt(bn);
    double beta = bn, tol = 1e-12 * bn;
    while (st == LCP_OK && beta > tol && its < REF_GM_MAX) {
        int j = 0;
        for (int i = 0; i < n; i++) K->V[i] = r[i] / beta;
        for (int i = 0; i <= REF_GM_K; i++) K->g[i] = 0.0;
        K->g[0] = beta;
        for (; j < REF_GM_K && its < REF_GM_MAX; j++, its++) {
            double *vj = K->V + (size_t)j * n, *w = K->V + (size_t)(j + 1) * n;
            if ((st = cpl_apply(C, K, vj, w)) != LCP_OK) break;
            for (int i = 0; i <= j; i++) {              /* modified Gram-Schmidt */
                const double *vi = K->V + (size_t)i * n;
                double h = 0.0;
                for (int t = 0; t < n; t++) h += w[t] * vi[t];
                for (int t = 0; t < n; t++) w[t] -= h * vi[t];
                K->H[i * REF_GM_K + j] = h;
            }
            double hn = 0.0;
            for (int t = 0; t < n; t++) hn += w[t] * w[t];
            hn = sqrt(hn);
            if (hn > 0.0)
                for (int t = 0; t < n; t++) w[t] /= hn;
            for (int i = 0; i < j; i++) {               /* previous rotations */
                double a = K->H[i * REF_GM_K + j], bb = K->H[(i + 1) * REF_GM_K + j];
                K->H[i * REF_GM_K + j] = K->cs[i] * a + K->sn[i] * bb;
                K->H[(i + 1) * REF_GM_K + j] = -K->sn[i] * a + K->cs[i] * bb;
            }
            double a = K->H[j * REF_GM_K + j], d = hypot(a, hn);
            K->cs[j] = d > 0.0 ? a / d : 1.0;
            K->sn[j] = d > 0.0 ? hn / d : 0.0;
            K->H[j * REF_GM_K + j] = d;
            K->g[j + 1] = -K->sn[j] * K->g[j];
            K->g[j] *= K->cs[j];
            if (fabs(K->g[j + 1]) <= tol || hn == 0.0) {
                j++;
                its++;
                break;
            }
        }
        if (st != LCP_OK) break;
        for (int i = j - 1; i >= 0; i--) {              /* H y = g */
            double v = K->g[i];
            for (int t = i + 1; t < j; t++) v -= K->H[i * REF_GM_K + t] * K->y[t];
            K->y[i] = v / K->H[i * REF_GM_K + i];
        }
        for (int i = 0; i < j; i++)
            for (int t = 0; t < n; t++) u[t] += K->y[i] * K->V[(size_t)i * n + t];
        if ((st = cpl_apply(C, K, u, r)) != LCP_OK) break;   /* r = b - K M^-1 u */
        beta = 0.0;
        for (int t = 0; t < n; t++) {
            r[t] = b[t] - r[t];
            beta += r[t] * r[t];
        }
        beta = sqrt(beta);
    }
    if (st == LCP_OK && beta > tol) st = LCP_MAXITER;     /* did not converge */
    if (st == LCP_OK) st = C->be.solve(&C->be, u, K->t1);   /* x = M^-1 u */
    if (st == LCP_OK) memcpy(x, K->t1, (size_t)n * sizeof *x);
    return st;
}

/* The sparse LU of the coupled matrix  A_FF + A_FS C  of the sets ref_cpl_partition set up
 * (K->pos: the free index of a row, K->S, K->c: the sliding rows), rows of F in order, the
 * column of a sliding row t folded into that of its normal with the factor c_t.  *bad = 0
 * when the matrix is singular or its pivot ratio is below REF_LU_RCOND (then the Newton
 * step is not taken). */
#define REF_LU_RCOND 1e-14
static lcp_status cpl_lu(ref_ctx *C, ref_cpl *K, int *bad)
{
    const lcp_csr *A = &C->P->A;
    const int *fx = C->P->findex;
    int nf = K->nf, nnz = 0;
    ref_lu_free(&K->lu);
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -2 - s;   /* sliding: -2 - index */
    for (int t = 0; t < nf; t++) K->mark[t] = -1;
    K->Rp[0] = 0;
    for (int r = 0; r < nf; r++) {
        int i = C->F[r];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k], col = K->pos[j];
            double v = A->x[k];
            if (col <= -2) {                           /* sliding: z_j = c_j z_f */
                v *= K->c[j];
                col = K->pos[fx[j]];
            }
            if (col < 0) continue;
            if (K->mark[col] >= K->Rp[r]) {
                K->Rx[K->mark[col]] += v;
            } else {
                K->mark[col] = nnz;
                K->Rj[nnz] = col;
                K->Rx[nnz++] = v;
            }
        }
        K->Rp[r + 1] = nnz;
    }
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -1;
    double rcond = 0.0, fl = 0.0;
    lcp_status st = ref_lu_factor(&K->lu, nf, K->Rp, K->Rj, K->Rx, &rcond, &fl);
    C->lu_factorizations++;
    C->lu_flops += fl;
    if (st == LCP_OK && !(rcond >= REF_LU_RCOND)) {
        *bad = C->F[0];
        ref_lu_free(&K->lu);
    }
    return st;
}

/* z from the coupled partition: bound and sliding rows, then the solve with refinement;
 * C->w = A z + q.  *bad: a dependent row of A_FF (then nothing is solved). */
lcp_status ref_cpl_partition(ref_ctx *C, ref_cpl *K, double *z, int *bad)
{
    const lcp_problem *P = C->P;
    int m = C->m, nf = 0;
    K->ns = 0;
    for (int i = 0; i < m; i++) {
        int f = P->findex ? P->findex[i] : -1;
        K->pos[i] = -1;
        if (f >= 0 && C->state[f] != ST_FREE) {         /* normal at zero: z_i = 0 */
            z[i] = 0.0;
            continue;
        }
        if (f < 0 && P->lo[i] == P->hi[i]) {
            z[i] = P->lo[i];
            continue;
        }
        if (C->state[i] == ST_FREE) {
            K->pos[i] = nf;
            C->F[nf++] = i;
            z[i] = 0.0;
        } else if (f >= 0) {
            K->c[i] = C->state[i] == ST_LO ? P->lo[i] : P->hi[i];
            K->S[K->ns++] = i;
            z[i] = 0.0;
        } else {
            z[i] = C->state[i] == ST_LO ? P->lo[i] : P->hi[i];
        }
    }
    K->nf = C->nf = nf;
    C->nff = -1;
    *bad = -1;
    lcp_status st = LCP_OK;
    if (nf > 0 && K->use_lu) {
        st = cpl_lu(C, K, bad);
    } else if (nf > 0) {
        st = C->be.factor(&C->be, C->F, nf, K->shift, NULL, K->shift > 0.0 ? 0.0 : REF_TAU, bad);
    }
    if (st != LCP_OK || *bad >= 0) return st;
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -1;
    double *bvec = C->b, *x = C->x, prev = INFINITY, target = DBL_EPSILON;
    for (int k = 0; k < REF_REFINE && st == LCP_OK; k++) { /* solve, then refine */
        for (int s = 0; s < K->ns; s++) {
            int t = K->S[s];
            z[t] = K->c[t] * z[P->findex[t]];
        }
        ref_w(C, z);
        double rf = ref_wf(C);                          /* relative to rounding */
        if (nf == 0 || (k >= 1 && rf <= target) || (k >= 2 && !(rf <= 0.5 * prev))) break;
        prev = rf;
        for (int t = 0; t < nf; t++) bvec[t] = -C->w[C->F[t]];
        if (K->use_lu) {
            memcpy(x, bvec, (size_t)nf * sizeof *x);
            st = ref_lu_solve(K->lu, x);
        } else {
            st = cpl_gmres(C, K, bvec, x);
        }
        if (st == LCP_MAXITER && k > 0) {               /* refinement at rounding: keep z */
            st = LCP_OK;
            break;
        }
        for (int t = 0; st == LCP_OK && t < nf; t++) z[C->F[t]] += x[t];
    }
    for (int s = 0; s < K->ns; s++) {
        int t = K->S[s];
        z[t] = K->c[t] * z[P->findex[t]];
    }
    ref_w(C, z);
    return st;
}

/* The set row i asks for in the coupled problem, or -1. */
int ref_cpl_wants(const ref_ctx *C, const double *z, int i)
{
    const lcp_problem *P = C->P;
    int f = P->findex ? P->findex[i] : -1;
    double lo = P->lo[i], hi = P->hi[i];
    if (f >= 0) {
        if (C->state[f] != ST_FREE) return -1;          /* fixed at zero */
        lo *= z[f];
        hi *= z[f];
    }
    return ref_wants_in(C, z, i, lo, hi);
}

/* The violators of the coupled problem at z */
int ref_cpl_count(const ref_ctx *C, const double *z)
{
    int n = 0;
    for (int i = 0; i < C->m; i++) n += ref_cpl_wants(C, z, i) >= 0;
    return n;
}

/* K's workspace for m rows (K zeroed by the caller; ref_cpl_free releases it either way) */
lcp_status ref_cpl_alloc(ref_cpl *K, int m, int nnz)
{
    size_t mm = (size_t)m + 1;
    if (K->use_lu) {
        K->Rp = lcp_malloc(mm, sizeof *K->Rp);
        K->Rj = lcp_malloc((size_t)nnz + 1, sizeof *K->Rj);
        K->Rx = lcp_malloc((size_t)nnz + 1, sizeof *K->Rx);
        K->mark = lcp_malloc(mm, sizeof *K->mark);
        if (!K->Rp || !K->Rj || !K->Rx || !K->mark) return LCP_ERR_NOMEM;
    }
    K->pos = lcp_malloc(mm, sizeof *K->pos);
    K->S = lcp_malloc(mm, sizeof *K->S);
    K->c = lcp_calloc(mm, sizeof *K->c);
    K->V = lcp_malloc(mm * (REF_GM_K + 1), sizeof *K->V);
    K->H = lcp_calloc((size_t)(REF_GM_K + 1) * REF_GM_K, sizeof *K->H);
    K->g = lcp_malloc(REF_GM_K + 1, sizeof *K->g);
    K->cs = lcp_malloc(REF_GM_K, sizeof *K->cs);
    K->sn = lcp_malloc(REF_GM_K, sizeof *K->sn);
    K->y = lcp_malloc(REF_GM_K, sizeof *K->y);
    K->t1 = lcp_malloc(mm, sizeof *K->t1);
    K->t2 = lcp_malloc(mm, sizeof *K->t2);
    return K->pos && K->S && K->c && K->V && K->H && K->g && K->cs && K->sn && K->y && K->t1 &&
                   K->t2
               ? LCP_OK
               : LCP_ERR_NOMEM;
}

void ref_cpl_free(ref_cpl *K)
{
    ref_lu_free(&K->lu);
    lcp_free(K->Rp);
    lcp_free(K->Rj);
    lcp_free(K->Rx);
    lcp_free(K->mark);
    lcp_free(K->pos);
    lcp_free(K->S);
    lcp_free(K->c);
    lcp_free(K->V);
    lcp_free(K->H);
    lcp_free(K->g);
    lcp_free(K->cs);
    lcp_free(K->sn);
    lcp_free(K->y);
    lcp_free(K->t1);
    lcp_free(K->t2);
}

/* The start of a coupled try (ref_coupled, ref_ssn): T keeps the partition, z and the
 * frozen bounds it starts from (T zeroed by the caller; ref_try_end frees it either way). */
lcp_status ref_try_begin(ref_ctx *C, const double *z, ref_try *T)
{
    size_t m = (size_t)C->m, mm = m + 1;
    T->state = lcp_malloc(mm, 1);
    T->z = lcp_malloc(mm, sizeof *T->z);
    T->lo = lcp_malloc(mm, sizeof *T->lo);
    T->hi = lcp_malloc(mm, sizeof *T->hi);
    if (!T->state || !T->z || !T->lo || !T->hi) return LCP_ERR_NOMEM;
    memcpy(T->state, C->state, m);
    memcpy(T->z, z, m * sizeof *z);
    memcpy(T->lo, C->lo, m * sizeof *z);
    memcpy(T->hi, C->hi, m * sizeof *z);
    return LCP_OK;
}

/* The end of a coupled try: one that did not solve (and met no error) gives back z, the
 * partition and the frozen bounds it started from; a solved one leaves the bounds its
 * answer meets.  Frees T. */
void ref_try_end(ref_ctx *C, double *z, ref_try *T, int solved, lcp_status st)
{
    int m = C->m;
    if (!solved && st == LCP_OK) {
        memcpy(C->state, T->state, (size_t)m);
        memcpy(z, T->z, (size_t)m * sizeof *z);
        memcpy(C->lo, T->lo, (size_t)m * sizeof *z);
        memcpy(C->hi, T->hi, (size_t)m * sizeof *z);
        C->nff = -1;
    }
    for (int i = 0; solved && i < m; i++) {
        double lo, hi;
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        C->lo[i] = lo;
        C->hi[i] = hi;
    }
    lcp_free(T->state);
    lcp_free(T->z);
    lcp_free(T->lo);
    lcp_free(T->hi);
}

/* Friction rows whose normal opened (free now, not in the partition before) start
 * sticking (free). */
void ref_cpl_open(ref_ctx *C, const signed char *before)
{
    const int *fx = C->P->findex;
    for (int i = 0; fx && i < C->m; i++)
        if (fx[i] >= 0 && C->state[fx[i]] == ST_FREE && before[fx[i]] != ST_FREE)
            C->state[i] = ST_FREE;
}

/* The next partition of a coupled block step: after progress (n < *nbest) every violator
 * of z (want, best the partition they were read at); otherwise back to the best partition,
 * half as many (*k), down to single steps, each tried once.  0: stop (single steps that
 * failed REF_JP_COUNT times). */
static int cpl_next(ref_ctx *C, const double *z, int n, int *nbest, int *k, int *fails,
                    signed char *best, signed char *want)
{
    int m = C->m;
    if (n < *nbest) {                                   /* progress: all its violators */
        *nbest = n;
        *k = n;
        *fails = 0;
        memcpy(best, C->state, (size_t)m);
        for (int i = 0; i < m; i++) want[i] = (signed char)ref_cpl_wants(C, z, i);
    } else {                                            /* back to the best partition,
                                                           move half as many */
        if (*k == 1 && ++*fails >= REF_JP_COUNT) return 0;
        *k = *k > 1 ? *k / 2 : 1;
        memcpy(C->state, best, (size_t)m);
    }
    for (int i = 0, moved = 0; i < m && moved < *k; i++)  /* the k of least index */
        if (want[i] >= 0 && want[i] != best[i]) {
            C->state[i] = want[i];
            moved++;
        }
    if (*k == 1 && n >= *nbest) {                       /* single steps: the next one */
        for (int i = 0; i < m; i++)
            if (want[i] >= 0 && want[i] != best[i]) {
                want[i] = -1;                           /* tried: skip it next time */
                break;
            }
    }
    ref_cpl_open(C, best);
    C->pivots += *k;
    return 1;
}

/* Coupled block steps from the current partition; *solved = 1 when one has no violator
 * (z, C->w, C->F and the frozen bounds C->lo, C->hi then describe it).  A try that fails
 * (more than REF_IPM_VIOL violators at the first step, or no progress) leaves z, the
 * partition and the frozen bounds as it found them (C->w is then stale: the next round
 * recomputes it). */
lcp_status ref_coupled(ref_ctx *C, double *z, int *solved)
{
    int m = C->m, nbest = m + 1, k = 0, fails = 0;
    lcp_status st = LCP_OK;
    ref_cpl K;
    ref_try T;
    memset(&K, 0, sizeof K);
    memset(&T, 0, sizeof T);
    *solved = 0;
    K.shift = C->eps;                  /* semi-definite: the shifted factor preconditions */
    C->eps = 0.0;                      /* w unshifted: the coupled problem itself */
    size_t mm = (size_t)m + 1;
    signed char *best = lcp_malloc(mm, 1), *want = lcp_malloc(mm, 1);
    if (!best || !want || ref_try_begin(C, z, &T) != LCP_OK ||
        ref_cpl_alloc(&K, m, LCP_CSR_NNZ(&C->P->A)) != LCP_OK)
        st = LCP_ERR_NOMEM;
    for (int step = 0; st == LCP_OK && step < REF_CPL_STEPS; step++) {
        int bad = -1;
        st = ref_cpl_partition(C, &K, z, &bad);
        if (st == LCP_MAXITER) {                        /* GMRES did not converge: give up */
            st = LCP_OK;
            break;
        }
        if (st != LCP_OK) break;
        C->iterations++;
        C->coupled_steps++;
        int n = bad >= 0 ? m + 1 : ref_cpl_count(C, z); /* a singular A_FF: no better */
        if (n == 0) {
            *solved = 1;
            break;
        }
        if (step == 0 && n > REF_IPM_VIOL) break;      /* far from the partition: give up */
        if (!cpl_next(C, z, n, &nbest, &k, &fails, best, want)) break;
    }
    ref_try_end(C, z, &T, *solved, st);
    lcp_free(best);
    lcp_free(want);
    ref_cpl_free(&K);
    C->eps = K.shift;
    return st;
}
