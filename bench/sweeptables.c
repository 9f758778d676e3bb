/* sweeptables.c: the experiments about plain Gauss-Seidel sweeps (spec/experiments.md):
 *
 * ode-sor (ODE quickstep): PSOR with omega = 0.8, 0.9, ..., 1.9 (ODE's default 1.3), natural
 *   against reshuffled-every-8-sweeps ordering (random8, seed 1), on pool (step 100),
 *   stack (30 disks, step 100) and spheres (200, step 100), friction on, cold start (the
 *   stepper's warm start is already solved to 1e-8); sweeps to ||r||_2 < 1e-6 (cap 2000),
 *   or when not reached the residual at the cap, and the final distance to the reference
 *   ldlt-ref.  A grid of run.c;
 *   writes ode-sor.md, ode-sor.csv, plots/ode-sor-SCENE.{gp,png,pdf} (sweeps against omega).
 * spook-pgs (Lacoursiere's notes): scene spheres (200, step 100): after k = 1..100 PGS sweeps,
 *   warm (z0) and cold, the relative error of z and of w against a reference
 *   (lcp_ref_distance: ||z - zref||_inf / max(1, ||zref||_inf), same in w) and ||r||_2.
 *   Reference: ldlt-ref, or when it does not finish, PGS run to ||r||_2 <= 1e-12 (at most
 *   200000 sweeps), named in the output.  Scaling: time per sweep (median of 3 timing runs of
 *   20 sweeps) against the number of spheres, 100 to 10^5 (captured at step 20 with a
 *   10-sweep stepper).  Writes spook-pgs.md, spook-pgs-error.csv, spook-pgs-scaling.csv and
 *   plots/spook-pgs-{error,scaling}.{gp,png,pdf}.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "table";

/* ---- ode-sor ----------------------------------------------------------------------------------- */

enum { NOM = 12, NSC = 3 };

