/* test_amgs2.c: the whole-simulation loop of amgs-table2 and amgs-figures
 * (bench/grid/sim.c), as TAP: the fixed budget (tol < 0) runs exactly `iters' sweeps on
 * every step with rows, the physical state is filled (kinetic energy, contacts, penetration,
 * the stack's standing) and handed to the kit's comparability rule (bench_state_comparable,
 * whose thresholds test_report.c checks on constructed states).
 * Cost: two 20-step simulations of the 30-disk stack (under a second in release). */
#include "grid.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static void fixed_budget(const char *solver, double beta)
{
    bench_sim_out o;
    char msg[4400] = "";
    int rc = bench_sim_run("stack", 0, NULL, solver, beta, 20, 200, -1.0, NULL, &o, msg, sizeof msg);
    ok(rc == 0 && o.steps == 20 && o.steps_rows == 20, "%s/stack: 20 steps run", solver);
    ok(o.sweeps == 200L * 20, "%s/stack: a fixed 200 sweeps on every step (%ld in 20 steps)",
       solver, o.sweeps);
    ok(isfinite(o.ke_end) && o.ke_end >= 0 && o.contacts_end == 30 &&
       fabs(o.contacts_mean - 30) < 1e-12 && o.pen_max >= 0 && o.pen_max < 0.01 &&
       o.stands == 1, "%s/stack: state filled (KE %.2e J, %d contacts, pen %.2e m, stands %d)",
       solver, o.ke_end, o.contacts_end, o.pen_max, o.stands);
    ok(o.t_solve > 0 && isfinite(o.last_res), "timed and residual recorded");
    bench_sim_out e;
    rc = bench_sim_run("stack", 0, NULL, solver, beta, 20, 200, 1e-3, NULL, &e, msg, sizeof msg);
    ok(rc == 0 && e.sweeps < o.sweeps,
       "%s/stack: an early stop at 1e-3 does less work (%ld < %ld sweeps)", solver, e.sweeps,
       o.sweeps);
}

/* the state the kit's comparability rule reads (its thresholds: test_report.c) */
static void state(void)
{
    bench_sim_out a, b;
    char msg[4400] = "", why[160];
    int rc = bench_sim_run("stack", 0, NULL, "pgs", 0, 20, 200, -1.0, NULL, &a, msg, sizeof msg) |
             bench_sim_run("stack", 0, NULL, "amgs-D", 0.5, 20, 200, -1.0, NULL, &b, msg, sizeof msg);
    /* stack: 30 disks of 1 kg and r = 0.18 m under 9.81 m/s^2 */
    ok(rc == 0 && a.state.ke == a.ke_end && a.state.contacts == a.contacts_mean &&
           a.state.stands == a.stands && fabs(a.state.r - 0.18) < 1e-12 &&
           a.state.escale > 0 && a.state.height > 0,
       "state: filled from the run (KE %.2e J, E %.3g J, height %.3f m, r %.2f m)",
       a.state.ke, a.state.escale, a.state.height, a.state.r);
    ok(fabs(a.state.escale / (30 * 9.81 * 0.18) - 1) < 1e-3,   /* g 9.81 or 9.80665 */
       "state: E = sum m |g| r (%.3g J)", a.state.escale);
    ok(bench_state_comparable(&b.state, &a.state, why, sizeof why) == 1,
       "state: amgs-D's standing stack is PGS's state (%s)", why[0] ? why : "comparable");
    b.state.stands = 0;
    ok(bench_state_comparable(&b.state, &a.state, why, sizeof why) == 0 && strstr(why, "fell"),
       "state: a stack that fell is not");
}

int main(void)
{
    fixed_budget("pgs", 0);
    fixed_budget("amgs-D", 0.5);
    state();
    return tap_done();
}
