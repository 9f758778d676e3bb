/* dantzig.h: ODE's Dantzig/Baraff pivoting (`dantzig', `dantzig-rounds') beyond the solver
 * signature: its variant options and what the tests and tables read besides z.  The
 * registered solvers are lcp_solve_dantzig and lcp_solve_dantzig_rounds (lcp/solvers.h),
 * which are lcp_dantzig() with dantzig_options_default() (friction = ODE, resp. rounds).
 *
 * lcp_dantzig(P, opt, dopt, z, info, out)
 *   P     in   the problem: symmetric A, lo <= 0 <= hi on every row, findex rows with lo = -hi
 *   opt   in   lcp_options: max_pivots (> 0: the drive-step guard when dopt's is 0); warm,
 *              tol and max_iter do not apply (ODE always starts from z = 0)
 *   dopt  in   variant (NULL = defaults, friction as ODE)
 *   z     out  m entries: the answer (rows not reached by a `partial' pass are 0)
 *   info  out  status, iterations (driving indices), pivots, factorizations, flops, residual,
 *              row (the driving row of a `partial' or `pivot-cap' stop, or a refused row)
 *   out   out  (may be NULL) the solver's own w and index sets, for the differential test
 */
#ifndef LCP_DANTZIG_H
#define LCP_DANTZIG_H

#include "lcp.h"

typedef enum dantzig_friction {
    DANTZIG_FRICTION_ODE = 0, /* bounds frozen at mu |z_f| when the first friction row is
                                 reached (ODE) */
    DANTZIG_FRICTION_ROUNDS,  /* ODE's pass repeated with bounds from the last answer */
    DANTZIG_FRICTION_FIXED    /* findex rows keep their stored lo, hi (tests) */
} dantzig_friction;

typedef enum dantzig_degenerate {
    DANTZIG_DEGENERATE_ODE = 0, /* step s <= 0: keep the rows done, zero the rest, stop
                                   (LCP_PARTIAL) */
    DANTZIG_DEGENERATE_ERROR    /* step s <= 0: LCP_ERR_BREAKDOWN at once (DART's
                                   earlyTermination) */
} dantzig_degenerate;

typedef enum dantzig_zero_pivot {
    DANTZIG_PIVOT_NEXTAFTER = 0, /* a zero pivot A_ii - ell.Dell: A_ii nudged up one ulp (ODE) */
    DANTZIG_PIVOT_REPORT         /* |pivot| < 1e-14 |A_ii|: LCP_ERR_BREAKDOWN */
} dantzig_zero_pivot;

typedef struct dantzig_options {
    dantzig_friction friction;     /* DANTZIG_FRICTION_ODE */
    dantzig_degenerate on_degenerate; /* DANTZIG_DEGENERATE_ODE */
    dantzig_zero_pivot zero_pivot; /* DANTZIG_PIVOT_NEXTAFTER */
    long max_drive_steps;          /* 0: 10 m^2 + 100 (opt->max_pivots when that is > 0) */
    int max_rounds;                /* 50: friction = rounds */
    double dense_cap;              /* 0: min(4 GiB, RAM/2); bytes the 2 m^2 doubles may take */
} dantzig_options;

/* What a pass leaves besides z (arrays owned by the caller, m entries, each may be NULL). */
typedef struct dantzig_out {
    double *w;     /* the solver's own w (exactly 0 on clamped rows and rows not reached) */
    char *set;     /* 'C' clamped, 'L' at lo, 'H' at hi, 'R' not reached (partial) */
    double *lo, *hi; /* the bounds of the last pass (friction rows: the frozen bounds) */
    int rounds;    /* passes done (1 unless friction = rounds) */
    int nub;       /* rows solved as the unbounded block */
} dantzig_out;

void dantzig_options_default(dantzig_options *o);

lcp_status lcp_dantzig(const lcp_problem *P, const lcp_options *opt, const dantzig_options *dopt,
                       double *z, lcp_info *info, dantzig_out *out);

#endif /* LCP_DANTZIG_H */
