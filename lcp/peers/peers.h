/* peers.h: what the wrappers of liblcp-peers share: the public contract (lcp.h,
 * lcp_peers.h) and the solver functions the peers' table lists, each declared through
 * lcp_solve_fn so the compiler checks every signature.  One file per peer library.  The
 * wrappers use liblcp's public API only, so the shared liblcp-peers links the shared liblcp. */
#ifndef LCP_PEERS_INTERNAL_H
#define LCP_PEERS_INTERNAL_H

#include "lcp.h"
#include "lcp_peers.h"

#ifdef __cplusplus
extern "C" { /* peer_ode.cpp and peer_bullet.cpp define them with C linkage */
#endif

/* peer_siconos.c */
lcp_solve_fn lcp_solve_siconos_lemke, lcp_solve_siconos_pivot, lcp_solve_siconos_enum,
    lcp_solve_siconos_pgs, lcp_solve_siconos_rpgs,
    lcp_solve_siconos_newton_min, lcp_solve_siconos_newton_fb, lcp_solve_siconos_latin,
    lcp_solve_siconos_cpg, lcp_solve_siconos_avi_caoferris;
lcp_setup_fn lcp_setup_siconos;
lcp_teardown_fn lcp_teardown_siconos;
/* peer_ode.cpp */
lcp_solve_fn lcp_solve_ode_dantzig;
lcp_setup_fn lcp_setup_ode;
lcp_teardown_fn lcp_teardown_ode;
/* peer_bullet.cpp */
lcp_solve_fn lcp_solve_bullet_pgs, lcp_solve_bullet_dantzig, lcp_solve_bullet_lemke;
lcp_setup_fn lcp_setup_bullet;
lcp_teardown_fn lcp_teardown_bullet;

#ifdef __cplusplus
}
#endif

#endif
