/* ref_internal.h: what the pivoting driver (ldlt_ref.c) needs from a factorisation
 * backend (ref_cholmod.c: sparse LDL^T; ref_dense.c: dense Cholesky).
 *
 * A backend factors  S = A_FF + eps * diag(A_FF) + diag(dplus_F)  for the free set F
 * (ascending row list; dplus: m entries >= 0, or NULL for none; the interior-point phase
 * of the driver uses it) and solves S x = b for vectors indexed like F.  It reports the
 * first pivot of its elimination order that is not safely positive:  d_k <= tau * A_kk
 * (or NaN; A_kk includes dplus_k), as the original row index in *bad (-1 when all
 * pivots are fine).  tau = 0 asks only for non-positive pivots.
 */
#ifndef REF_INTERNAL_H
#define REF_INTERNAL_H

#include "lcp_internal.h"

typedef struct ref_backend ref_backend;

struct ref_backend {
    /* factor A_FF + eps diag(A_FF) + diag(dplus_F); *bad as above */
    lcp_status (*factor)(ref_backend *be, const int *F, int nf, double eps,
                         const double *dplus, double tau, int *bad);
    /* x = S^{-1} b, both nf entries (the last factor's F) */
    lcp_status (*solve)(ref_backend *be, const double *b, double *x);
    void (*destroy)(ref_backend *be);
    long factorizations; /* numerical factorisations done */
    double flops;        /* their flops (CHOLMOD's analysis count; nf^3/3 dense) */
    long analyses;       /* symbolic analyses (sparse) */
    long supernodal;     /* of the factorisations, supernodal ones (ref_super.c) */
    double lnz;          /* largest nnz(L) of a factorisation */
    long malloc_delta;   /* CHOLMOD malloc_count balance, set by destroy */
    void *impl;
};

/* A: m x m, full storage; diag: A_ii (the backend keeps the pointers, caller owns).
 * full_pattern: -1 auto, 0 never, 1 always; supernodal (ref_super.c numeric factorisation
 * on CHOLMOD's analysis): -1 auto (above 10^7 flops), 0 never, 1 always. */
lcp_status ref_cholmod_create(ref_backend *be, const lcp_csr *A, const double *diag,
                              int full_pattern, int supernodal);
lcp_status ref_dense_create(ref_backend *be, const lcp_csr *A, const double *diag);

/* ref_super.c: supernodal multifrontal LL^T of a symmetric n x n matrix S stored by its upper
 * triangle (CSC Sp, Si, Sx) in the ordering Perm of CHOLMOD's analysis (ColCount: its column
 * counts of L).  analyse: the symbolic part (LCP_ERR_BREAKDOWN when the counts do not match
 * the structure; then the caller keeps CHOLMOD's simplicial factorisation).  factor: the
 * numeric part from the values Sx of the same pattern; *bad: the first system index, in
 * elimination order, with chk set and L_kk^2 <= tau akk (or not positive), -1 when none.
 * solve: b = S^-1 b in place (system order); refused after an incomplete factor. */
typedef struct ref_super ref_super;
lcp_status ref_super_analyse(ref_super **F, int n, const int *Sp, const int *Si,
                             const int *Perm, const int *ColCount);
lcp_status ref_super_factor(ref_super *F, const double *Sx, const double *akk,
                            const signed char *chk, double tau, int *bad);
lcp_status ref_super_solve(ref_super *F, double *b);
size_t ref_super_nnz(const ref_super *F);  /* nnz(L) with the amalgamation's explicit zeros */
void ref_super_free(ref_super **F);

