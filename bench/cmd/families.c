/* families.c: `lcpbench families --out DIR' (bench/README.md, "The command line";
 * problems/README.md, "Hard families"): the hard problem families labelled by cause, each
 * captured at three sizes and three steps into DIR/instances/FAMILY-SIZE-stepT (meta.txt with
 * the descriptors and the lines family = FAMILY, family_size = SIZE), a suite over them,
 * DIR/suite.txt (`lcpbench run DIR/suite.txt --out RUN': pgs, psor-1.3, amgs-D), the same
 * instances with every registered solver, DIR/suite-all.txt, and DIR/families.csv
 *     instance,family,scene,size,step,rows,contacts,bodies,mass_ratio,self_stress,cond_lanczos,
 *     limit_rows,bilateral_share,mu
 * which `lcpbench profile RUN --families DIR/families.csv' reads to draw the profiles of
 * each family apart.  The whole of DIR is written beside it and renamed into place.
 * Cost: the steps of every family's scene (at most 400 steps, 80 links, 120 disks or 24
 * bricks) and the descriptors of 72 instances (dense ranks, Lanczos); seconds.  (The runs
 * are the suites': suite-all.txt at the default sizes, 72 instances x 35 solvers with the
 * peers, about 10 minutes of CPU, problems/README.md "Hard families".)
 */
#include "cmd.h"
#include "prob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "families";

typedef struct family {
    const char *name;         /* family label */
    const char *scene;
    const char *cause;        /* one line: what makes it hard */
    const char *fixed[4];     /* parameters of every size, NULL-ended */
    const char *size_key;     /* the parameter that sets the size (NULL: sizes[] are kv lists) */
    const char *sizes[3];     /* its values, or "k=v k=v" lists */
    int steps[3];
} family;

static const family families[] = {
    {"boxes-tower", "boxes", "redundant face contacts (4 per face pair): singular A",
     {NULL}, "n", {"3", "6", "12"}, {10, 30, 60}},
    {"boxes-wall", "boxes", "redundant contacts, bricks on two neighbours",
     {NULL}, NULL, {"layers=2 cols=3", "layers=3 cols=3", "layers=4 cols=4"}, {10, 30, 60}},
    {"mass-ratio-heavy", "mass-ratio", "a 1000x heavier disk on a column of light ones",
     {"ratio=1000", NULL}, "n", {"3", "6", "12"}, {10, 30, 60}},
    {"mass-ratio-light", "mass-ratio", "a 1000x lighter disk on a column of heavy ones",
     {"ratio=1000", "reverse=1", NULL}, "n", {"3", "6", "12"}, {10, 30, 60}},
    {"links-hanging", "links", "a jointed chain: pins and joint limits, swinging",
     {NULL}, "n", {"5", "20", "80"}, {100, 200, 400}},
    {"links-draped", "links", "a jointed chain draped over a fixed disk: joints and contacts",
     {"pose=1", NULL}, "n", {"5", "20", "80"}, {100, 200, 400}},
    {"silo", "silo", "a tall granular column in a narrow container: force chains, wall friction",
     {"cols=3", NULL}, "n", {"15", "45", "120"}, {10, 50, 100}},
    {"kapla", "kapla", "thin plates (1:3:15) in crossed layers: tiny inertia about the long axis",
     {NULL}, "layers", {"2", "4", "8"}, {10, 30, 60}},
};
enum { NFAM = (int)(sizeof families / sizeof families[0]) };

static void help(void)
{
    printf("usage: lcpbench families --out DIR [--sizes K] [--force]\n"
           "Capture the hard problem families (labelled by cause) at three sizes and three\n"
           "steps each into DIR/instances/FAMILY-SIZE-stepT, with DIR/suite.txt (lcpbench run\n"
           "DIR/suite.txt --out RUN: pgs, psor-1.3, amgs-D), DIR/suite-all.txt (the same\n"
           "instances, every registered solver) and DIR/families.csv (lcpbench profile RUN\n"
           "--families DIR/families.csv: the profiles of each family apart).\n"
           "  --out DIR       the folder to write (required)\n"
           "  --sizes K       the K smallest sizes of each family only (1 to 3; default 3)\n"
           "  --force         replace a non-empty DIR\n"
           "families:\n");
    for (int f = 0; f < NFAM; f++)
        printf("  %-17s %s (%s)\n", families[f].name, families[f].cause, families[f].scene);
}

