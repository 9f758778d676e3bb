/* table.c: `lcpbench table NAME --out DIR': the registry of the experiments that reproduce a
 * source's table or figure (bench/README.md, "The harness").  Each table is one file
 * (tables/NAME.c) with one signature (bench_table_fn) and one line below; it regenerates
 * its results from scratch: captures the instances from the scenes, runs the solvers, and
 * writes plain CSV, a Markdown table with the source's published numbers beside ours, the
 * claims with verdicts computed from our numbers (kit.h), and figures.  A table's
 * protocols are its variants: `paper' (the source's protocol, as far as the text allows)
 * and `suite' (ours); the first listed is the default.
 * Outputs: DIR/provenance.json (once per folder), DIR/claims.csv, and each table's files.
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

static const char *CMD = "table";

/* today every table has one protocol: ours (the source's protocol comes as `paper') */
static const bench_variant v_amgs1[] = {
    {"paper", "rigid contacts without position correction (the stepper with eps 0, poscorr "
              "0: q_n = J_n v*, an LCP with a solution by construction but where a restitution "
              "target is active), the stepper warm-started with 10 PGS sweeps per step, one "
              "solve per method to 1e-8 from the stepper's warm start"},
    {"suite", "SPOOK contacts (compliance 1e-6, d 4), the stepper's converged state (100 "
              "sweeps or 1e-8 per step; stack 1000) as warm start, one solve per method to "
              "1e-8"}};
static const bench_variant v_regime[] = {
    {"suite", "our own study: compliance x d x scene x seed/step, the stepper's converged "
              "state (100 sweeps or 1e-8 per step), sweeps to 1e-6 from its warm start"}};
static const bench_variant v_amgs2[] = {
    {"paper", "rigid contacts without position correction (eps 0, poscorr 0), so that the "
              "piles settle; a fixed 200 sweeps per step, no residual test (as the paper's "
              "Sec. 5.2)"},
    {"spook", "SPOOK contacts (eps 1e-6, d 4; ours), a fixed 200 sweeps per step, no residual "
              "test"},
    {"suite", "at most 200 sweeps per step with an early stop at ||r||_2 <= 1e-6 (ours; the "
              "paper runs a fixed 200)"}};
static const bench_variant v_figs[] = {
    {"paper", "rigid contacts without position correction (eps 0, poscorr 0), so that the "
              "piles settle; Figures 3-5 on instances of that stepper at 10 PGS sweeps per "
              "step, Figures 6-8 with the paper's 10 sweeps per step (no residual test), "
              "friction on, warm start, every method from the same initial state"},
    {"spook", "the same on SPOOK contacts (eps 1e-6, d 4; ours): Figures 3-5 on the stepper's "
              "converged instances, Figures 6-8 at 10 sweeps per step, where the piles do not "
              "settle"}};
static const bench_variant v_reorder[] = {
    {"suite", "step 1 of our capsule and three-spheres scenes, ||r||_2 of the natural map as "
              "the error"}};
static const bench_variant v_reorder_sim[] = {
    {"suite", "whole simulations at 15 PGS sweeps per step, error against ldlt-ref every 10 "
              "steps (the paper's program without published numbers)"}};
static const bench_variant v_spook[] = {
    {"suite", "scene spheres (200) at step 100 and seeds 1-4 x steps 60/100/140, errors "
              "against ldlt-ref; SPOOK eps x d grid with an impact; the slide scene for box "
              "against cone friction"}};
static const bench_variant v_ode[] = {
    {"suite", "quickstep in its own regime (PSOR omega 1.3, ordering ode8, 20 sweeps; cold, "
              "warm 0.9 and 1) beside ODE's Dantzig on captured instances, errors against "
              "ldlt-ref"}};
static const bench_variant v_transversal[] = {
    {"suite", "beads on centre-attached distance joints (towed, hang, thread, chain, "
              "pendulum), seeded 1e-9 rad offsets, VTS exact with ldlt-ref"}};
static const bench_variant v_peers[] = {
    {"suite", "cold start, tol 1e-6 and maxit 10000 asked of every solver (each peer stops by "
              "its own test), dense solvers on at most 600 rows, one residual and zdiff "
              "against ldlt-ref"}};

static const bench_variant v_precision[] = {
    {"suite", "our own study: pgs with J and B stored in float64 and in float32 (sums, u and "
              "the residual in double), cold start, natural order, to a sweep cap; the "
              "committed instances and captured sphere piles; time against the streaming "
              "floor in paired rounds"}};
