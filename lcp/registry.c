/* registry.c: the one table of liblcp's solvers, chosen by name (PETSc KSP style).  A static
 * const table: no self-registration, nothing a static link could drop.  The peer libraries'
 * solvers have their own table in liblcp-peers (peers/registry.c), so that a program linking
 * liblcp depends on none of them. */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

#define BOXED (LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX)
#define FACTORED_BOXED (BOXED | LCP_FACTORED) /* solves a problem read without A */
#define SYM_BOXED (LCP_NEEDS_SYMMETRIC | FACTORED_BOXED)
#define DANTZIG_NEEDS (LCP_NEEDS_SYMMETRIC | BOXED | LCP_DIRECT | LCP_DENSE)

static const lcp_solver registry[] = {
    {"pgs", "projected Gauss-Seidel / SOR (omega), any ordering, assembled or matrix-free",
     FACTORED_BOXED, lcp_solve_pgs, lcp_setup_pgs, lcp_teardown_pgs},
    {"jacobi", "projected Jacobi with relaxation omega (or auto), assembled or matrix-free",
     FACTORED_BOXED, lcp_solve_jacobi, NULL, NULL},
    {"pgs-block",
     "block Gauss-Seidel: each contact's normal and friction rows solved exactly per visit",
     FACTORED_BOXED, lcp_solve_pgs_block, NULL, NULL},
    {"pgs-color",
     "Gauss-Seidel over a greedy colouring of the rows, each colour on --threads threads",
     FACTORED_BOXED, lcp_solve_pgs_color, lcp_setup_pgs_color, lcp_teardown_pgs_color},
    {"pgs-color-contact",
     "pgs-color over a colouring of the contacts: a normal row and its friction rows in one "
     "colour, visited in turn by one thread", FACTORED_BOXED, lcp_solve_pgs_color_contact,
     lcp_setup_pgs_color_contact, lcp_teardown_pgs_color},
    {"amgs-D", "modulus-based accelerated Gauss-Seidel, Omega = beta D (Method 3.1/3.2)",
     FACTORED_BOXED, lcp_solve_amgs_D, NULL, NULL},
    {"amgs-I", "modulus-based accelerated Gauss-Seidel, Omega = beta I (Method 3.1/3.2)",
     FACTORED_BOXED, lcp_solve_amgs_I, NULL, NULL},
    {"amgs-D-explicit", "AMGS Omega = beta D on the dense A = J Minv J^T + E (Method 2.2)",
     BOXED | LCP_DENSE, lcp_solve_amgs_D_explicit, NULL, NULL},
    {"amgs-I-explicit", "AMGS Omega = beta I on the dense A = J Minv J^T + E (Method 2.2)",
     BOXED | LCP_DENSE, lcp_solve_amgs_I_explicit, NULL, NULL},
    {"mgs", "modulus-based Gauss-Seidel (Bai 2010, not accelerated), Omega = beta D, standard LCP",
     LCP_FACTORED, lcp_solve_mgs, NULL, NULL},
    {"ldlt-ref", "exact block principal pivoting on CHOLMOD sparse LDL^T (the reference)",
     LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DIRECT, lcp_solve_ldlt_ref, NULL, NULL},
    {"lemke-ref", "Lemke's method, lexicographic, dense basis inverse: any A (reference for "
     "non-symmetric A)", LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DIRECT | LCP_DENSE,
     lcp_solve_lemke_ref, NULL, NULL},
    {"dantzig", "Dantzig/Baraff principal pivoting as in ODE lcp.cpp (dense LDL^T updates; "
     "friction bounds frozen at the first friction row)", DANTZIG_NEEDS, lcp_solve_dantzig,
     NULL, NULL},
    {"dantzig-rounds", "ODE's Dantzig pass repeated, friction bounds recomputed from the last "
     "answer until they settle", DANTZIG_NEEDS, lcp_solve_dantzig_rounds, NULL, NULL},
    {"nncg", "nonsmooth nonlinear CG over PGS sweeps (Silcowitz, Niebe, Erleben 2010)",
     FACTORED_BOXED, lcp_solve_nncg, NULL, NULL},
    {"pgs-sm", "PGS sweeps then CG subspace minimisation on the free rows (Silcowitz, Niebe, "
     "Erleben 2010)", SYM_BOXED, lcp_solve_pgs_sm, NULL, NULL},
    {"apgd", "accelerated projected gradient, adaptive step and gradient restart (Mazhar et "
     "al. 2015)", SYM_BOXED, lcp_solve_apgd, NULL, NULL},
    {"spg", "Barzilai-Borwein spectral projected gradient, nonmonotone (Birgin, Martinez, "
     "Raydan 2000)", SYM_BOXED, lcp_solve_spg, NULL, NULL},
    {"newton-min", "semismooth Newton on the min-map, CG inner solve, projected Armijo "
     "(Erleben 2013)", LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_FACTORED,
     lcp_solve_newton_min, NULL, NULL},
    {"newton-fb", "semismooth Newton on Fischer-Burmeister, CG inner solve, Armijo (De Luca, "
     "Facchinei, Kanzow 1996)", LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_FACTORED,
     lcp_solve_newton_fb, NULL, NULL},
    {"admm", "ADMM on the box QP, K = A + (sigma + rho) I factored once by KLU (OSQP's "
     "splitting, Stellato et al. 2020)", LCP_NEEDS_SYMMETRIC | BOXED, lcp_solve_admm, NULL,
     NULL},
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
    if (!P->A.p && !(s->needs & LCP_FACTORED)) return LCP_ERR_NEEDS_ASSEMBLED;
    if ((s->needs & LCP_NEEDS_FACTORS) && !lcp_problem_has_factors(P))
        return LCP_ERR_NEEDS_FACTORS;
    /* without A (LCP_READ_SKIP_A), A = J Minv J^T + diag(E) with the symmetric Minv the
     * reader checked: symmetric */
    if ((s->needs & LCP_NEEDS_SYMMETRIC) && !P->symmetric && P->A.p)
        return LCP_ERR_NEEDS_SYMMETRIC;
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
    void *data = NULL;
    lcp_options o = *opt;
    double t_setup = 0.0;
    if (s->setup && !opt->prepared) {
        double t0 = lcp_seconds();
        st = s->setup(P, opt, &data);
        t_setup = lcp_seconds() - t0;
        o.prepared = data;
    }
    if (st == LCP_OK) st = s->solve(P, &o, z, info);
    else lcp_info_init(info);
    if (data) info->setup_time += t_setup;             /* the setup this call ran */
    lcp_unprepare(s, data);
    info->status = st;
    return st;
}

lcp_status lcp_prepare(const lcp_solver *s, const lcp_problem *P, const lcp_options *opt,
                       void **data)
{
    if (!data) return LCP_ERR_ARG;
    *data = NULL;
    lcp_status st = lcp_solver_supports(s, P);
    if (st == LCP_OK && !opt) st = LCP_ERR_ARG;
    if (st == LCP_OK && s->setup) st = s->setup(P, opt, data);
    return st;
}

void lcp_unprepare(const lcp_solver *s, void *data)
{
    if (s && s->teardown && data) s->teardown(data);
}
