/* profile.c: the step functions of performance and data profiles (Dolan and More 2002, More
 * and Wild 2009) as figures of the report kit: the log2 ratios of each cost to the best of
 * its instance, and the figure of the fractions at or below each breakpoint.  `lcpbench
 * profile' (cmd/profile.c) and the peers table draw theirs with it.
 * Cost: O(n_p n_s log(n_p n_s)). */
#include "kit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the step functions F_s(x) = #{p: v[p,s] <= x}/np at their breakpoints (every finite
 * value, and the largest plus pad) as a figure of DIR (kit.h, figures) */
int bench_profile_figure(const char *cmd, const char *dir, const char *base, int np, int ns,
                         const char *const *label, const double *v, double pad,
                         const char *title, const char *xlabel, bench_style style,
                         int *missing)
{
    int n = np * ns, m = 0, rc = 0;
    double *xs = lcp_malloc((size_t)(n + 2), sizeof(double));
    double *y = lcp_malloc(((size_t)(n + 2) * (size_t)ns + 1), sizeof(double));
    bench_series *S = lcp_calloc((size_t)ns + 1, sizeof *S);
    if (!xs || !y || !S) {
        bench_error(cmd, "out of memory");
        rc = 1;
        goto done;
    }
    for (int k = 0; k < n; k++)
        if (isfinite(v[k])) xs[m++] = v[k];
    qsort(xs, (size_t)m, sizeof(double), cmp_double);
    double top = m ? xs[m - 1] : 0.0;
    xs[m++] = top + pad;
    int u = 0;
    for (int k = 0; k < m; k++)
        if (u == 0 || xs[k] != xs[u - 1]) xs[u++] = xs[k];
    for (int s = 0; s < ns; s++) {
        double *ys = y + (size_t)s * (size_t)u;
        for (int k = 0; k < u; k++) {
            int c = 0;
            for (int p = 0; p < np; p++) c += v[p * ns + s] <= xs[k];
            ys[k] = (double)c / np;
        }
        S[s] = (bench_series){label[s], u, xs, ys, 0};
    }
    bench_fig F;
    bench_fig_init(&F);
    F.base = base;
    F.title = title;
    F.xlabel = xlabel;
    F.ylabel = "fraction of instances";
    F.kind = BENCH_FIG_STEPS;
    F.extra = "set yrange [0:1.05]\n";
    F.ns = ns;
    F.s = S;
    int g = bench_fig_write(cmd, dir, &F, style);
    if (g == 1) *missing = 1;
    rc = g < 0;
done:
    lcp_free(xs);
    lcp_free(y);
    lcp_free(S);
    return rc;
}

void bench_profile_ratios(int np, int ns, double *v, double floor_cost)
{
    for (int p = 0; p < np; p++) {
        double best = INFINITY;
        for (int s = 0; s < ns; s++) {
            double t = v[p * ns + s];
            t = isfinite(t) ? fmax(t, floor_cost) : INFINITY;
            v[p * ns + s] = t;
            if (t < best) best = t;
        }
        for (int s = 0; s < ns; s++)
            v[p * ns + s] = isfinite(best) ? log2(v[p * ns + s] / best) : INFINITY;
    }
}
