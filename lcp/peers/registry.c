/* registry.c (liblcp-peers): the one table of the peer libraries' solvers, chosen by name as
 * liblcp's own (lcp/registry.c).  An entry is compiled in only when meson found its library
 * (LCP_HAVE_SICONOS, LCP_HAVE_ODE, LCP_HAVE_BULLET). */
#include "peers.h"

#include <stddef.h>
#include <string.h>

static const lcp_solver registry[] = {
#ifdef LCP_HAVE_SICONOS
    /* Siconos Numerics (peer_siconos.c): standard LCPs, dense, its own stopping tests.  Its
     * PSOR is not listed: in 4.4 it ignores its relaxation parameter (it is its PGS) and
     * prints to standard output. */
#define SICONOS(name, what, needs, fn)                                                        \
    {name, "Siconos Numerics: " what, needs, fn, lcp_setup_siconos, lcp_teardown_siconos}
    SICONOS("siconos-lemke", "Lemke's method (lexicographic)", LCP_DENSE | LCP_DIRECT,
            lcp_solve_siconos_lemke),
    SICONOS("siconos-pivot", "principal pivoting (Murty/Bard family)", LCP_DENSE | LCP_DIRECT,
            lcp_solve_siconos_pivot),
    SICONOS("siconos-enum", "enumeration of the active sets (m <= 24)", LCP_DENSE | LCP_DIRECT,
            lcp_solve_siconos_enum),
    SICONOS("siconos-pgs", "projected Gauss-Seidel", LCP_DENSE, lcp_solve_siconos_pgs),
    SICONOS("siconos-rpgs", "regularised projected Gauss-Seidel", LCP_DENSE,
            lcp_solve_siconos_rpgs),
    SICONOS("siconos-newton-min", "semismooth Newton on the min function", LCP_DENSE,
            lcp_solve_siconos_newton_min),
    SICONOS("siconos-newton-fb", "semismooth Newton on Fischer-Burmeister, line search",
            LCP_DENSE, lcp_solve_siconos_newton_fb),
    SICONOS("siconos-latin", "LATIN method", LCP_DENSE | LCP_NEEDS_SYMMETRIC,
            lcp_solve_siconos_latin),
    SICONOS("siconos-cpg", "conjugate projected gradient", LCP_DENSE | LCP_NEEDS_SYMMETRIC,
            lcp_solve_siconos_cpg),
    SICONOS("siconos-avi-caoferris", "Cao-Ferris AVI pivoting", LCP_DENSE | LCP_DIRECT,
            lcp_solve_siconos_avi_caoferris),
#undef SICONOS
#endif
#ifdef LCP_HAVE_ODE
    {"ode-dantzig", "ODE's Dantzig (DART's dSolveLCP): dense, box friction frozen at the first "
     "friction row", LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DENSE |
     LCP_DIRECT, lcp_solve_ode_dantzig, lcp_setup_ode, lcp_teardown_ode},
#endif
#ifdef LCP_HAVE_BULLET
    {"bullet-pgs", "Bullet 3.24 btSolveProjectedGaussSeidel (double): dense PGS",
     LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DENSE, lcp_solve_bullet_pgs, lcp_setup_bullet,
     lcp_teardown_bullet},
    {"bullet-dantzig", "Bullet 3.24 btDantzigSolver (double): its copy of ODE's Dantzig",
     LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DENSE | LCP_DIRECT,
     lcp_solve_bullet_dantzig, lcp_setup_bullet, lcp_teardown_bullet},
    {"bullet-lemke", "Bullet 3.24 btLemkeSolver (double): Lemke on the bounds' LCP",
     LCP_SUPPORTS_BOX | LCP_DENSE | LCP_DIRECT, lcp_solve_bullet_lemke, lcp_setup_bullet,
     lcp_teardown_bullet},
#endif
    {NULL, NULL, 0, NULL, NULL, NULL} /* the end (a table with no peer is not empty) */
};

const lcp_solver *lcp_peer_solvers(int *count)
{
    if (count) *count = (int)(sizeof registry / sizeof registry[0]) - 1;
    return registry;
}

const lcp_solver *lcp_peer_find(const char *name)
{
    if (!name) return NULL;
    for (const lcp_solver *s = registry; s->name; s++)
        if (strcmp(s->name, name) == 0) return s;
    return NULL;
}