int bench_table_ode_sor(const char *out, int force, int argc, char **argv)
{
    if (bench_out_dir(CMD, out, force)) return 1;
    static const char *const sc[NSC] = {"pool", "stack", "spheres"};
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "suite ode-sor\n"
                                "scene pool step=100 name=pool ref=ldlt-ref\n"
                                "scene stack step=100 n=30 name=stack ref=ldlt-ref\n"
                                "scene spheres step=100 name=spheres ref=ldlt-ref\n"
                                "set tol=1e-6 maxit=2000 reps=1 warm=0 seed=1\n");
    for (int o = 0; o < 2; o++)
        for (int k = 0; k < NOM; k++) {
            double w = 0.8 + 0.1 * k;
            n += (size_t)snprintf(text + n, sizeof text - n,
                                  "solver pgs omega=%.1f order=%s label=%s-%.1f plot=%d\n", w,
                                  o ? "random8" : "natural", o ? "random8" : "natural", w,
                                  k == 2 || k == 5 || k == 9);
        }
    char msg[8400], path[BENCH_PATH + 128];
    int rc = bench_run_text(CMD, text, "ode-sor", out, force, argc, argv);
    if (rc == 2) return rc;
    bench_csv T;
    if (bench_read_runs(CMD, out, &T)) return 1;
    int ci = bench_csv_col(&T, "instance"), cl = bench_csv_col(&T, "label");
    int ct = bench_csv_col(&T, "iter_to_tol"), cz = bench_csv_col(&T, "zdiff");
    int cw = bench_csv_col(&T, "wdiff"), cr = bench_csv_col(&T, "residual");
    double it[NSC][2][NOM], zd[NSC][2][NOM], wd[NSC][2][NOM], rs[NSC][2][NOM];
    for (int s = 0; s < NSC; s++)
        for (int o = 0; o < 2; o++)
            for (int k = 0; k < NOM; k++) {
                char lab[32];
                snprintf(lab, sizeof lab, "%s-%.1f", o ? "random8" : "natural", 0.8 + 0.1 * k);
                it[s][o][k] = zd[s][o][k] = wd[s][o][k] = rs[s][o][k] = NAN;
                for (int r = 0; r < T.nrow; r++)
                    if (!strcmp(bench_csv_get(&T, r, ci), sc[s]) &&
                        !strcmp(bench_csv_get(&T, r, cl), lab)) {
                        it[s][o][k] = bench_csv_num(&T, r, ct);
                        zd[s][o][k] = bench_csv_num(&T, r, cz);
                        wd[s][o][k] = bench_csv_num(&T, r, cw);
                        rs[s][o][k] = bench_csv_num(&T, r, cr);
                    }
            }
    bench_csv_free(&T);
    bench_out f;
    snprintf(path, sizeof path, "%s/ode-sor.csv", out);
    if (!bench_open(CMD, &f, path, force)) return 1;
    bench_provenance(f.f, argc, argv);
    fprintf(f.f, "scene,omega,natural_iterations,random8_iterations,natural_zdiff,"
                 "random8_zdiff,natural_wdiff,random8_wdiff,natural_residual,"
                 "random8_residual\n");
    for (int s = 0; s < NSC; s++)
        for (int k = 0; k < NOM; k++) {
            fprintf(f.f, "%s,%.1f", sc[s], 0.8 + 0.1 * k);
            double v[8] = {it[s][0][k], it[s][1][k], zd[s][0][k], zd[s][1][k],
                           wd[s][0][k], wd[s][1][k], rs[s][0][k], rs[s][1][k]};
            for (int j = 0; j < 8; j++) {
                if (!isfinite(v[j])) fprintf(f.f, ",");
                else if (j < 2) fprintf(f.f, ",%.0f", v[j]);
                else fprintf(f.f, ",%.6e", v[j]);
            }
            fprintf(f.f, "\n");
        }
    if (bench_close(CMD, &f)) return 1;
    for (int s = 0; s < NSC; s++) {
        snprintf(path, sizeof path, "%s/plots/ode-sor-%s.gp", out, sc[s]);
        if (bench_out_open(&f, path, 1, msg, sizeof msg) != 0) continue;
        char base[64];
        snprintf(base, sizeof base, "ode-sor-%s", sc[s]);
        bench_provenance(f.f, 0, NULL);
        int any = 0;
        for (int k = 0; k < NOM; k++) any |= isfinite(it[s][0][k]) || isfinite(it[s][1][k]);
        fprintf(f.f, "set datafile separator ','\nset grid\nset xlabel 'omega'\n"
                     "set title '%s: relaxation and ordering'\nset key top left\n", sc[s]);
        if (any) fprintf(f.f, "set ylabel 'PSOR sweeps to ||r||_2 < 1e-6 (cap 2000)'\n");
        else fprintf(f.f, "set logscale y\nset format y '%%.0e'\n"
                          "set ylabel '||r||_2 after 2000 sweeps (1e-6 not reached)'\n");
        bench_gp_png(f.f, base);
        fprintf(f.f, "plot '../ode-sor.csv' using (strcol(1) eq '%s' ? $2 : 1/0):%d with "
                     "linespoints lw 2 title 'natural', \\\n  '../ode-sor.csv' using "
                     "(strcol(1) eq '%s' ? $2 : 1/0):%d with linespoints lw 2 title 'random8 "
                     "(reshuffled every 8)'\n", sc[s], any ? 3 : 9, sc[s], any ? 4 : 10);
        bench_gp_pdf(f.f, base);
        if (bench_out_commit(&f, 1, msg, sizeof msg) == 0) {
            char dir[BENCH_PATH + 16], gp[80];
            snprintf(dir, sizeof dir, "%s/plots", out);
            snprintf(gp, sizeof gp, "%s.gp", base);
            bench_gnuplot(CMD, dir, gp);
        }
    }
    FILE *m = bench_md_open(CMD, &f, out, "ode-sor.md", force,
                            "ode-sor: relaxation and shuffling (ODE quickstep)", argc, argv);
    if (!m) return 1;
    fprintf(m, "PSOR (`pgs --omega`) sweeps to ||r||_2 < 1e-6 (cap 2000; when not "
               "reached, `r=` the residual at the cap), cold start, friction on; natural order "
               "against random8 (ODE's "
               "reshuffle every 8 sweeps, seed 1); zdiff = final distance to ldlt-ref.  "
               "Instances: pool and stack (30 disks) and spheres (200) at step 100.\n\n");
    fprintf(m, "| omega | pool natural | pool random8 | pool zdiff | stack natural | "
               "stack random8 | stack zdiff | spheres natural | spheres random8 |\n"
               "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < NOM; k++) {
        fprintf(m, "| %.1f%s |", 0.8 + 0.1 * k, k == 5 ? " (ODE)" : "");
        for (int s = 0; s < NSC; s++) {
            for (int o = 0; o < 2; o++) {
                if (isfinite(it[s][o][k])) fprintf(m, " %.0f |", it[s][o][k]);
                else if (isfinite(rs[s][o][k])) fprintf(m, " r=%.1e |", rs[s][o][k]);
                else fprintf(m, " - |");
            }
            if (s < 2) {
                if (isfinite(zd[s][0][k])) fprintf(m, " %.1e |", zd[s][0][k]);
                else fprintf(m, " - |");
            }
        }
        fprintf(m, "\n");
    }
    fprintf(m, "\n## Checked on our numbers\n\n");
    for (int s = 0; s < NSC; s++) {
        for (int o = 0; o < 2; o++) {
            int best = -1;
            for (int k = 0; k < NOM; k++)
                if (isfinite(it[s][o][k]) && (best < 0 || it[s][o][k] < it[s][o][best]))
                    best = k;
            double a = it[s][o][5], b = it[s][o][2];   /* omega 1.3, 1.0 */
            const char *v;
            if (!isfinite(a) && !isfinite(b))          /* compare the residuals at the cap */
                v = !(rs[s][o][5] < rs[s][o][2]) ? "did not hold (residual at the cap)"
                                                 : "held (residual at the cap)";
            else v = !isfinite(b) || (isfinite(a) && a < b) ? "held" : "did not hold";
            fprintf(m, "- %s, %s: ODE's omega = 1.3 converges faster than omega = 1: **%s**",
                    sc[s], o ? "random8" : "natural", v);
            if (best >= 0) fprintf(m, "; best omega %.1f (%.0f sweeps)", 0.8 + 0.1 * best,
                                   it[s][o][best]);
            fprintf(m, "\n");
        }
        int better = 0, cmp = 0;
        for (int k = 0; k < NOM; k++)
            if (isfinite(it[s][0][k]) && isfinite(it[s][1][k])) {
                cmp++;
                better += it[s][1][k] < it[s][0][k];
            }
        fprintf(m, "- %s: reshuffling every 8 sweeps is faster than the natural order at %d of "
                   "%d omegas where both converged\n", sc[s], better, cmp);
    }
    fprintf(m, "\nFigures: `plots/ode-sor-SCENE.png` (sweeps against omega), "
               "`plots/SCENE-iter.png` (residual curves at omega 1.0, 1.3, 1.7).\n");
    if (bench_close(CMD, &f)) return 1;
    fprintf(stderr, "lcpbench table: wrote %s/ode-sor.md\n", out);
    return rc;
}

