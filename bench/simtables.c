/* simtables.c: the experiments that step whole simulations (spec/experiments.md):
 *
 * amgs-table2 (Miyamoto et al. 2019, Table 2): scenes pool, pool-graded, stack (30 disks),
 *   friction on (boxed Method 3.2), warm start, `steps' steps (default 1000) with at most
 *   200 sweeps per step, stopping early at ||r||_2 <= 1e-6 (with a fixed 200 the two
 *   methods would differ only in cost per sweep); total solve time (the stepper's t_solve)
 *   per method: PGS and amgs-D with gamma = 1 and beta in {0.1, 0.25, 0.5, 0.75, 1.0}.
 *   Writes table2.md, table2.csv.
 * amgs-figures (Figures 3 to 8): Figures 3-5 = residual against sweep at step 100 for each
 *   scene and method (the Table 1 grid without timing: runs.csv, history/, plots/);
 *   Figures 6-8 = ||r||_2 after a budget of 10 sweeps per step against the step number from
 *   step 60 to 200, PGS and amgs-D for each beta, friction on.  Writes figures.md,
 *   steps-SCENE.csv (step, one column per method) and plots/steps-SCENE.{gp,png,pdf}.
 * Each method steps its own trajectory from the same initial state (the answers differ, so
 * the states do).  Cost: the simulations (amgs-table2 at 1000 steps: minutes).
 */
#include "harness.h"
#include "prob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "table";
static const double betas[] = {0.1, 0.25, 0.5, 0.75, 1.0};
enum { NB = 5, NMETH = NB + 1, NSC = 3 };
static const char *const scenes[NSC] = {"pool", "pool-graded", "stack"};
static const char *const paper_scene[NSC] = {"Pool 1", "Pool 2", "Stacking (30)"};

typedef struct sim_out {
    double t_solve;     /* seconds, sum over steps */
    long sweeps;        /* sum over steps */
    int steps;          /* done */
    double last_res;    /* ||r||_2 of the last step */
    double *res;        /* per step (steps entries) or NULL */
} sim_out;

/* step a scene; method 0 = pgs, k >= 1 = amgs-D beta = betas[k-1] */
static int simulate(const char *scene, int method, int steps, int iters, double tol,
                    double *res, sim_out *o, char *msg, size_t msglen)
{
    memset(o, 0, sizeof *o);
    prob_world W;
    if (bench_scene_world(scene, 0, NULL, &W, msg, msglen) != 0) return -1;
    if (prob_world_set_solver(&W, method ? "amgs-D" : "pgs", iters, tol) != LCP_OK) {
        if (!msg[0]) snprintf(msg, msglen, "%s: cannot set the solver", scene);
        prob_world_free(&W);
        return -1;
    }
    if (method) {
        W.opt.beta = betas[method - 1];
        W.opt.gamma = 1.0;
    }
    int rc = 0;
    for (int t = 1; t <= steps; t++) {
        prob_step_info info;
        if (prob_step(&W, NULL, NULL, &info, msg, msglen) != LCP_OK) {
            rc = -1;
            break;
        }
        o->t_solve += info.t_solve;
        o->sweeps += info.iterations;
        o->last_res = info.residual;
        if (res) res[t - 1] = info.rows > 0 ? info.residual : NAN;
        o->steps = t;
    }
    prob_world_free(&W);
    return rc;
}

static void method_name(int m, char *b, size_t n)
{
    if (m == 0) snprintf(b, n, "pgs");
    else snprintf(b, n, "amgs-D-b%g", betas[m - 1]);
}

/* ---- amgs-table2 ---------------------------------------------------------------------------- */

