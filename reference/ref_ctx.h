/* ref_ctx.h: the one context of the pivoting reference (`ldlt-ref', `lemke-ref') and the
 * entry points of its phases; included only by the files of reference/ (private: not
 * installed, not included by tests).
 *
 * The driver (ldlt_ref.c: ref_solve) owns a ref_ctx for one solve and hands it to each
 * phase in turn; a phase reads the problem (C->P: every w and residual uses the A the user
 * gave), the frozen bounds (C->lo, C->hi) and the partition (C->state), and leaves z, the
 * partition, C->w and its counters as its file's header says.  Which file holds which phase:
 *   ref_partition.c  a partition's solve with refinement, w and its rounding scale, the
 *                    violator tests, the final partition's polish
 *   ref_box.c        the boxed problem with frozen bounds: block steps, projected Newton,
 *                    single pivots, the proximal loop for semi-definite A
 *   ref_ipm.c        the interior-point start of block pivoting
 *   ref_coupled.c    coupled pivoting of the friction rounds (GMRES or sparse LU), and the
 *                    coupled partition that ref_ssn.c shares
 *   ref_ssn.c        semismooth Newton on the coupled friction problem
 *   ref_rescue.c     the final check at rounding and the other routes: PGS then Newton,
 *                    Lemke (certificate, enumeration)
 *   ref_cone.c       friction as the LCP of its cone, by Lemke's method (`lemke-cone')
 *   ldlt_ref.c       the driver: start, friction rounds, final status; registered entries
 * The method, the statuses and the sources: the header comment of each of these files.
 */
#ifndef REF_CTX_H
#define REF_CTX_H

#include "ldlt_ref.h"
#include "ref_internal.h"

#define REF_TAU 1e-10      /* dependent pivot: d_k <= REF_TAU * A_kk */
#define REF_SHIFT 1e-3     /* first eps of the proximal shift, relative to A_kk */
#define REF_VIOL 4.0       /* a row violates when it is off by more than REF_VIOL eps of its
                              rounding scale s_i = (|A||z|)_i + |q_i| (a quarter of what the
                              final check allows) */
#define REF_JP_COUNT 3     /* block steps without progress before Newton steps */
#define REF_IPM_VIOL 32    /* a block step leaving more violators than this and more than
                              half of those three steps before starts the interior-point
                              phase */
#define REF_SSN_TRIES 4    /* semismooth Newton tries a solve (rounds; PGS then Newton) */
#define REF_REFINE 4       /* solve + refinement steps */

/* The set a row is in: free (w_i = 0), at its lower or at its upper bound */
enum { ST_FREE = 0, ST_LO = 1, ST_HI = 2 };

typedef struct ref_ctx {
    const lcp_problem *P; /* the problem as given: every w and residual uses its A */
    int m;
    ref_backend be;      /* factors of A's symmetric part (A itself when symmetric) */
    lcp_csr As;          /* (A + A^T) / 2 when A is symmetric only to rounding, else empty */
    double *diag;        /* m: A_ii */
    double *lo, *hi;     /* m: bounds frozen for the current round */
    signed char *state;  /* m: ST_FREE / ST_LO / ST_HI */
    int *F;              /* m: the free list, ascending */
    int nf;
    int *Ff;             /* m: the free list of the factor the backend holds */
    int nff;             /* its length, -1 when the backend holds none */
    double epsf;         /* its eps */
    double *w;           /* m: A z + q (+ eps D (z - zc) when shifted) */
    double *s;           /* m: the rounding scale of w, (|A||z|)_i + |q_i| */
    double *b, *x;       /* m: right-hand side and solution of (1), ref_partition.c */
    double eps;          /* 0, or REF_SHIFT once a dependent pivot was seen */
    double *zc;          /* m: proximal centre (used when eps > 0) */
    int prox;            /* proximal steps done */
    double qinf;         /* ||q||_inf */
    double *zo, *wo, *zn; /* m: projected Newton: start, its w, the Newton point */
    double *du, *gz, *cz; /* m: projected Newton's arc search: H (zN - zo), the gradient
                             at zo, the clipped part of a trial step (zero elsewhere) */
    int *cl;             /* m: the rows of that clipped part */
    double *zbest;       /* m: the iterate of smallest ||r||_inf seen (start, rounds) */
    long pivots, max_pivots, single_steps, newton_steps, ipm_steps, coupled_steps, ssn_steps;
    long ssn_pivots;     /* rows moved by Newton steps (reported, not under the pivot cap) */
    long lu_factorizations; /* sparse LUs of the coupled matrix (ref_klu.c) */
    double lu_flops;
    int ipm_done;        /* the interior-point phase ran (at most once a solve) */
    int enumerated;      /* a Lemke round was answered by enumerating its bases */
    long enum_bases;     /* bases the enumerations of friction rounds visited (capped) */
    double cert;         /* a Farkas certificate's worst row (no-solution-found), or NAN */
    int iterations;
    int row;             /* last row moved, or the row to blame */
} ref_ctx;

