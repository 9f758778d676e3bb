/* registry.c: the harness's one list of solvers: liblcp's registry, then liblcp-peers's
 * (lcp_peers.h), in that order, as one table.  Every subcommand finds solvers here, so a
 * peer runs wherever liblcp's own solvers run; liblcp itself knows nothing of the peers.
 * The peers' answers are judged here too: the suite's verdict from its own residual
 * (bench_residual_status), whatever the peer says of itself. */
#include "kit.h"
#include "lcp_peers.h"

#include <pthread.h>
#include <string.h>

enum { BENCH_MAX_SOLVERS = 128 };
static lcp_solver all[BENCH_MAX_SOLVERS];
static int nall;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void join(void)
{
    int nc, np;
    const lcp_solver *c = lcp_solvers(&nc), *p = lcp_peer_solvers(&np);
    for (int k = 0; k < nc && nall < BENCH_MAX_SOLVERS; k++) all[nall++] = c[k];
    for (int k = 0; k < np && nall < BENCH_MAX_SOLVERS; k++) all[nall++] = p[k];
}

const lcp_solver *bench_solvers(int *count)
{
    pthread_once(&once, join);
    if (count) *count = nall;
    return all;
}

const lcp_solver *bench_solver_find(const char *name)
{
    int n;
    const lcp_solver *s = bench_solvers(&n);
    if (!name) return NULL;
    for (int k = 0; k < n; k++)
        if (strcmp(s[k].name, name) == 0) return &s[k];
    return NULL;
}

const char *bench_solver_library(const char *name)
{
    if (!strncmp(name, "siconos-", 8)) return "siconos";
    if (!strncmp(name, "ode-", 4)) return "ode";
    if (!strncmp(name, "bullet-", 7)) return "bullet";
    return "ours";
}

const char *bench_residual_status(double r2, double tol)
{
    return r2 <= tol ? "converged" : "not-converged"; /* NaN compares false */
}

int bench_judged(const char *name, int external)
{
    return external || strcmp(bench_solver_library(name), "ours") != 0;
}