int bench_table_amgs2(const char *out, int force, int steps, int argc, char **argv)
{
    if (bench_out_dir(CMD, out, force)) return 1;
    static const double paper_pgs[NSC] = {2.639, 2.093, 0.095};
    static const double paper_lo[NSC] = {1.968, 1.849, 0.081};
    static const double paper_hi[NSC] = {2.083, 1.921, 0.099};
    sim_out so[NSC][NMETH];
    char msg[4400], path[BENCH_PATH + 64], name[32];
    bench_progress prog;
    bench_progress_start(&prog, "amgs-table2 simulations", NSC * NMETH);
    int rc = 0;
    for (int s = 0; s < NSC; s++)
        for (int m = 0; m < NMETH; m++) {
            msg[0] = 0;
            if (simulate(scenes[s], m, steps, 200, 1e-6, NULL, &so[s][m], msg, sizeof msg)) {
                bench_error(CMD, "%s: %s", scenes[s], msg);
                rc = 1;
            }
            bench_progress_step(&prog, 1);
        }
    bench_progress_end(&prog);
    bench_out o;
    snprintf(path, sizeof path, "%s/table2.csv", out);
    if (!bench_open(CMD, &o, path, force)) return 1;
    bench_provenance(o.f, argc, argv);
    fprintf(o.f, "scene,method,beta,steps,solve_time_s,sweeps,mean_sweeps_per_step,"
                 "last_residual\n");
    for (int s = 0; s < NSC; s++)
        for (int m = 0; m < NMETH; m++) {
            method_name(m, name, sizeof name);
            fprintf(o.f, "%s,%s,", scenes[s], name);
            if (m) fprintf(o.f, "%g", betas[m - 1]);
            fprintf(o.f, ",%d,%.6e,%ld,%.3f", so[s][m].steps, so[s][m].t_solve,
                    so[s][m].sweeps, so[s][m].steps ? (double)so[s][m].sweeps / so[s][m].steps
                                                    : 0.0);
            if (isfinite(so[s][m].last_res)) fprintf(o.f, ",%.6e\n", so[s][m].last_res);
            else fprintf(o.f, ",\n");
        }
    if (bench_close(CMD, &o)) return 1;
    FILE *f = bench_md_open(CMD, &o, out, "table2.md", force,
                            "amgs-table2: whole-simulation cost (AMGS paper, Table 2)", argc,
                            argv);
    if (!f) return 1;
    fprintf(f, "%d steps of each scene (pool, pool-graded: 221 disks; stack: 30 disks), "
               "friction on (boxed Method 3.2 for AMGS), warm start, at most 200 sweeps per "
               "step with an early stop at ||r||_2 <= 1e-6; total solve time = sum of the "
               "stepper's solve times.  AMGS = amgs-D, gamma = 1, gamma beta as listed.  "
               "Paper: Intel i7-5500U, 1000 steps.\n\n", steps);
    fprintf(f, "| scene | method | paper (s) | ours: solve time (s) | sweeps per step | "
               "last-step ||r||_2 |\n|---|---|---:|---:|---:|---:|\n");
    for (int s = 0; s < NSC; s++)
        for (int m = 0; m < NMETH; m++) {
            char paper[64] = "";
            if (m == 0) snprintf(paper, sizeof paper, "%.3f", paper_pgs[s]);
            else if (m == 1) snprintf(paper, sizeof paper, "%.3f to %.3f", paper_lo[s],
                                      paper_hi[s]);
            char title[64];
            if (m == 0) snprintf(title, sizeof title, "PGS");
            else snprintf(title, sizeof title, "AMGS gamma beta = %g", betas[m - 1]);
            fprintf(f, "| %s | %s | %s | %.3f | %.1f | %.1e |\n", m ? "" : paper_scene[s],
                    title, paper, so[s][m].t_solve,
                    so[s][m].steps ? (double)so[s][m].sweeps / so[s][m].steps : 0.0,
                    isfinite(so[s][m].last_res) ? so[s][m].last_res : 0.0);
        }
    fprintf(f, "\n## Claims of the paper, checked on our numbers\n\n");
    for (int s = 0; s < NSC; s++) {
        double lo = INFINITY, hi = 0;
        int best = 1;
        for (int m = 1; m < NMETH; m++) {
            lo = fmin(lo, so[s][m].t_solve);
            hi = fmax(hi, so[s][m].t_solve);
            if (so[s][m].t_solve < so[s][best].t_solve) best = m;
        }
        double pg = so[s][0].t_solve;
        if (s < 2)
            fprintf(f, "- %s: every AMGS setting is faster than PGS (paper: %.3f to %.3f vs "
                       "%.3f): **%s** (ours %.3f to %.3f vs %.3f)\n", paper_scene[s],
                    paper_lo[s], paper_hi[s], paper_pgs[s], hi < pg ? "held" : "did not hold",
                    lo, hi, pg);
        else
            fprintf(f, "- %s: AMGS is about as fast as PGS, within 20%% (paper: %.3f to %.3f "
                       "vs %.3f): **%s** (ours %.3f to %.3f vs %.3f)\n", paper_scene[s],
                    paper_lo[s], paper_hi[s], paper_pgs[s],
                    lo >= 0.8 * pg && hi <= 1.2 * pg ? "held" : "did not hold", lo, hi, pg);
        fprintf(f, "  (fastest AMGS: gamma beta = %g)\n", betas[best - 1]);
    }
    fprintf(f, "\nTiming noise: AMGS at gamma beta = 1 is PGS iterate for iterate (Omega_hat = "
               "D), so its time differs from PGS's only by noise and its cost per sweep:");
    for (int s = 0; s < NSC; s++)
        fprintf(f, " %s %+.0f%%%s", scenes[s],
                so[s][0].t_solve > 0 ? 100 * (so[s][NMETH - 1].t_solve / so[s][0].t_solve - 1)
                                     : 0.0,
                s + 1 < NSC ? ";" : ".\n");
    if (bench_close(CMD, &o)) return 1;
    fprintf(stderr, "lcpbench table: wrote %s/table2.md\n", out);
    return rc;
}

