/* registry.c: the one table of solvers, chosen by name (PETSc KSP style).  A static const
 * table: no self-registration, nothing a static link could drop. */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

#define BOXED (LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX)
#define DANTZIG_NEEDS (LCP_NEEDS_SYMMETRIC | BOXED | LCP_DIRECT | LCP_DENSE)

static const lcp_solver registry[] = {
    {"pgs", "projected Gauss-Seidel / SOR (omega), any ordering, assembled or matrix-free",
     BOXED, lcp_solve_pgs},
    {"jacobi", "projected Jacobi with relaxation omega (or auto), assembled or matrix-free",
     BOXED, lcp_solve_jacobi},
    {"pgs-block",
     "block Gauss-Seidel: each contact's normal and friction rows solved exactly per visit",
     LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX, lcp_solve_pgs_block},
    {"amgs-D", "modulus-based accelerated Gauss-Seidel, Omega = beta D (Method 3.1/3.2)",
     BOXED, lcp_solve_amgs_D},
    {"amgs-I", "modulus-based accelerated Gauss-Seidel, Omega = beta I (Method 3.1/3.2)",
     BOXED, lcp_solve_amgs_I},
    {"amgs-D-explicit", "AMGS Omega = beta D on the dense A = J Minv J^T + E (Method 2.2)",
     BOXED | LCP_DENSE, lcp_solve_amgs_D_explicit},
    {"amgs-I-explicit", "AMGS Omega = beta I on the dense A = J Minv J^T + E (Method 2.2)",
     BOXED | LCP_DENSE, lcp_solve_amgs_I_explicit},
    {"mgs", "modulus-based Gauss-Seidel (Bai 2010, not accelerated), Omega = beta D, standard LCP",
     0, lcp_solve_mgs},
    {"ldlt-ref", "exact block principal pivoting on CHOLMOD sparse LDL^T (the reference)",
     LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DIRECT, lcp_solve_ldlt_ref},
    {"dantzig", "Dantzig/Baraff principal pivoting as in ODE lcp.cpp (dense LDL^T updates; "
     "friction bounds frozen at the first friction row)", DANTZIG_NEEDS, lcp_solve_dantzig},
    {"dantzig-rounds", "ODE's Dantzig pass repeated, friction bounds recomputed from the last "
     "answer until they settle", DANTZIG_NEEDS, lcp_solve_dantzig_rounds},
};

const lcp_solver *lcp_solvers(int *count)
{
    if (count) *count = (int)(sizeof registry / sizeof registry[0]);
    return registry;
}

const lcp_solver *lcp_solver_find(const char *name)
{
    int n;
    const lcp_solver *s = lcp_solvers(&n);
    if (!name) return NULL;
    for (int k = 0; k < n; k++)
        if (strcmp(s[k].name, name) == 0) return &s[k];
    return NULL;
}

lcp_status lcp_solver_supports(const lcp_solver *s, const lcp_problem *P)
{
    if (!s || !P || P->m < 0) return LCP_ERR_ARG;
    if ((s->needs & LCP_NEEDS_FACTORS) && !lcp_problem_has_factors(P))
        return LCP_ERR_NEEDS_FACTORS;
    if ((s->needs & LCP_NEEDS_SYMMETRIC) && !P->symmetric) return LCP_ERR_NEEDS_SYMMETRIC;
    if (!(s->needs & LCP_SUPPORTS_FINDEX) && P->findex)
        for (int i = 0; i < P->m; i++)
            if (P->findex[i] >= 0) return LCP_ERR_UNSUPPORTED;
    if (!(s->needs & LCP_SUPPORTS_BOX))
        for (int i = 0; i < P->m; i++)
            if (P->lo[i] != 0.0 || P->hi[i] != INFINITY) return LCP_ERR_UNSUPPORTED;
    return LCP_OK;
}

lcp_status lcp_solve(const lcp_solver *s, const lcp_problem *P, const lcp_options *opt,
                     double *z, lcp_info *info)
{
    lcp_status st = lcp_solver_supports(s, P);
    if (!opt || !z || !info) st = LCP_ERR_ARG;
    if (st != LCP_OK) {
        if (info) {
            lcp_info_init(info);
            info->status = st;
        }
        return st;
    }
    st = s->solve(P, opt, z, info);
    info->status = st;
    return st;
}