/* lemke_ref.c: the boxed problem lo <= z <= hi (frozen bounds; findex not read) with
 * w = A z + q, A any square matrix, by Lemke's method on the standard reformulation.  z: the
 * answer (m entries, within the box); *pivots: Lemke pivots; *row: on LCP_ERR_TOO_LARGE the
 * size cap.  A ray is LCP_ERR_NO_SOLUTION only when its direction is a Farkas certificate of
 * the reformulated LCP (*cert: its worst relative row, at most 1e-12; *cert is left alone
 * otherwise); without one, the 2^n complementary bases are enumerated when n <= 16, at
 * most *enum_left of them (decremented by those visited) (LCP_OK, *enumerated = 1),
 * otherwise LCP_UNDECIDED (*enumerated = 0).  Also LCP_PIVOT_CAP,
 * LCP_ERR_TOO_LARGE, LCP_ERR_NOMEM. */
lcp_status ref_lemke_box(const lcp_problem *P, const double *lo, const double *hi,
                         long max_pivots, double *z, long *pivots, int *row, double *cert,
                         int *enumerated, long *enum_left);

/* lemke_ref.c: the coupled friction problem on the partition z shows against the frozen
 * bounds, by a dense LU of A_FF + A_FS C (sliding rows tied to their normals); z replaced
 * (and *improved = 1) when its coupled residual is not larger. */
lcp_status ref_coupled_dense(const lcp_problem *P, const double *lo, const double *hi, double *z,
                             int *improved);

/* ref_klu.c: sparse LU (KLU) of an n x n non-symmetric matrix K given by rows (CSR Rp, Rj,
 * Rx; no duplicates).  factor: *L the factor, or NULL (and LCP_OK, *rcond = 0) when K is
 * singular; *rcond = min |U_kk| / max |U_kk|; *flops (may be NULL) KLU's count.  solve:
 * b = K^-1 b in place. */
typedef struct ref_lu ref_lu;
lcp_status ref_lu_factor(ref_lu **L, int n, const int *Rp, const int *Rj, const double *Rx,
                         double *rcond, double *flops);
lcp_status ref_lu_solve(ref_lu *L, double *b);
void ref_lu_free(ref_lu **L);

/* Lemke's method's common pieces (lemke_ref.c), for its dense basis inverse (lemke_ref.c)
 * and its sparse basis (lemke_sparse.c): the same tolerances and the same pivot rule. */
#define LEMKE_PIV 1e-11  /* a pivot entry must exceed LEMKE_PIV max|column| */
#define LEMKE_TIE 1e-12  /* ratios tie within this, relative to max(1, ||q||_inf) */
#define LEMKE_CHECK 32   /* the basic values are checked every this many pivots */
#define LEMKE_DRIFT 1e-9 /* re-invert (refactor) when ||q - B x_B||_inf > LEMKE_DRIFT
                            max(1, ||q||_inf) */

/* The start shared by both: z = 0; 1 when q >= 0 (z = 0 solves: no pivot), else 0 with
 * *max_pivots defaulted (<= 0: 50 n + 1000) and *qs = max(1, ||q||_inf). */
int lemke_start(int n, const double *q, double *z, long *max_pivots, double *qs);

/* The ratio test up to its ties, for the pivot column a (sign s: rows with s a_k >
 * LEMKE_PIV max|a| are candidates) and the basic values xb (bas: the basic variable of
 * each position; z0 = 2 n): the leaving position when one row attains the minimum ratio
 * (within LEMKE_TIE qs) or z0 is among those that do; -1 when no row is a candidate (a ray);
 * -2 when *nt > 1 rows tie (tie[0..nt-1]): then lemke_lex decides. */
int lemke_ratio(int n, const double *a, const double *xb, const int *bas, double qs, double s,
                int *tie, int *nt);

/* The lexicographic rule among the tied positions tie[0..nt-1]: the lexicographic minimum
 * of the rows of B^-1 / (s a_k), column by column, within 1e-11 of the largest such row
 * entry; the row of B^-1 of tie[t] is R + row[t] n (row[t], tie[t] filtered together).
 * Returns the leaving position. */
int lemke_lex(int n, const double *a, double s, int *tie, int *row, int nt, const double *R);

#endif /* REF_INTERNAL_H */