/* "%.1e" or "-" for a missing value: NaN is never printed */
static const char *md_num(char *b, size_t n, double v)
{
    if (isfinite(v)) snprintf(b, n, "%.1e", v);
    else snprintf(b, n, "-");
    return b;
}

/* ---- spook-pgs ---------------------------------------------------------------------------------- */

enum { KMAX = 100, NSIZE = 4 };

typedef struct err_rec {
    const lcp_problem *P;
    double *zd, *wd, *r2, *w;
} err_rec;

static void err_monitor(void *ctx, int it, const double *z)
{
    err_rec *e = ctx;
    if (it > KMAX) return;
    lcp_residuals R;
    lcp_residual(e->P, z, e->w, &R);
    e->r2[it] = R.r2;
    lcp_ref_distance(e->P, z, &e->zd[it], &e->wd[it]);
}

int bench_table_spook_pgs(const char *out, int force, int argc, char **argv)
{
    if (bench_out_dir(CMD, out, force)) return 1;
    char dir[BENCH_PATH + 64], msg[8400], path[BENCH_PATH + 128];
    snprintf(dir, sizeof dir, "%s/instances/spheres", out);
    lcp_problem P;
    lcp_problem_init(&P);
    if (bench_scene_problem(CMD, "spheres", 0, NULL, 100, dir, &P)) {
        lcp_problem_free(&P);
        return 1;
    }
    size_t m = (size_t)(P.m > 0 ? P.m : 1);
    double *zr = calloc(m, sizeof(double)), *w = malloc(m * sizeof(double));
    double *z = malloc(m * sizeof(double));
    double res[2][4][KMAX + 1];
    int rc = 0;
    const char *refname = "ldlt-ref";
    if (!zr || !w || !z) {
        bench_error(CMD, "out of memory");
        rc = 1;
        goto done;
    }
    lcp_options o;
    lcp_info info;
    lcp_options_default(&o);
    o.max_pivots = 20000;
    lcp_status st = lcp_solve(lcp_solver_find("ldlt-ref"), &P, &o, zr, &info);
    if (st != LCP_OK && st != LCP_NONUNIQUE) {
        lcp_options_default(&o);
        o.tol = 1e-12;
        o.max_iter = 200000;
        memset(zr, 0, m * sizeof(double));
        st = lcp_solve(lcp_solver_find("pgs"), &P, &o, zr, &info);
        refname = "pgs to 1e-12 (ldlt-ref did not finish)";
        if (st < 0) {
            bench_error(CMD, "spheres: no reference (%s)", lcp_status_str(st));
            rc = 1;
            goto done;
        }
        if (st != LCP_OK) refname = "pgs, 200000 sweeps (ldlt-ref did not finish)";
    }
    P.zref = zr;
    zr = NULL;
    for (int warm = 0; warm < 2; warm++) {
        for (int k = 0; k <= KMAX; k++)
            for (int j = 0; j < 3; j++) res[warm][j][k] = NAN;
        err_rec e = {&P, res[warm][0], res[warm][1], res[warm][2], w};
        lcp_options_default(&o);
        o.tol = -1;
        o.max_iter = KMAX;
        o.warm = warm;
        o.monitor = err_monitor;
        o.monitor_ctx = &e;
        if (warm && P.z0) memcpy(z, P.z0, m * sizeof(double));
        else memset(z, 0, m * sizeof(double));
        lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
    }
    bench_out f;
    snprintf(path, sizeof path, "%s/spook-pgs-error.csv", out);
    if (bench_out_open(&f, path, force, msg, sizeof msg) == 0) {
        bench_provenance(f.f, argc, argv);
        fprintf(f.f, "# spheres step 100, %d rows; reference: %s\n", P.m, refname);
        fprintf(f.f, "sweep,cold_zerr,cold_werr,cold_residual,warm_zerr,warm_werr,"
                     "warm_residual\n");
        for (int k = 0; k <= KMAX; k++) {
            fprintf(f.f, "%d", k);
            for (int wm = 0; wm < 2; wm++)
                for (int j = 0; j < 3; j++) {
                    if (isfinite(res[wm][j][k])) fprintf(f.f, ",%.6e", res[wm][j][k]);
                    else fprintf(f.f, ",");
                }
            fprintf(f.f, "\n");
        }
        rc |= bench_out_commit(&f, 1, msg, sizeof msg) != 0;
    } else rc = 1;
    /* scaling */
    static const int sizes[NSIZE] = {100, 1000, 10000, 100000};
    double tps[NSIZE], rows[NSIZE];
    bench_progress prog;
    bench_progress_start(&prog, "spook-pgs scaling", NSIZE);
    for (int s = 0; s < NSIZE; s++) {
        tps[s] = rows[s] = NAN;
        char kv[2][32], sd[BENCH_PATH + 64];
        snprintf(kv[0], sizeof kv[0], "n=%d", sizes[s]);
        snprintf(kv[1], sizeof kv[1], "iters=10");
        const char *kvp[2] = {kv[0], kv[1]};
        snprintf(sd, sizeof sd, "%s/instances/spheres-%d", out, sizes[s]);
        lcp_problem Q;
        lcp_problem_init(&Q);
        if (bench_scene_problem(CMD, "spheres", 2, kvp, 20, sd, &Q)) {
            rc = 1;
            lcp_problem_free(&Q);
            continue;
        }
        double *zq = malloc((size_t)(Q.m > 0 ? Q.m : 1) * sizeof(double));
        bench_result r;
        lcp_options_default(&o);
        o.tol = -1;
        o.max_iter = 20;
        if (zq && bench_run_solver(&Q, lcp_solver_find("pgs"), &o, NULL, 3, zq, &r, NULL) >= 0) {
            tps[s] = r.t_median / 20;
            rows[s] = Q.m;
        }
        free(zq);
        lcp_problem_free(&Q);
        bench_progress_step(&prog, 1);
    }
    bench_progress_end(&prog);
    snprintf(path, sizeof path, "%s/spook-pgs-scaling.csv", out);
    if (bench_out_open(&f, path, force, msg, sizeof msg) == 0) {
        bench_provenance(f.f, argc, argv);
        fprintf(f.f, "spheres,rows,time_per_sweep_s,time_per_row_s\n");
        for (int s = 0; s < NSIZE; s++)
            if (isfinite(tps[s]))
                fprintf(f.f, "%d,%.0f,%.6e,%.6e\n", sizes[s], rows[s], tps[s],
                        tps[s] / rows[s]);
        rc |= bench_out_commit(&f, 1, msg, sizeof msg) != 0;
    } else rc = 1;
    /* figures */
    snprintf(path, sizeof path, "%s/plots", out);
    if (bench_mkdir_p(path, msg, sizeof msg) == 0) {
        char gp[BENCH_PATH + 160];
        snprintf(gp, sizeof gp, "%s/plots/spook-pgs-error.gp", out);
        if (bench_out_open(&f, gp, 1, msg, sizeof msg) == 0) {
            bench_provenance(f.f, 0, NULL);
            fprintf(f.f, "set datafile separator ','\nset logscale y\nset format y '%%.0e'\n"
                         "set grid\nset xlabel 'PGS sweeps k'\nset ylabel 'relative error'\n"
                         "set title 'spheres: error against the reference (%s)'\n"
                         "set key outside right top\n", refname);
            bench_gp_png(f.f, "spook-pgs-error");
            fprintf(f.f, "plot '../spook-pgs-error.csv' using 1:($2>0?$2:1/0) w l lw 2 t 'z, "
                         "cold', '' using 1:($3>0?$3:1/0) w l lw 2 t 'w, cold', '' using "
                         "1:($5>0?$5:1/0) w l lw 2 t 'z, warm', '' using 1:($6>0?$6:1/0) w l "
                         "lw 2 t 'w, warm', '' using 1:($4>0?$4:1/0) w l dt 2 t '||r||_2 cold', "
                         "'' using 1:($7>0?$7:1/0) w l dt 2 t '||r||_2 warm'\n");
            bench_gp_pdf(f.f, "spook-pgs-error");
            if (bench_out_commit(&f, 1, msg, sizeof msg) == 0)
                bench_gnuplot(CMD, path, "spook-pgs-error.gp");
        }
        snprintf(gp, sizeof gp, "%s/plots/spook-pgs-scaling.gp", out);
        if (bench_out_open(&f, gp, 1, msg, sizeof msg) == 0) {
            bench_provenance(f.f, 0, NULL);
            fprintf(f.f, "set datafile separator ','\nset logscale xy\nset grid\n"
                         "set xlabel 'rows'\nset ylabel 'time per PGS sweep (s)'\n"
                         "set title 'spheres: cost of a sweep against size'\nset key top left\n");
            bench_gp_png(f.f, "spook-pgs-scaling");
            fprintf(f.f, "plot '../spook-pgs-scaling.csv' using 2:3 w lp lw 2 pt 7 t 'PGS "
                         "sweep'\n");
            bench_gp_pdf(f.f, "spook-pgs-scaling");
            if (bench_out_commit(&f, 1, msg, sizeof msg) == 0)
                bench_gnuplot(CMD, path, "spook-pgs-scaling.gp");
        }
    }
    /* markdown */
    FILE *md = bench_md_open(CMD, &f, out, "spook-pgs.md", force,
                             "spook-pgs: Gauss-Seidel accuracy per sweep (Lacoursiere's notes)",
                             argc, argv);
    if (!md) {
        rc = 1;
        goto done;
    }
    fprintf(md, "Scene spheres (200, mu 0.5, SPOOK) at step 100, %d rows.  Relative "
                "error = ||z - zref||_inf / max(1, ||zref||_inf) (and the same in w); "
                "reference: %s.\n\n| sweeps k | z err cold | w err cold | ||r||_2 cold | "
                "z err warm | w err warm | ||r||_2 warm |\n|---:|---:|---:|---:|---:|---:|---:|\n",
            P.m, refname);
    static const int ks[] = {1, 2, 5, 10, 20, 30, 50, 100};
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        int k = ks[j];
        char b[6][32];
        fprintf(md, "| %d | %s | %s | %s | %s | %s | %s |\n", k,
                md_num(b[0], 32, res[0][0][k]), md_num(b[1], 32, res[0][1][k]),
                md_num(b[2], 32, res[0][2][k]), md_num(b[3], 32, res[1][0][k]),
                md_num(b[4], 32, res[1][1][k]), md_num(b[5], 32, res[1][2][k]));
    }
    fprintf(md, "\n| spheres | rows | time per sweep (s) | per row (s) |\n|---:|---:|---:|---:|\n");
    for (int s = 0; s < NSIZE; s++)
        if (isfinite(tps[s]))
            fprintf(md, "| %d | %.0f | %.2e | %.2e |\n", sizes[s], rows[s], tps[s],
                    tps[s] / rows[s]);
    fprintf(md, "\n## Claims of the notes, checked on our numbers\n\n");
    {
        double e30 = res[0][1][30], e30w = res[1][1][30];
        int ok = (e30 <= 0.1 || e30w <= 0.1);
        char b1[32], b2[32];
        fprintf(md, "1. A few tens of sweeps give 10%% to 1%% accuracy (w error after 30 sweeps "
                    "<= 10%%): **%s** (cold %s, warm %s)\n", ok ? "held" : "did not hold",
                md_num(b1, 32, e30), md_num(b2, 32, e30w));
        double r10 = res[0][2][10], r100 = res[0][2][100];
        int stall = r100 > 0.1 * r10;
        fprintf(md, "2. The residual stalls after about 10 sweeps (cold: ||r|| at 100 sweeps "
                    "more than 10%% of that at 10): **%s** (%s -> %s)\n",
                stall ? "held" : "did not hold", md_num(b1, 32, r10), md_num(b2, 32, r100));
        double lo = INFINITY, hi = 0;
        int cnt = 0;
        for (int s = 0; s < NSIZE; s++)
            if (isfinite(tps[s])) {
                double pr = tps[s] / rows[s];
                lo = fmin(lo, pr);
                hi = fmax(hi, pr);
                cnt++;
            }
        fprintf(md, "3. The cost of a sweep is linear in the size (time per row within a factor "
                    "3 from 100 to 10^5 spheres): **%s** (%s to %s s per row, %d sizes)\n",
                cnt >= 2 && hi <= 3 * lo ? "held" : cnt >= 2 ? "did not hold" : "undecided",
                md_num(b1, 32, lo), md_num(b2, 32, hi), cnt);
    }
    fprintf(md, "\nFigures: `plots/spook-pgs-error.png`, `plots/spook-pgs-scaling.png`.\n");
    if (bench_out_commit(&f, 1, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        rc = 1;
    } else {
        fprintf(stderr, "lcpbench table: wrote %s/spook-pgs.md\n", out);
    }
done:
    free(zr);
    free(w);
    free(z);
    lcp_problem_free(&P);
    return rc;
}
