/* solve.c: `lcpbench solve INSTANCE... --solver NAME[,NAME...] [options]'.
 *
 * For each instance and solver: one measured run (measure.c), one CSV line on stdout with
 *   instance,solver,status,iterations,residual,residual_inf,time_s,   (design.md section 8)
 *   time_min_s,rel_residual,zdiff,wdiff,work,form,order,omega,beta,gamma,shape
 * residual = ||r||_2 computed here from (A, q, z); time_s = median of --reps timing runs.
 * Fields that have no value (an error status, no reference) are left empty, never NaN.
 * Exit: 0 all runs usable (status >= 0), 1 a run failed or an instance was bad, 2 usage.
 */
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *CMD = "solve";

static void help(void)
{
    printf("usage: lcpbench solve INSTANCE... --solver NAME[,NAME...] [options]\n"
           "\n"
           "Solve instance folders (design.md section 3) and print one CSV line per run:\n"
           "  instance,solver,status,iterations,residual,residual_inf,time_s,time_min_s,\n"
           "  rel_residual,zdiff,wdiff,work,form,order,omega,beta,gamma,shape\n"
           "residuals are computed by lcpbench from (A, q, z); time_s is the median of --reps\n"
           "timing runs (monitor off, fixed iteration count); zdiff/wdiff need zref.mtx.\n"
           "\n"
           "options:\n"
           "  --solver NAME[,NAME]  solvers (lcpbench list solvers)\n"
           "  --tol T               stop at ||r||_2 <= T (default 1e-6)\n"
           "  --maxit K             sweep cap (default 1000)\n"
           "  --check-every K       residual test every K sweeps (default 1)\n"
           "  --omega W|auto        relaxation (default 1; auto: jacobi only)\n"
           "  --beta B              AMGS Omega scale (default: solver's)\n"
           "  --gamma G             AMGS gamma (default 1)\n"
           "  --order ORDER         natural reverse symmetric random random8 error mass ode8\n"
           "                        perm:FILE\n"
           "                        (FILE: m whitespace-separated 0-based rows)\n"
           "  --seed S              seed of random orderings (default 1)\n"
           "  --form F              auto, assembled or matrix-free (default auto)\n"
           "  --warm                start from the instance's z0.mtx\n"
           "  --warm-scale S        start from S times z0.mtx (default 1; ODE quickstep 0.9)\n"
           "  --reps R              timing repetitions after one warm-up (default 5; 0 = none)\n"
           "  --history DIR         write DIR/INSTANCE__SOLVER.csv: iteration,residual,\n"
           "                        residual_inf,time_s\n"
           "  --solution DIR        write DIR/INSTANCE__SOLVER.mtx (z, Matrix Market)\n"
           "  --store-ref           store a direct solver's z as INSTANCE/zref.mtx\n"
           "  --force               replace existing output files\n");
}

/* basename of an instance folder, without trailing slashes */
static void instance_name(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/') b--;
    snprintf(buf, len, "%.*s", (int)(n - b), path + b);
}

static int read_perm(const char *file, int **perm, int *count)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        bench_error(CMD, "%s: cannot read permutation: %s", file, strerror(errno));
        return -1;
    }
    int cap = 64, n = 0, *p = malloc((size_t)cap * sizeof(int));
    long v;
    int rc = 0, c;
    while (p && (c = fscanf(f, "%ld", &v)) == 1) {
        if (v < 0 || v > 2147483647L) {
            bench_error(CMD, "%s: entry %d: %ld is not a 0-based row", file, n + 1, v);
            rc = -1;
            break;
        }
        if (n == cap) {
            int *q = realloc(p, (size_t)(cap *= 2) * sizeof(int));
            if (!q) break;
            p = q;
        }
        p[n++] = (int)v;
    }
    if (rc == 0 && !feof(f)) {
        bench_error(CMD, "%s: entry %d is not an integer", file, n + 1);
        rc = -1;
    }
    fclose(f);
    if (rc != 0 || !p) {
        free(p);
        return -1;
    }
    *perm = p;
    *count = n;
    return 0;
}

static void csv_num(double v)
{
    if (isfinite(v)) printf(",%.6e", v);
    else printf(",");
}