static const bench_variant v_solvers[] = {
    {"suite", "cold start, tol 1e-8, about 2e4 sweep-equivalents per solver, on the committed "
              "instances and sphere piles of 40, 120, 300 (frictionless and mu 0.5); work in "
              "products with A, wdiff against ldlt-ref"}};

#define VARIANTS(v) v, (int)(sizeof v / sizeof v[0]), 0
#define VARIANTS_INSTANCES(v) v, (int)(sizeof v / sizeof v[0]), 1   /* takes --instances */

static const bench_table tables[] = {
    {"amgs-table1", "AMGS paper Table 1: sweeps and time to 1e-2 .. 1e-8, 5 methods",
     bench_table_amgs1, VARIANTS(v_amgs1)},
    {"amgs-regime", "when AMGS halves PGS's sweeps: ratio against compliance, d, self-stress",
     bench_table_amgs_regime, VARIANTS(v_regime)},
    {"amgs-table2", "AMGS paper Table 2: whole-simulation solve time, PGS vs AMGS betas",
     bench_table_amgs2, VARIANTS(v_amgs2)},
    {"amgs-figures", "AMGS paper Figures 3-8: residual per sweep, per step after 10 sweeps",
     bench_table_amgs_figures, VARIANTS(v_figs)},
    {"reorder", "Andrews et al.: every constraint ordering of capsule, three-spheres (PGS)",
     bench_table_reorder, VARIANTS(v_reorder)},
    {"reorder-sim", "Andrews et al. part two: orderings over whole frictional simulations",
     bench_table_reorder_sim, VARIANTS(v_reorder_sim)},
    {"spook-pgs", "Lacoursiere: PGS error per sweep (spheres), cost of a sweep against size",
     bench_table_spook_pgs, VARIANTS(v_spook)},
    {"ode", "ODE wiki: Dantzig and quickstep (20 sweeps), failure set, time against m",
     bench_table_ode, VARIANTS(v_ode)},
    {"transversal", "Francu: jitter onset against h_crit, steppers, beta, PGS, chain, energy",
     bench_table_transversal, VARIANTS(v_transversal)},
    {"peers", "Siconos, ODE/DART and Bullet beside our solvers: time, residual, profiles",
     bench_table_peers, VARIANTS_INSTANCES(v_peers)},
    {"precision", "float32 storage of J and B in pgs: sweeps to tol, lowest residual, floor",
     bench_table_precision, VARIANTS(v_precision)},
    {"solvers", "the field's solver families beside pgs, jacobi, ldlt-ref: work, time, profiles",
     bench_table_solvers, VARIANTS(v_solvers)},
};
enum { NTABLE = sizeof tables / sizeof tables[0] };

/* ---- the command ----------------------------------------------------------------------------- */

void bench_list_tables(FILE *f)
{
    for (int k = 0; k < NTABLE; k++) {
        fprintf(f, "  %-13s %s (variants:", tables[k].name, tables[k].what);
        for (int v = 0; v < tables[k].nvariants; v++)
            fprintf(f, " %s", tables[k].variants[v].name);
        fprintf(f, ")\n");
    }
}