/* capture family f at size s into work; rows appended to the suites and csv; 0 or 1 */
static int capture(const char *work, const char *out, const family *F, int s, FILE *suite,
                   FILE *all, FILE *csv)
{
    const char *kv[16];
    char buf[128], sz[64];
    int nkv = 0;
    for (int k = 0; F->fixed[k]; k++) kv[nkv++] = F->fixed[k];
    if (F->size_key) {
        snprintf(buf, sizeof buf, "%s=%s", F->size_key, F->sizes[s]);
        kv[nkv++] = buf;
        snprintf(sz, sizeof sz, "%s%s", F->size_key, F->sizes[s]);
    } else {
        snprintf(buf, sizeof buf, "%s", F->sizes[s]);
        for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
            kv[nkv++] = t;
        snprintf(sz, sizeof sz, "%s", F->sizes[s]);
        for (char *p = sz; *p; p++)
            if (*p == ' ') *p = '-';
    }
    for (char *p = sz; *p; p++)      /* "layers=2-cols=3" -> "layers2-cols3" */
        if (*p == '=') memmove(p, p + 1, strlen(p));
    lcp_problem P[3];
    char msg[1024];
    if (prob_capture_steps(F->scene, nkv, kv, NULL, PROB_CAPTURE_DESCRIPTORS, 3, F->steps, P,
                           msg, sizeof msg) != LCP_OK) {
        bench_error(CMD, "%s %s: %s", F->name, sz, msg);
        return 1;
    }
    int rc = 0;
    for (int t = 0; t < 3; t++) {
        char name[256], dir[BENCH_PATH + 300];
        snprintf(name, sizeof name, "%s-%s-step%d", F->name, sz, F->steps[t]);
        snprintf(dir, sizeof dir, "%s/instances/%s", work, name);
        size_t ml = P[t].meta ? strlen(P[t].meta) : 0, el = 2 * strlen(F->name) + 256;
        char *meta = rc ? NULL : lcp_malloc(ml + el, 1);
        if (!rc && !meta) {
            bench_error(CMD, "out of memory");
            rc = 1;
        }
        if (!rc) {
            memcpy(meta, P[t].meta ? P[t].meta : "", ml);
            snprintf(meta + ml, el, "family = %s\nfamily_size = %s\nfamily_cause = %s\n",
                     F->name, sz, F->cause);
            lcp_free(P[t].meta);
            P[t].meta = meta;
            if (bench_mkdir_p(dir, msg, sizeof msg) != 0 ||
                lcp_write_instance(dir, &P[t], msg, sizeof msg) != LCP_OK) {
                bench_error(CMD, "%s: %s", dir, msg);
                rc = 1;
            }
        }
        if (!rc) {
            char v[9][64];
            static const char *const keys[9] = {"rows", "contacts", "bodies", "mass_ratio",
                                                "self_stress", "cond_lanczos", "limit_rows",
                                                "bilateral_share", "mu"};
            for (int k = 0; k < 9; k++)
                bench_meta_value(P[t].meta, keys[k], v[k], sizeof v[k]);
            fprintf(suite, "instance instances/%s name=%s\n", name, name);
            fprintf(all, "instance instances/%s name=%s\n", name, name);
            fprintf(csv, "%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", name, F->name, F->scene,
                    sz, F->steps[t], v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
            printf("%s/instances/%s\n", out, name);
        }
    }
    for (int t = 0; t < 3; t++) lcp_problem_free(&P[t]);
    return rc;
}

/* --sizes K: the K smallest sizes (1 to 3) */
static int sizes_arg(const char *cmd, const char *v, void *to)
{
    return bench_parse_int(cmd, "--sizes", v, 1, 3, (long *)to) ? -1 : 0;
}

/* the command takes no word */
static int no_word(const char *cmd, const char *w, void *to)
{
    (void)to;
    bench_error(cmd, "unexpected argument '%s' (lcpbench families --help)", w);
    return -1;
}

int bench_cmd_families(int argc, char **argv)
{
    const char *out = NULL;
    int force = 0;
    long nsize = 3;
    const bench_arg args[] = {
        {"--out", BENCH_ARG_VALUE, &out, NULL, "the folder to write"},
        {"--sizes", BENCH_ARG_VALUE, &nsize, sizes_arg, "the K smallest sizes"},
        {"--force", BENCH_ARG_FLAG, &force, NULL, "replace an existing folder"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), no_word, NULL, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) {
        help();
        return 0;
    }
    if (r) return 2;
    if (!out) {
        bench_error(CMD, "--out DIR is required");
        return 2;
    }
    bench_stage sg;
    if (bench_stage_open(CMD, &sg, out, force) != 0) return 1;
    char path[BENCH_PATH + 64];
    snprintf(path, sizeof path, "%s/suite.txt", sg.work);
    FILE *suite = fopen(path, "w");
    snprintf(path, sizeof path, "%s/families.csv", sg.work);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/suite-all.txt", sg.work);
    FILE *all = fopen(path, "w");
    int rc = suite && csv && all ? 0 : 1;
    if (rc) bench_error(CMD, "%s: cannot write", out);
    if (!rc) {
        fprintf(suite, "# lcpbench families: the hard problem families at three sizes and "
                       "three steps\n# (families.csv gives each instance's family)\n"
                       "suite families\n");
        fprintf(all, "# lcpbench families: the same instances, every registered solver (a solver\n"
                     "# that does not accept a problem answers unsupported at once)\n"
                     "suite families-all\n");
        fprintf(csv, "instance,family,scene,size,step,rows,contacts,bodies,mass_ratio,"
                     "self_stress,cond_lanczos,limit_rows,bilateral_share,mu\n");
    }
    for (int f = 0; f < NFAM && !rc; f++)
        for (int s = 0; s < nsize && !rc; s++)
            rc = capture(sg.work, out, &families[f], s, suite, all, csv);
    if (!rc)
        fprintf(suite, "set tol=1e-6 maxit=20000 reps=1 warm=1\n"
                       "solver pgs\n"
                       "solver pgs omega=1.3 label=psor-1.3\n"
                       "solver amgs-D\n");
    if (!rc) fprintf(all, "set tol=1e-6 maxit=20000 reps=1 warm=1\nsolver all\n");
    if (suite && fclose(suite) != 0) rc = 1;
    if (csv && fclose(csv) != 0) rc = 1;
    if (all && fclose(all) != 0) rc = 1;
    if (bench_stage_commit(CMD, &sg, rc == 0) != 0) rc = 1;
    if (rc == 0)
        fprintf(stderr, "lcpbench families: %d families x %ld sizes x 3 steps in %s (lcpbench "
                        "run %s/suite.txt --out RUN, or suite-all.txt: every solver; lcpbench "
                        "profile RUN --families %s/families.csv)\n", NFAM, nsize, out, out, out);
    return rc;
}