/* A coupled partition (ref_coupled.c; ref_ssn.c solves it by the sparse LU): friction rows
 * sliding at lo_t z_n or hi_t z_n tied to their normal inside the solve, and the workspace
 * of GMRES or of the LU. */
typedef struct ref_cpl {
    int nf, ns;
    double shift;       /* the proximal shift of the preconditioner (semi-definite A), or 0 */
    int *pos;           /* m: index in F or -1 */
    int *S;             /* sliding rows with a free normal */
    double *c;          /* m: c_t of a sliding row */
    double *V, *H, *g, *cs, *sn, *y, *t1, *t2;
    int use_lu;         /* 1: solve by the sparse LU of the coupled matrix (ref_klu.c) */
    ref_lu *lu;         /* its factor */
    int *Rp, *Rj, *mark; /* the coupled matrix by rows (m + 1, nnz(A), m) */
    double *Rx;
} ref_cpl;

/* What a coupled try (ref_coupled, ref_ssn) gives back when it does not solve: the
 * partition, z and the frozen bounds it started from (ref_coupled.c: ref_try_begin,
 * ref_try_end) */
typedef struct ref_try {
    signed char *state;
    double *z, *lo, *hi;
} ref_try;

/* The routes that answered (lcp_info.route, named in ldlt_ref.c) */
enum { ROUTE_NONE, ROUTE_PGS_NEWTON, ROUTE_LEMKE, ROUTE_ENUM, ROUTE_CONE };

/* ref_partition.c */
void ref_w(ref_ctx *C, const double *z);
double ref_wf(const ref_ctx *C);
lcp_status ref_partition(ref_ctx *C, double *z);
int ref_wants_in(const ref_ctx *C, const double *z, int i, double lo, double hi);
int ref_wants(const ref_ctx *C, const double *z, int i);
int ref_count(const ref_ctx *C, const double *z, int *first);
lcp_status ref_polish(ref_ctx *C, double *z);

/* ref_box.c */
lcp_status ref_prox(ref_ctx *C, const ref_options *ro, double *z);

/* ref_ipm.c */
lcp_status ref_ipm(ref_ctx *C, double *z);

/* ref_coupled.c */
lcp_status ref_cpl_alloc(ref_cpl *K, int m, int nnz);
void ref_cpl_free(ref_cpl *K);
lcp_status ref_cpl_partition(ref_ctx *C, ref_cpl *K, double *z, int *bad);
int ref_cpl_wants(const ref_ctx *C, const double *z, int i);
int ref_cpl_count(const ref_ctx *C, const double *z);
void ref_cpl_open(ref_ctx *C, const signed char *before);
lcp_status ref_try_begin(ref_ctx *C, const double *z, ref_try *T);
void ref_try_end(ref_ctx *C, double *z, ref_try *T, int solved, lcp_status st);
lcp_status ref_coupled(ref_ctx *C, double *z, int *solved);

/* ref_ssn.c */
lcp_status ref_ssn(ref_ctx *C, double *z, int *solved, int *tried);

/* ref_rescue.c */
int ref_rounding(ref_ctx *C, const double *z);
int ref_rescuable(const ref_ctx *C, lcp_status st, int lemke);
lcp_status ref_lemke(ref_ctx *C, double *z);
int ref_pgs_small(const ref_ctx *C);
/* semismooth Newton (ref_ssn) from z, up to REF_SSN_TRIES tries, each going on from the
 * last one's iterate only while that at least halved ||r||_inf; *solved = 1 when z is an
 * answer at rounding (ref_rounding), else z the last iterate kept.  C->eps = 0.  LCP_OK or
 * LCP_ERR_NOMEM. */
lcp_status ref_ssn_tries(ref_ctx *C, double *z, int *solved);
lcp_status ref_pgs_newton(ref_ctx *C, double *z, int *solved);
lcp_status ref_rescue(ref_ctx *C, double *z, int lemke, int *how);

/* ref_cone.c */
lcp_status ref_cone(ref_ctx *C, double *z, int *solved);

#endif /* REF_CTX_H */