static void help(void)
{
    printf("usage: lcpbench table NAME --out DIR [--force] [--variant V] [--style paper|mono]\n"
           "                            [--reps R] [--maxit K] [--beta B] [--steps N]\n"
           "                            [--quick | --full] [--timeout S]\n"
           "                            [--instances DIR... [--no-canonical]]\n"
           "\n"
           "Regenerate an experiment that reproduces a source's table or figure from scratch\n"
           "(bench/README.md, \"The harness\"): capture the scenes, run, and write in DIR\n"
           "plain CSV, a Markdown table with the source's numbers beside ours, the claims\n"
           "with verdicts computed from our numbers (claims.csv), figures (.gp, .csv data,\n"
           ".png, .pdf) and provenance.json.\n"
           "  --variant V  protocol: `paper' (the source's) or `suite' (ours); default: the\n"
           "               first listed\n"
           "  --style S    figures: paper (colour-blind-safe colours, dashes, markers;\n"
           "               default) or mono (black, dashes and markers)\n"
           "  --reps R     timing repetitions after one warm-up (default 5; peers 3, solvers 1)\n"
           "  --maxit K    sweep cap per run (amgs-table1: default 100000; amgs-regime:\n"
           "               200000; peers: 10000; precision: 20000, --full 100000;\n"
           "               solvers: every solver's, else 20000 iterations, pgs-sm 1000\n"
           "               cycles, newton-* 300 steps)\n"
           "  --beta B     AMGS Omega = beta D scale (amgs-table1: default 0.5, gamma 1)\n"
           "  --steps N    simulation steps (amgs-table2: default 300, --full 1000;\n"
           "               amgs-figures: default 200, more than 100)\n"
           "  --quick      a small grid (amgs-table1, amgs-regime, transversal, ode, precision,\n"
           "               solvers: the tests' mode)\n"
           "  --full       the whole grid or the source's full protocol (amgs-regime: 4 scenes\n"
           "               x 6 compliances x 3 d x seeds x steps; amgs-table2: 1000 steps;\n"
           "               spook-pgs: eps x d 4 x 4 on 200 spheres; reorder-sim, ode: more;\n"
           "               precision: a larger pile and the 10^5-row pile's convergence;\n"
           "               solvers: piles of 1000, 3000, 10000 spheres: hours)\n"
           "  --timeout S  limit each run of the table's grids to S seconds (status timeout;\n"
           "               the grid goes on; tables that run the harness's grid)\n"
           "  --instances DIR...  more instance folders, every word up to the next option\n"
           "               (peers: beside problems/instances/*)\n"
           "  --no-canonical  peers: only the --instances folders\n"
           "  --force      replace the results in a non-empty DIR\n"
           "Under `mpirun -np N' (a build with MPI) rank 0 runs the table and deals its\n"
           "grids' cells and reorder's orderings to the N-1 other ranks (DIR on a file\n"
           "system they share; bench/README.md, \"Grids on a cluster\").\n"
           "\ntables:\n");
    bench_list_tables(stdout);
}

static int quick(const char *cmd, const char *v, void *to)
{
    (void)cmd, (void)v;
    ((bench_table_ctx *)to)->size = -1;
    return 0;
}

static int full(const char *cmd, const char *v, void *to)
{
    (void)cmd, (void)v;
    ((bench_table_ctx *)to)->size = 1;
    return 0;
}

static int instances(const char *cmd, const char *v, void *to)
{
    (void)v, (void)to;  /* called only when no folder follows */
    bench_error(cmd, "--instances: expected one or more instance folders");
    return -1;
}

static int reps(const char *cmd, const char *v, void *to)
{
    bench_table_ctx *t = to;
    long l;
    if (bench_parse_int(cmd, "--reps", v, 0, 100000L, &l) != 0) return -1;
    t->reps = (int)l;
    t->reps_given = 1;
    return 0;
}

static int maxit(const char *cmd, const char *v, void *to)
{
    return bench_parse_int(cmd, "--maxit", v, 1, 100000000L, to) != 0;
}

static int steps(const char *cmd, const char *v, void *to)
{
    return bench_parse_int(cmd, "--steps", v, 1, 1000000L, to) != 0;
}

static int timeout(const char *cmd, const char *v, void *to)
{
    double d;
    if (bench_parse_double(cmd, "--timeout", v, &d) != 0) return -1;
    if (!(d >= 0)) {
        bench_error(cmd, "--timeout: %s must be >= 0 seconds", v);
        return -1;
    }
    *(double *)to = d;
    return 0;
}

static int beta(const char *cmd, const char *v, void *to)
{
    double d;
    if (bench_parse_double(cmd, "--beta", v, &d) != 0) return -1;
    if (!(d > 0)) {
        bench_error(cmd, "--beta: %s must be positive", v);
        return -1;
    }
    *(double *)to = d;
    return 0;
}

static int table_word(const char *cmd, const char *w, void *to)
{
    const char **name = to;
    if (*name) {
        bench_error(cmd, "one table at a time ('%s' and '%s')", *name, w);
        return -1;
    }
    *name = w;
    return 0;
}

/* the options; 0, or 2 after one error line (or 3 after --help) */
static int parse(int argc, char **argv, bench_table_ctx *t, const char **name,
                 const char **variant)
{
    bench_words inst = {NULL, 0};
    const bench_arg args[] = {
        {"--force", BENCH_ARG_FLAG, &t->force, NULL, "replace the results in DIR"},
        {"--quick", BENCH_ARG_FLAG, t, quick, "smaller grids"},
        {"--full", BENCH_ARG_FLAG, t, full, "bigger grids"},
        {"--no-canonical", BENCH_ARG_FLAG, &t->no_canonical, NULL, "only --instances"},
        {"--instances", BENCH_ARG_WORDS, &inst, instances, "more instance folders"},
        {"--out", BENCH_ARG_VALUE, &t->out, NULL, "the table's folder"},
        {"--variant", BENCH_ARG_VALUE, variant, NULL, "the table's variant"},
        {"--style", BENCH_ARG_VALUE, &t->style, bench_arg_style, "paper or mono"},
        {"--reps", BENCH_ARG_VALUE, t, reps, "timing samples"},
        {"--maxit", BENCH_ARG_VALUE, &t->maxit, maxit, "sweep cap"},
        {"--steps", BENCH_ARG_VALUE, &t->steps, steps, "steps of the simulations"},
        {"--timeout", BENCH_ARG_VALUE, &t->timeout, timeout, "seconds per run"},
        {"--beta", BENCH_ARG_VALUE, &t->beta, beta, "AMGS beta"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), table_word, name, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) {
        help();
        return 3;
    }
    if (inst.n) {  /* the last --instances, as before */
        t->inst = inst.v;
        t->ninst = inst.n;
    }
    return r;
}

