/* lcp_peers.h: liblcp-peers, the peer libraries' LCP solvers in liblcp's solver contract.
 *
 * Siconos Numerics, DART's copy of ODE's Dantzig routine and Bullet's MLCP solvers, each
 * wrapped as an lcp_solver (lcp.h): the same problem, options, lcp_info and residual as
 * liblcp's own solvers, so that a program compares them in one harness.  Each peer is listed
 * only when the library was built with it (meson option `peers'); a build with none lists
 * none.  liblcp itself depends on none of them: link liblcp-peers (pkg-config lcp-peers)
 * only to run the peers.
 *
 *     int n;
 *     const lcp_solver *peers = lcp_peer_solvers(&n);       // n >= 0 entries
 *     const lcp_solver *s = lcp_peer_find("siconos-lemke"); // NULL when not built in
 *     lcp_solve(s, P, &opt, z, &info);                      // lcp.h, as for any solver
 */
#ifndef LCP_PEERS_H
#define LCP_PEERS_H

#include "lcp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The peers this library was built with: *count entries of a static const table (the
 * pointer is not NULL even when *count is 0). */
LCP_API const lcp_solver *lcp_peer_solvers(int *count);
LCP_API const lcp_solver *lcp_peer_find(const char *name); /* NULL when unknown */

#ifdef __cplusplus
}
#endif

#endif /* LCP_PEERS_H */