typedef struct solve_args {
    const char *solvers, *history, *solution, *permfile;
    int reps, force, store_ref;
    lcp_options opt;
} solve_args;

static int parse(int argc, char **argv, solve_args *a, int *ninst, char ***inst)
{
    lcp_options_default(&a->opt);
    a->reps = 5;
    char **list = malloc((size_t)argc * sizeof(char *));
    int n = 0;
    if (!list) return 2;
    for (int k = 1; k < argc; k++) {
        const char *v = NULL;
        int r;
        long l;
        double d;
#define OPT(name) ((r = bench_opt(argc, argv, &k, name, &v)) != 0)
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            free(list);
            return 1;
        } else if (strcmp(argv[k], "--warm") == 0) a->opt.warm = 1;
        else if (strcmp(argv[k], "--force") == 0) a->force = 1;
        else if (strcmp(argv[k], "--store-ref") == 0) a->store_ref = 1;
        else if (OPT("--solver")) { if (r > 0) a->solvers = v; }
        else if (OPT("--history")) { if (r > 0) a->history = v; }
        else if (OPT("--solution")) { if (r > 0) a->solution = v; }
        else if (OPT("--tol")) {
            if (r > 0 && (r = bench_parse_double(CMD, "--tol", v, &d)) == 0) a->opt.tol = d;
        } else if (OPT("--maxit")) {
            if (r > 0 && (r = bench_parse_int(CMD, "--maxit", v, 0, 2000000000L, &l)) == 0)
                a->opt.max_iter = (int)l;
        } else if (OPT("--check-every")) {
            if (r > 0 && (r = bench_parse_int(CMD, "--check-every", v, 1, 1000000L, &l)) == 0)
                a->opt.check_every = (int)l;
        } else if (OPT("--reps")) {
            if (r > 0 && (r = bench_parse_int(CMD, "--reps", v, 0, 100000L, &l)) == 0)
                a->reps = (int)l;
        } else if (OPT("--seed")) {
            if (r > 0 && (r = bench_parse_int(CMD, "--seed", v, 0, 2147483647L, &l)) == 0)
                a->opt.seed = (uint64_t)l;
        } else if (OPT("--warm-scale")) {
            if (r > 0 && (r = bench_parse_double(CMD, "--warm-scale", v, &d)) == 0) {
                if (!isfinite(d)) {
                    bench_error(CMD, "--warm-scale: %s is not finite", v);
                    r = -1;
                }
                a->opt.warm_scale = d;
            }
        } else if (OPT("--omega")) {
            if (r > 0 && strcmp(v, "auto") == 0) a->opt.omega_auto = 1;
            else if (r > 0 && (r = bench_parse_double(CMD, "--omega", v, &d)) == 0) {
                if (!(d > 0.0 && d < 2.0)) {
                    bench_error(CMD, "--omega: %s is outside (0, 2)", v);
                    r = -1;
                }
                a->opt.omega = d;
            }
        } else if (OPT("--beta")) {
            if (r > 0 && (r = bench_parse_double(CMD, "--beta", v, &d)) == 0) {
                if (!(d > 0.0)) {
                    bench_error(CMD, "--beta: %s must be positive", v);
                    r = -1;
                }
                a->opt.beta = d;
            }
        } else if (OPT("--gamma")) {
            if (r > 0 && (r = bench_parse_double(CMD, "--gamma", v, &d)) == 0) {
                if (!(d > 0.0)) {
                    bench_error(CMD, "--gamma: %s must be positive", v);
                    r = -1;
                }
                a->opt.gamma = d;
            }
        } else if (OPT("--form")) {
            if (r > 0) {
                if (strcmp(v, "auto") == 0) a->opt.form = LCP_FORM_AUTO;
                else if (strcmp(v, "assembled") == 0) a->opt.form = LCP_FORM_ASSEMBLED;
                else if (strcmp(v, "matrix-free") == 0) a->opt.form = LCP_FORM_MATRIX_FREE;
                else {
                    bench_error(CMD, "--form: unknown form '%s' (auto, assembled, matrix-free)", v);
                    r = -1;
                }
            }
        } else if (OPT("--order")) {
            if (r > 0) {
                if (strncmp(v, "perm:", 5) == 0) {
                    a->opt.order = LCP_ORDER_PERM;
                    a->permfile = v + 5;
                } else if (lcp_order_parse(v, &a->opt.order) != LCP_OK ||
                           a->opt.order == LCP_ORDER_PERM) {
                    bench_error(CMD, "--order: unknown ordering '%s' (lcpbench list orders)", v);
                    r = -1;
                }
            }
        } else if (argv[k][0] == '-' && argv[k][1] != 0) {
            bench_error(CMD, "unknown option '%s' (lcpbench solve --help)", argv[k]);
            r = -1;
        } else {
            list[n++] = argv[k];
            r = 0;
        }
#undef OPT
        if (r < 0) {
            free(list);
            return 2;
        }
    }
    if (!a->solvers) {
        bench_error(CMD, "--solver NAME is required (lcpbench list solvers)");
        free(list);
        return 2;
    }
    if (n == 0) {
        bench_error(CMD, "no instance folder given (lcpbench solve --help)");
        free(list);
        return 2;
    }
    *ninst = n;
    *inst = list;
    return 0;
}