/* a worker rank under mpirun: the jobs rank 0 sends (grids, ranges of orderings) until the
 * last; 0, or 1 when a cell failed */
static int serve(const bench_mpi *m)
{
    int rc = 0, kind;
    size_t len;
    char *job;
    while ((job = bench_mpi_next_job(m, &kind, &len)) != NULL && kind != BENCH_JOB_END) {
        if (kind == BENCH_JOB_GRID) rc |= bench_grid_serve(m, job, len);
        else if (kind == BENCH_JOB_REORDER) rc |= bench_reorder_serve(m, job, len);
        lcp_free(job);
    }
    lcp_free(job);
    return rc;
}

static int table(int argc, char **argv, const bench_mpi *m);

/* Under mpirun (2 ranks or more) rank 0 runs the table and the others serve its grids. */
int bench_cmd_table(int argc, char **argv)
{
    bench_mpi *m = bench_mpi_start();
    if (!m) return table(argc, argv, NULL);
    int rc;
    if (bench_mpi_rank(m) > 0) rc = serve(m);
    else {
        rc = table(argc, argv, m);
        bench_mpi_job(m, BENCH_JOB_END, "", 0);
    }
    bench_mpi_finish(m);
    return rc;
}

static int table(int argc, char **argv, const bench_mpi *m)
{
    bench_table_ctx t = {.cmd = CMD, .reps = 5, .beta = 0.5, .argc = argc, .argv = argv,
                         .mpi = m};
    const char *name = NULL, *variant = NULL;
    int rc = parse(argc, argv, &t, &name, &variant);
    if (rc) return rc == 3 ? 0 : rc;
    if (!name) {
        bench_error(CMD, "no table given (lcpbench table --help lists them)");
        return 2;
    }
    const bench_table *tb = NULL;
    for (int k = 0; k < NTABLE; k++)
        if (strcmp(tables[k].name, name) == 0) tb = &tables[k];
    if (!tb) {
        bench_error(CMD, "unknown table '%s' (lcpbench table --help lists them)", name);
        return 2;
    }
    if ((t.ninst || t.no_canonical) && !tb->instances) {
        bench_error(CMD, "table '%s' takes no --instances or --no-canonical", name);
        return 2;
    }
    if (t.no_canonical && !t.ninst) {
        bench_error(CMD, "--no-canonical needs --instances DIR...");
        return 2;
    }
    t.name = tb->name;
    t.table = tb;
    t.variant = &tb->variants[0];
    if (variant) {
        t.variant = NULL;
        for (int v = 0; v < tb->nvariants; v++)
            if (!strcmp(tb->variants[v].name, variant)) t.variant = &tb->variants[v];
        if (!t.variant) {
            bench_error(CMD, "table '%s' has no variant '%s' (lcpbench list tables)", name,
                        variant);
            return 2;
        }
    }
    if (!t.out) {
        bench_error(CMD, "--out DIR is required");
        return 2;
    }
    bench_stage stage;
    if (bench_stage_open(CMD, &stage, t.out, t.force)) return 1;
    t.dest = t.out;
    t.out = stage.work;                 /* renamed into place when complete */
    t.force = 1;
    rc = tb->fn(&t);
    char prov[BENCH_PATH + 32];
    snprintf(prov, sizeof prov, "%s/provenance.json", t.out);
    if (rc != 2 && bench_write_failures() == stage.failures &&   /* not in a lost folder */
        (m ? bench_mpi_provenance(m, CMD, prov, argc, argv)
           : bench_provenance_json(CMD, t.out, argc, argv)) != 0)
        rc = 1;
    if (bench_stage_commit(CMD, &stage, rc != 2)) rc = 1;
    return rc;
}
