/* ldlt_ref.h: the pivoting reference (`ldlt-ref`) beyond the solver signature: its variant
 * options and its statistics, for the tests and the benchmark (tests/reference/test_ref.c,
 * tests/bench/bench_ref.c).  The registered solver is lcp_solve_ldlt_ref (lcp/solvers.h), which is
 * ref_solve() with ref_options_default() and no statistics.
 *
 * ref_solve(P, opt, ro, z, info, st)
 *   P     in   the problem (symmetric A; box bounds; friction coupling findex)
 *   opt   in   lcp_options: warm, max_pivots are read; tol and max_iter do not apply
 *   ro    in   variant (NULL = defaults): sparse CHOLMOD or dense LAPACKE factorisation,
 *              block pivoting on/off, full-pattern reuse policy
 *   z     in/out  m entries: warm start when opt->warm, the answer on return
 *   info  out  iterations (pivot steps), pivots, factorizations, flops, residual, row
 *   st    out  (may be NULL) what the tests check: CHOLMOD's malloc_count balance, whether
 *              the diagonal shift was needed, friction rounds, single (Murty) steps
 */
#ifndef LDLT_REF_H
#define LDLT_REF_H

#include "lcp.h"

typedef enum ref_backend_kind {
    REF_CHOLMOD = 0, /* sparse LDL^T (CHOLMOD, simplicial, AMD ordering) */
    REF_DENSE = 1,   /* dense Cholesky of A_FF (LAPACKE dpotrf / dpotrs) */
    REF_LEMKE = 2    /* each round's boxed problem by Lemke's method (lemke_ref.c): any A,
                        dense; what ldlt-ref uses when A is not symmetric within sym_tol */
} ref_backend_kind;

typedef struct ref_options {
    ref_backend_kind backend; /* REF_CHOLMOD */
    int block;                /* 1: Judice-Pires block steps, then projected Newton steps
                                 when they stall, then single pivots; 0: single pivots
                                 (Murty's least index) only */
    int full_pattern;         /* -1: auto (|F| >= m/2), 0: never, 1: always.  Sparse only:
                                 factor [A_FF 0; 0 I] on A's analysed pattern */
    int supernodal;           /* sparse numeric factorisation: -1 auto (supernodal LL^T,
                                 ref_super.c, when CHOLMOD's analysis counts over 10^7
                                 flops), 0 CHOLMOD's simplicial LDL^T, 1 supernodal */
    int ipm;                  /* interior-point phase (a start for block steps that do not
                                 settle): -1 auto (when block steps stop halving the
                                 violators), 0 never, 1 always (after the first block step
                                 that leaves violators).  At most once a solve */
    int ssn;                  /* semismooth Newton on the coupled friction problem: -1 auto,
                                 0 never, k > 0: after round k */
    int rescue;               /* the other routes when pivoting ends without an answer
                                 (PGS then Newton; Lemke; enumeration) and, for
                                 non-symmetric A with friction, PGS then Newton before
                                 Lemke's rounds: 1 (default) or 0 (tests of one route) */
} ref_options;

typedef struct ref_stats {
    long malloc_delta;    /* CHOLMOD Common->malloc_count at the end minus at the start */
    int shifted;          /* 1: a tiny or negative pivot switched on the diagonal shift */
    int nonunique;        /* 1: A_FF singular at the final partition (z not unique) */
    int rounds;           /* friction bound rounds (1 without coupling) */
    long single_steps;    /* least-index (Murty) steps */
    long newton_steps;    /* projected Newton steps (after block steps stopped helping) */
    long ipm_steps;       /* interior-point iterations (factorisations of the phase) */
    long coupled_steps;   /* coupled pivoting steps (friction coupling solved inside) */
    long ssn_steps;       /* semismooth Newton steps (coupled friction problem) */
    long lu_factorizations; /* sparse LUs of the coupled matrix (KLU; counted in
                             info->factorizations with the factorisations of A_FF) */
    long analyses;        /* symbolic analyses (sparse) */
    long supernodal;      /* factorisations done by the supernodal code (ref_super.c) */
    double lnz;           /* largest nnz(L) of a factorisation (supernodal: with the
                             amalgamation's explicit zeros) */
} ref_stats;

void ref_options_default(ref_options *o);

lcp_status ref_solve(const lcp_problem *P, const lcp_options *opt, const ref_options *ro,
                     double *z, lcp_info *info, ref_stats *st);

/* The same pivoting on dense LAPACKE Cholesky (ref_solve with backend REF_DENSE): the
 * benchmark's and the tests' second opinion.  Forms |F| x |F| dense blocks. */
lcp_solve_fn lcp_solve_ldlt_dense;

/* ref_cone.c (route `lemke-cone'; for the tests): the box-friction problem P (every friction
 * row lo = -hi, its normal row and every other row at lo = 0, hi = inf) as the LCP of its
 * friction cone in (z_N, b+, b-, s), solved by Lemke's method on a sparse basis
 * (lemke_lcp_sparse) on M + reg max_k M_kk I within the route's flop budget (cover 1: the
 * covering vector of q's negative part, the route's first try; 0: all ones), the basis it ends
 * on solved again on M itself, mapped back to z (m entries).  *pivots: Lemke's.  LCP_OK;
 * LCP_ERR_ARG when P's rows do not fit or the LCP has more than 20000 unknowns; otherwise
 * Lemke's status (LCP_PIVOT_CAP at the budget).  No final check: the route's Newton steps and
 * the driver's check follow. */
lcp_status ref_cone_solve(const lcp_problem *P, double reg, int cover, double *z, long *pivots);

#endif /* LDLT_REF_H */