/* split "a,b,c" into solver entries; unknown name -> -1 */
static int find_solvers(const char *spec, const lcp_solver ***out, int *count)
{
    char *copy = strdup(spec);
    int n = 1;
    for (const char *c = spec; *c; c++) n += *c == ',';
    const lcp_solver **s = malloc((size_t)n * sizeof *s);
    int k = 0, rc = 0;
    if (!copy || !s) rc = -1;
    for (char *save = NULL, *tok = copy ? strtok_r(copy, ",", &save) : NULL; rc == 0 && tok;
         tok = strtok_r(NULL, ",", &save)) {
        s[k] = lcp_solver_find(tok);
        if (!s[k]) {
            bench_error(CMD, "--solver: unknown solver '%s' (lcpbench list solvers)", tok);
            rc = -1;
        }
        k++;
    }
    free(copy);
    if (rc != 0 || k == 0) {
        if (k == 0 && rc == 0) bench_error(CMD, "--solver: empty list");
        free(s);
        return -1;
    }
    *out = s;
    *count = k;
    return 0;
}

static int outputs_ready(const solve_args *a)
{
    char msg[4200];
    if (a->history && bench_mkdir_p(a->history, msg, sizeof msg) != 0) {
        bench_error(CMD, "--history: %s", msg);
        return -1;
    }
    if (a->solution && bench_mkdir_p(a->solution, msg, sizeof msg) != 0) {
        bench_error(CMD, "--solution: %s", msg);
        return -1;
    }
    return 0;
}