/* ---- amgs-figures ------------------------------------------------------------------------------ */

int bench_table_amgs_figures(const char *out, int force, int argc, char **argv)
{
    if (bench_out_dir(CMD, out, force)) return 1;
    enum { STEPS = 200, FROM = 60, BUDGET = 10 };
    char msg[8400], path[BENCH_PATH + 128], name[32];
    /* Figures 3-5: the Table 1 grid, recorded only */
    const char *text = "suite amgs-figures\n"
                       "scene pool step=100 mu=0 name=pool\n"
                       "scene pool-graded step=100 mu=0 name=pool-graded\n"
                       "scene stack step=100 n=150 mu=0 name=stack\n"
                       "set tol=1e-8 maxit=10000 reps=0 warm=1\n"
                       "solver pgs label=pgs\n"
                       "solver amgs-I gamma=1 label=amgs-3.1-I\n"
                       "solver amgs-D beta=0.5 gamma=1 label=amgs-3.1-D\n"
                       "solver amgs-D beta=0.25 gamma=1 label=amgs-3.1-D-b0.25\n"
                       "solver amgs-D beta=0.75 gamma=1 label=amgs-3.1-D-b0.75\n";
    int rc = bench_run_text(CMD, text, "amgs-figures", out, force, argc, argv);
    if (rc == 2) return rc;
    /* Figures 6-8 */
    snprintf(path, sizeof path, "%s/plots", out);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    double *res = malloc((size_t)NMETH * STEPS * sizeof(double));
    if (!res) {
        bench_error(CMD, "out of memory");
        return 1;
    }
    double mean[NSC][NMETH];
    bench_progress prog;
    bench_progress_start(&prog, "amgs-figures simulations", NSC * NMETH);
    for (int s = 0; s < NSC; s++) {
        for (int m = 0; m < NMETH; m++) {
            sim_out so;
            msg[0] = 0;
            for (int t = 0; t < STEPS; t++) res[m * STEPS + t] = NAN;
            if (simulate(scenes[s], m, STEPS, BUDGET, -1.0, res + m * STEPS, &so, msg,
                         sizeof msg)) {
                bench_error(CMD, "%s: %s", scenes[s], msg);
                rc = 1;
            }
            double sum = 0;
            int cnt = 0;
            for (int t = FROM - 1; t < STEPS; t++)
                if (isfinite(res[m * STEPS + t]) && res[m * STEPS + t] > 0) {
                    sum += log10(res[m * STEPS + t]);
                    cnt++;
                }
            mean[s][m] = cnt ? pow(10.0, sum / cnt) : NAN;
            bench_progress_step(&prog, 1);
        }
        bench_out o;
        snprintf(path, sizeof path, "%s/steps-%s.csv", out, scenes[s]);
        if (!bench_open(CMD, &o, path, force)) {
            rc = 1;
            continue;
        }
        bench_provenance(o.f, argc, argv);
        fprintf(o.f, "step");
        for (int m = 0; m < NMETH; m++) {
            method_name(m, name, sizeof name);
            fprintf(o.f, ",%s", name);
        }
        fprintf(o.f, "\n");
        for (int t = FROM - 1; t < STEPS; t++) {
            fprintf(o.f, "%d", t + 1);
            for (int m = 0; m < NMETH; m++) {
                double v = res[m * STEPS + t];
                if (isfinite(v)) fprintf(o.f, ",%.6e", v);
                else fprintf(o.f, ",");
            }
            fprintf(o.f, "\n");
        }
        if (bench_close(CMD, &o)) rc = 1;
        snprintf(path, sizeof path, "%s/plots/steps-%s.gp", out, scenes[s]);
        if (bench_out_open(&o, path, 1, msg, sizeof msg) != 0) continue;
        bench_provenance(o.f, 0, NULL);
        fprintf(o.f, "set datafile separator ','\nset logscale y\nset format y '%%.0e'\n"
                     "set grid\nset xlabel 'step'\nset ylabel '||r||_2 after %d sweeps'\n"
                     "set title '%s: residual after the per-step budget (friction on)'\n"
                     "set key outside right top\n", BUDGET, scenes[s]);
        char base[64];
        snprintf(base, sizeof base, "steps-%s", scenes[s]);
        bench_gp_png(o.f, base);
        fprintf(o.f, "plot \\\n");
        for (int m = 0; m < NMETH; m++) {
            method_name(m, name, sizeof name);
            fprintf(o.f, "  '../steps-%s.csv' using 1:($%d > 0 ? $%d : 1/0) with lines lw 2 "
                         "title '%s'%s\n", scenes[s], m + 2, m + 2, name,
                    m + 1 < NMETH ? ", \\" : "");
        }
        bench_gp_pdf(o.f, base);
        if (bench_out_commit(&o, 1, msg, sizeof msg) == 0) {
            char gp[128];
            snprintf(gp, sizeof gp, "%s.gp", base);
            snprintf(path, sizeof path, "%s/plots", out);
            bench_gnuplot(CMD, path, gp);
        }
    }
    bench_progress_end(&prog);
    free(res);
    bench_out o;
    FILE *f = bench_md_open(CMD, &o, out, "figures.md", force,
                            "amgs-figures: convergence curves (AMGS paper, Figures 3 to 8)",
                            argc, argv);
    if (!f) return 1;
    fprintf(f, "## Figures 3-5: residual against sweep at step 100\n\n"
               "Instances of amgs-table1 (mu = 0, warm start), tol 1e-8, at most 10000 sweeps: "
               "`plots/pool-iter.png`, `plots/pool-graded-iter.png`, `plots/stack-iter.png` "
               "(and `-time`), data in `runs.csv` and `history/`.\n\n");
    fprintf(f, "## Figures 6-8: residual after %d sweeps per step, steps %d to %d\n\n"
               "Friction on, warm start, every method its own trajectory: "
               "`plots/steps-SCENE.png`, data `steps-SCENE.csv`.  Geometric mean of ||r||_2 over "
               "the steps:\n\n| scene |", BUDGET, FROM, STEPS);
    for (int m = 0; m < NMETH; m++) {
        method_name(m, name, sizeof name);
        fprintf(f, " %s |", name);
    }
    fprintf(f, "\n|---|");
    for (int m = 0; m < NMETH; m++) fprintf(f, "---:|");
    fprintf(f, "\n");
    for (int s = 0; s < NSC; s++) {
        fprintf(f, "| %s |", scenes[s]);
        for (int m = 0; m < NMETH; m++) {
            if (isfinite(mean[s][m])) fprintf(f, " %.2e |", mean[s][m]);
            else fprintf(f, " - |");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n## Claim checked\n\n");
    for (int s = 0; s < NSC; s++) {
        int better = 0;
        for (int m = 1; m < NMETH; m++) better += mean[s][m] < mean[s][0];
        fprintf(f, "- %s: some beta gives a lower per-step residual than PGS at the same "
                   "budget: **%s** (%d of %d settings lower)\n", scenes[s],
                better ? "held" : "did not hold", better, NB);
    }
    if (bench_close(CMD, &o)) return 1;
    fprintf(stderr, "lcpbench table: wrote %s/figures.md\n", out);
    return rc;
}
