/* test_step_lean.c: a step assembles A only when something reads it (problems/README.md,
 * "The step"), and the steps without A are those with A, bit for bit, as TAP.
 *
 *   lean/SCENE-SOLVER-TOL/assembled    the matrix-free solve's steps assemble no A (the
 *                                      world that always assembles, W->assemble = 1, the
 *                                      stepper before, does)
 *   lean/SCENE-SOLVER-TOL/trajectory   positions, orientations, velocities and contact
 *                                      impulses after every step, and each step's sweeps,
 *                                      contacts and kinetic energy, bit-identical to the
 *                                      world that assembles A
 *   lean/SCENE-SOLVER-TOL/residual     the step's residual, from the factors instead of A:
 *                                      within 1e-9 of max(residual, 1e-6) (the same w to
 *                                      rounding; a residual near 1e-9 is itself rounding)
 *   lean/assembled-solver              a solver that reads A (lemke-ref) still gets it
 *   lean/capture                       a hook (capture) is given A, and the capture's steps
 *                                      are those of the plain run bit for bit
 * The spheres pile of 300 spheres, 30 steps: the tolerances 1e-8 (the stepper's default:
 * most steps stop at the sweep cap) and 1e-4 (most steps stop at the tolerance, where a
 * residual's rounding could move a stop).
 */
#include "makeworld.h"
#include "prob.h"
#include "tap.h"

#include <math.h>
#include <string.h>

enum { STEPS = 30 };

static int spheres(prob_world *W, const char *solver, double tol, int assemble)
{
    static const char *const kv[] = {"n=300", NULL};
    if (make(W, "spheres", kv) != 0) return -1;
    if (prob_world_set_solver(W, solver, 100, tol) != LCP_OK) return -1;
    W->assemble = assemble;
    return 0;
}

/* 1 when the two worlds' states are the same bytes */
static int same_state(const prob_world *A, const prob_world *B)
{
    size_t nb = (size_t)A->nb;
    if (A->nb != B->nb || A->nc != B->nc) return 0;
    if (memcmp(A->pos, B->pos, 3 * nb * sizeof(double)) ||
        memcmp(A->rot, B->rot, 4 * nb * sizeof(double)) ||
        memcmp(A->vel, B->vel, (size_t)A->ndof * nb * sizeof(double)))
        return 0;
    for (int k = 0; k < A->nc; k++)
        if (memcmp(A->c[k].z, B->c[k].z, sizeof A->c[k].z)) return 0;
    return 1;
}

static void lean_case(const char *solver, double tol)
{
    prob_world L, F;   /* lean (A when read), full (A every step) */
    if (spheres(&L, solver, tol, 0) || spheres(&F, solver, tol, 1)) {
        ok(0, "lean/spheres-%s-%g builds", solver, tol);
        return;
    }
    int lean_assembled = 0, full_assembled = 0, same = 1, rows = 0, steps_rows = 0;
    double rel = 0.0;
    for (int t = 0; t < STEPS && same; t++) {
        prob_step_info a, b;
        if (step(&L, NULL, NULL, &a) || step(&F, NULL, NULL, &b)) {
            same = 0;
            break;
        }
        lean_assembled += a.assembled;
        full_assembled += b.assembled;
        steps_rows += a.rows > 0;              /* a step without rows builds nothing */
        rows += a.rows;
        if (a.iterations != b.iterations || a.contacts != b.contacts ||
            memcmp(&a.kinetic_energy, &b.kinetic_energy, sizeof(double)) ||
            !same_state(&L, &F)) {
            tap_diag("step %d: sweeps %d against %d", t + 1, a.iterations, b.iterations);
            same = 0;
        }
        /* against the residual's scale: ||q||-sized terms cancel in w near a solution */
        rel = fmax(rel, fabs(a.residual - b.residual) / fmax(b.residual, 1e-6));
    }
    ok(lean_assembled == 0 && full_assembled == steps_rows && steps_rows > 0,
       "lean/spheres-%s-%g/assembled: A in %d of the %d steps with rows (always-assemble: "
       "%d)", solver, tol, lean_assembled, steps_rows, full_assembled);
    ok(same, "lean/spheres-%s-%g/trajectory: bit-identical to the steps with A", solver, tol);
    ok(rel <= 1e-9, "lean/spheres-%s-%g/residual: difference %.2e of max(residual, 1e-6) "
       "<= 1e-9", solver, tol, rel);
    prob_world_free(&L);
    prob_world_free(&F);
}

/* the hook sees A; counts the steps it was given */
static lcp_status hook(void *ctx, const prob_world *W, const lcp_problem *P, int step)
{
    (void)W;
    (void)step;
    int *seen = ctx;
    if (P->A.p && P->A.nrow == P->m && LCP_CSR_NNZ(&P->A) > 0) seen[0]++;
    seen[1]++;
    return LCP_OK;
}

int main(void)
{
    lean_case("pgs", 1e-8);
    lean_case("pgs", 1e-4);
    lean_case("pgs-color-contact", 1e-4);

    prob_world W;                                   /* a solver that reads A */
    if (spheres(&W, "lemke-ref", 1e-8, 0) == 0) {
        prob_step_info info;
        int okk = 1, got = 0;
        for (int t = 0; t < 3 && okk; t++) {
            okk = step(&W, NULL, NULL, &info) == 0;
            got += info.assembled || info.rows == 0;
        }
        ok(okk && got == 3, "lean/assembled-solver: lemke-ref's steps assemble A (%d of 3)",
           got);
        prob_world_free(&W);
    } else {
        ok(0, "lean/assembled-solver builds");
    }

    prob_world C, S;                                /* capture against the plain run */
    if (spheres(&C, "pgs", 1e-4, 0) == 0 && spheres(&S, "pgs", 1e-4, 0) == 0) {
        int seen[2] = {0, 0}, same = 1;
        for (int t = 0; t < 10 && same; t++) {
            prob_step_info a, b;
            same = step(&C, hook, seen, &a) == 0 && step(&S, NULL, NULL, &b) == 0 &&
                   a.iterations == b.iterations && same_state(&C, &S);
        }
        ok(same && seen[0] == seen[1] && seen[1] > 0,
           "lean/capture: the hook got A in %d of %d steps, steps bit-identical", seen[0],
           seen[1]);
        prob_world_free(&C);
        prob_world_free(&S);
    } else {
        ok(0, "lean/capture builds");
    }
    return tap_done();
}