int bench_cmd_solve(int argc, char **argv)
{
    solve_args a = {0};
    char **inst = NULL;
    int ninst = 0, nsolv = 0, *perm = NULL, nperm = 0, failed = 0;
    const lcp_solver **solv = NULL;
    int rc = parse(argc, argv, &a, &ninst, &inst);
    if (rc != 0) return rc == 1 ? 0 : rc;
    if (find_solvers(a.solvers, &solv, &nsolv) != 0 ||
        (a.permfile && read_perm(a.permfile, &perm, &nperm) != 0) || outputs_ready(&a) != 0) {
        free(inst);
        free(solv);
        free(perm);
        return 2;
    }
    a.opt.perm = perm;
    printf("instance,solver,status,iterations,residual,residual_inf,time_s,time_min_s,"
           "rel_residual,zdiff,wdiff,work,form,order,omega,beta,gamma,shape\n");
    fflush(stdout);
    bench_progress prog;
    bench_progress_start(&prog, "solve", (long)ninst * nsolv);
    for (int i = 0; i < ninst; i++) {
        lcp_problem P;
        char msg[4200], name[1024];
        lcp_problem_init(&P);
        instance_name(inst[i], name, sizeof name);
        if (lcp_read_instance(inst[i], &P, msg, sizeof msg) != LCP_OK) {
            bench_error(CMD, "%s", msg);
            failed = 1;
            bench_progress_step(&prog, nsolv);
            continue;
        }
        int skip = 0;
        if (perm && nperm != P.m) {
            bench_error(CMD, "%s: %d rows but the permutation %s has %d entries", inst[i],
                        P.m, a.permfile, nperm);
            skip = 1;
        } else if (a.opt.warm && !P.z0) {
            bench_error(CMD, "%s: --warm needs z0.mtx in the instance folder", inst[i]);
            skip = 1;
        }
        failed |= skip;
        double *z = malloc((size_t)(P.m > 0 ? P.m : 1) * sizeof(double));
        for (int s = 0; !skip && z && s < nsolv; s++) {
            bench_result r;
            bench_history h = {0};
            lcp_status st = bench_run_solver(&P, solv[s], &a.opt, a.opt.warm ? P.z0 : NULL,
                                             a.reps, z, &r, a.history ? &h : NULL);
            printf("%s,%s,%s,%d", name, solv[s]->name, lcp_status_str(st), r.iterations);
            if (st >= 0) {
                csv_num(r.res.r2);
                csv_num(r.res.rinf);
            } else {
                printf(",,");
            }
            csv_num(r.t_median);
            csv_num(r.t_min);
            csv_num(st >= 0 ? r.res.rel : NAN);
            csv_num(r.zdiff);
            csv_num(r.wdiff);
            printf(",%.0f,%s,%s", r.info.work, lcp_form_name(r.info.form),
                   lcp_order_name(a.opt.order));
            csv_num(r.info.omega > 0 ? r.info.omega : NAN);
            csv_num(r.info.shape ? r.info.beta : NAN);
            csv_num(r.info.shape ? r.info.gamma : NAN);
            printf(",%s\n", r.info.shape == 'D' ? "D" : r.info.shape == 'I' ? "I" : "");
            fflush(stdout);
            if (st < 0) {
                if (r.info.row >= 0)
                    bench_error(CMD, "%s: %s: %s at row %d", inst[i], solv[s]->name,
                                lcp_status_str(st), r.info.row);
                else
                    bench_error(CMD, "%s: %s: %s", inst[i], solv[s]->name, lcp_status_str(st));
                failed = 1;
            }
            char path[4500];
            if (st >= 0 && a.history) {
                snprintf(path, sizeof path, "%s/%s__%s.csv", a.history, name, solv[s]->name);
                if (bench_history_write(&h, path, a.force, msg, sizeof msg) != 0) {
                    bench_error(CMD, "--history: %s", msg);
                    failed = 1;
                }
            }
            if (st >= 0 && a.solution) {
                snprintf(path, sizeof path, "%s/%s__%s.mtx", a.solution, name, solv[s]->name);
                if (!a.force && access(path, F_OK) == 0) {
                    bench_error(CMD, "--solution: %s exists (use --force to replace it)", path);
                    failed = 1;
                } else if (lcp_write_vector(path, P.m, z, msg, sizeof msg) != LCP_OK) {
                    bench_error(CMD, "--solution: %s", msg);
                    failed = 1;
                }
            }
            if (st >= 0 && a.store_ref && (solv[s]->needs & LCP_DIRECT) &&
                (st == LCP_OK || st == LCP_NONUNIQUE)) {
                snprintf(path, sizeof path, "%s/zref.mtx", inst[i]);
                if (!a.force && access(path, F_OK) == 0) {
                    bench_error(CMD, "--store-ref: %s exists (use --force to replace it)", path);
                    failed = 1;
                } else if (lcp_write_vector(path, P.m, z, msg, sizeof msg) != LCP_OK) {
                    bench_error(CMD, "--store-ref: %s", msg);
                    failed = 1;
                } else {
                    double *zr = malloc((size_t)(P.m > 0 ? P.m : 1) * sizeof(double));
                    if (zr) {
                        memcpy(zr, z, (size_t)P.m * sizeof(double));
                        free(P.zref);
                        P.zref = zr;   /* later solvers report their distance to it */
                    }
                }
            }
            bench_history_free(&h);
            bench_progress_step(&prog, 1);
        }
        if (!z) {
            bench_error(CMD, "%s: out of memory", inst[i]);
            failed = 1;
        }
        free(z);
        lcp_problem_free(&P);
    }
    bench_progress_end(&prog);
    free(inst);
    free(solv);
    free(perm);
    return failed ? 1 : 0;
}
