/* solvers.h: the solver functions the registry lists, each declared through lcp_solve_fn
 * so the compiler checks every signature.  One file per solver. */
#ifndef LCPBENCH_REGISTRY_SOLVERS_H
#define LCPBENCH_REGISTRY_SOLVERS_H

#include "lcp.h"

lcp_solve_fn lcp_solve_pgs;    /* pgs.c */
lcp_setup_fn lcp_setup_pgs;    /* the streaming layout (stream.c) */
lcp_teardown_fn lcp_teardown_pgs;
lcp_solve_fn lcp_solve_jacobi; /* jacobi.c */
lcp_solve_fn lcp_solve_pgs_block; /* pgs_block.c */
lcp_solve_fn lcp_solve_pgs_color; /* pgs_color.c */
lcp_setup_fn lcp_setup_pgs_color; /* the colouring and the rows in colour order */
lcp_teardown_fn lcp_teardown_pgs_color; /* also pgs-color-contact's */
lcp_solve_fn lcp_solve_pgs_color_contact;
lcp_setup_fn lcp_setup_pgs_color_contact;
lcp_solve_fn lcp_solve_amgs_D, lcp_solve_amgs_I, lcp_solve_amgs_D_explicit, lcp_solve_amgs_I_explicit; /* amgs.c */
lcp_solve_fn lcp_solve_mgs; /* amgs.c */
lcp_solve_fn lcp_solve_ldlt_ref; /* reference/ldlt_ref.c */
lcp_solve_fn lcp_solve_lemke_ref; /* reference/ldlt_ref.c (driver) + reference/lemke_ref.c */

lcp_solve_fn lcp_solve_dantzig, lcp_solve_dantzig_rounds; /* dantzig.c */

/* the field's solver families (lcp/README.md, "The field's solver families") */
lcp_solve_fn lcp_solve_nncg;                            /* nncg.c */
lcp_solve_fn lcp_solve_pgs_sm;                          /* pgs_sm.c */
lcp_solve_fn lcp_solve_apgd;                            /* apgd.c */
lcp_solve_fn lcp_solve_spg;                             /* spg.c */
lcp_solve_fn lcp_solve_newton_min, lcp_solve_newton_fb; /* newton.c */
lcp_solve_fn lcp_solve_admm;                            /* admm.c */

#endif
