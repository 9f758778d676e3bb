/* test_amgs2.c: the whole-simulation loop of amgs-table2 and amgs-figures
 * (bench/grid/sim.c), as TAP: the fixed budget (tol < 0) runs exactly `iters' sweeps on
 * every step with rows, the physical state is filled (kinetic energy, contacts, penetration,
 * the stack's standing), and the rule that marks a row not comparable with the reference's
 * state, on constructed states on both sides of each threshold.
 * Cost: two 20-step simulations of the 30-disk stack (under a second in release). */
#include "grid.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static void fixed_budget(const char *solver, double beta)
{
    bench_sim_out o;
    char msg[4400] = "";
    int rc = bench_sim_run("stack", solver, beta, 20, 200, -1.0, NULL, &o, msg, sizeof msg);
    ok(rc == 0 && o.steps == 20 && o.steps_rows == 20, "%s/stack: 20 steps run", solver);
    ok(o.sweeps == 200L * 20, "%s/stack: a fixed 200 sweeps on every step (%ld in 20 steps)",
       solver, o.sweeps);
    ok(isfinite(o.ke_end) && o.ke_end >= 0 && o.contacts_end == 30 &&
       fabs(o.contacts_mean - 30) < 1e-12 && o.pen_max >= 0 && o.pen_max < 0.01 &&
       o.stands == 1, "%s/stack: state filled (KE %.2e J, %d contacts, pen %.2e m, stands %d)",
       solver, o.ke_end, o.contacts_end, o.pen_max, o.stands);
    ok(o.t_solve > 0 && isfinite(o.last_res), "timed and residual recorded");
    bench_sim_out e;
    rc = bench_sim_run("stack", solver, beta, 20, 200, 1e-3, NULL, &e, msg, sizeof msg);
    ok(rc == 0 && e.sweeps < o.sweeps,
       "%s/stack: an early stop at 1e-3 does less work (%ld < %ld sweeps)", solver, e.sweeps,
       o.sweeps);
}

static void comparable(void)
{
    bench_sim_out ref = {.ke_end = 1.0, .contacts_mean = 100, .stands = -1}, x = ref;
    char why[128];
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 1 && !why[0],
       "comparable: the same state");
    x.ke_end = 9.9;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 1, "comparable: KE x 9.9");
    x.ke_end = 10.1 * BENCH_SIM_KE_FACTOR / 10;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "kinetic"),
       "not comparable: KE x 10.1, reason named");
    x.ke_end = 0.099;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 0, "not comparable: KE / 10.1");
    x.ke_end = 1e-9;
    ref.ke_end = 5e-5;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 1,
       "comparable: both at rest (below 1e-4 J)");
    ref.ke_end = x.ke_end = 1.0;
    x.contacts_mean = 111;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "contacts"),
       "not comparable: 11%% more contacts");
    x.contacts_mean = 109;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 1, "comparable: 9%% more contacts");
    x.stands = 0;
    ref.stands = 1;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 0 && strstr(why, "fell"),
       "not comparable: the stack fell where the reference's stands");
    x.ke_end = NAN;
    x.stands = 1;
    ok(bench_sim_comparable(&x, &ref, why, sizeof why) == 0,
       "not comparable: a diverged (NaN) kinetic energy");
}

int main(void)
{
    fixed_budget("pgs", 0);
    fixed_budget("amgs-D", 0.5);
    comparable();
    return tap_done();
}
