/* solvers.h: the solver functions the registry lists, each declared through lcp_solve_fn
 * so the compiler checks every signature.  One file per solver. */
#ifndef LCP_SOLVERS_H
#define LCP_SOLVERS_H

#include "lcp.h"

lcp_solve_fn lcp_pgs;    /* pgs.c */
lcp_solve_fn lcp_jacobi; /* jacobi.c */
lcp_solve_fn lcp_pgs_block; /* pgs_block.c */
lcp_solve_fn lcp_amgs_D, lcp_amgs_I, lcp_amgs_D_explicit, lcp_amgs_I_explicit; /* amgs.c */
lcp_solve_fn lcp_mgs; /* amgs.c */
lcp_solve_fn lcp_ldlt_ref; /* reference/ldlt_ref.c */

#endif
