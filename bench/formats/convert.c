/* convert.c: `lcpbench convert IN OUT': instance folders to and from the formats other tools
 * use, through one table of formats {name, endings, description, reader, writer}: each
 * format is one file (folder.c, fclib.c, siconos.c, ode.c; formats.h), and this command
 * only picks the reader of IN's format and the writer of OUT's.  Every conversion builds an
 * lcp_problem and validates it (lcp_problem_check) before anything is written; outputs are
 * written whole or not at all.  The readers and writers fill msg; this command prints it
 * once (bench/README.md, "Errors").
 */
#include "formats.h"

#include <string.h>

static const char *CMD = "convert";

#ifdef LCPBENCH_HAVE_FCLIB
#define FCLIB_READ bench_fclib_read
#define FCLIB_WRITE bench_fclib_write
#define FCLIB_NOTE ""
#define FCLIB_MISSING NULL
#else
#define FCLIB_READ NULL
#define FCLIB_WRITE NULL
#define FCLIB_NOTE " (not built: install libfclib-dev and rebuild)"
#define FCLIB_MISSING "fclib: this lcpbench was built without libfclib (apt-get install " \
                      "libfclib-dev, then rebuild)"
#endif

typedef enum fmt { FMT_NONE = -1, FMT_FOLDER, FMT_FCLIB, FMT_SICONOS, FMT_ODE, FMT_COUNT } fmt;

/* the formats, in the order --help lists them */
static const bench_format formats[FMT_COUNT] = {
    [FMT_FOLDER] = {"folder", {NULL, NULL}, "instance folder (Matrix Market), in and out",
                    bench_folder_read, bench_folder_write, NULL},
    [FMT_FCLIB] = {"fclib", {".hdf5", ".h5"},
                   "FCLIB HDF5 through libfclib: local problems in and out, global in"
                   FCLIB_NOTE, FCLIB_READ, FCLIB_WRITE, FCLIB_MISSING},
    [FMT_SICONOS] = {"siconos", {".dat", NULL}, "Siconos Numerics .dat LCP file (dense), in",
                     bench_siconos_read, NULL, NULL},
    [FMT_ODE] = {"ode", {".ode", NULL},
                 "dense text of ODE/DART/Bullet's dSolveLCP arguments (A x = b + w, q = -b),\n"
                 "           in and out", bench_ode_read, bench_ode_write, NULL},
};

typedef struct conv_args {
    const char *in, *out;
    fmt from, to;
    int friction_box; /* 1: box-friction BLCP from FCLIB (default), 0: normal LCP only */
    lcp_read_options ro; /* --factor-tol for folders read */
    int force;
} conv_args;

/* the formats' names, "folder, fclib, siconos, ode" */
static const char *fmt_list(void)
{
    static char b[128];
    if (!b[0])
        for (int k = 0; k < FMT_COUNT; k++) {
            if (k) strcat(b, ", ");
            strcat(b, formats[k].name);
        }
    return b;
}

static void help(void)
{
    printf("usage: lcpbench convert IN OUT [--from FMT] [--to FMT] [--friction box|none] "
           "[--factor-tol T|off] [--force]\n\n"
           "Converts an LCP between formats (FMT: %s); the format is\n"
           "taken from the name when not given: .hdf5/.h5 = fclib, .dat = siconos, .ode = ode,\n"
           "anything else = an instance folder.\n\n", fmt_list());
    for (int k = 0; k < FMT_COUNT; k++)
        printf("  %-8s %s\n", formats[k].name, formats[k].description);
    printf("  --friction box   FCLIB's Coulomb cone as box friction (findex rows; default)\n"
           "                   FCLIB's solution (of the cone problem) is kept as\n"
           "                   zref-cone.mtx, not zref.mtx: it does not solve the box LCP\n"
           "  --friction none  FCLIB's normal rows only (the frictionless LCP)\n"
           "  --factor-tol T|off  the reader's A = J Minv J^T + diag(E) tolerance (1e-12)\n"
           "  --force          replace OUT when it exists\n\n"
           "Conventions and mappings: bench/README.md, \"Bring your own problem and solver\".\n");
}

static fmt fmt_parse(const char *s)
{
    for (int k = 0; k < FMT_COUNT; k++)
        if (!strcmp(s, formats[k].name)) return (fmt)k;
    return FMT_NONE;
}

/* the format whose ending the name has; a folder when none has */
static fmt fmt_guess(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return FMT_FOLDER;
    for (int k = 0; k < FMT_COUNT; k++)
        for (int e = 0; e < 2; e++)
            if (formats[k].ext[e] && !strcmp(dot, formats[k].ext[e])) return (fmt)k;
    return FMT_FOLDER;
}

static int fmt_arg(const char *opt, const char *v, fmt *to)
{
    if ((*to = fmt_parse(v)) == FMT_NONE) {
        bench_error(CMD, "%s: unknown format '%s' (%s)", opt, v, fmt_list());
        return -1;
    }
    return 0;
}

static int from_arg(const char *cmd, const char *v, void *to)
{
    (void)cmd;
    return fmt_arg("--from", v, to);
}

static int to_arg(const char *cmd, const char *v, void *to)
{
    (void)cmd;
    return fmt_arg("--to", v, to);
}

static int friction_arg(const char *cmd, const char *v, void *to)
{
    if (!strcmp(v, "box")) *(int *)to = 1;
    else if (!strcmp(v, "none")) *(int *)to = 0;
    else {
        bench_error(cmd, "--friction: '%s' is not box or none", v);
        return -1;
    }
    return 0;
}

/* IN, then OUT */
static int conv_word(const char *cmd, const char *w, void *to)
{
    conv_args *a = to;
    if (!a->in) a->in = w;
    else if (!a->out) a->out = w;
    else {
        bench_error(cmd, "unexpected argument '%s' (IN OUT)", w);
        return -1;
    }
    return 0;
}

static int parse(int argc, char **argv, conv_args *a)
{
    a->from = a->to = FMT_NONE;
    a->friction_box = 1;
    lcp_read_options_default(&a->ro);
    const bench_arg args[] = {
        {"--force", BENCH_ARG_FLAG, &a->force, NULL, "replace OUT"},
        {"--from", BENCH_ARG_VALUE, &a->from, from_arg, "IN's format"},
        {"--to", BENCH_ARG_VALUE, &a->to, to_arg, "OUT's format"},
        {"--factor-tol", BENCH_ARG_VALUE, &a->ro.factor_tol, bench_arg_factor_tol,
         "the reader's factor test"},
        {"--friction", BENCH_ARG_VALUE, &a->friction_box, friction_arg, "box or none"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), conv_word, a, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r;
    if (!a->in || !a->out) {
        bench_error(CMD, "needs IN and OUT (lcpbench convert --help)");
        return 2;
    }
    if (a->from == FMT_NONE) a->from = fmt_guess(a->in);
    if (a->to == FMT_NONE) a->to = fmt_guess(a->out);
    const bench_format *from = &formats[a->from], *to = &formats[a->to];
    if (!to->write && !to->missing) {
        bench_error(CMD, "%s is an input format only (write fclib, ode or a folder)", to->name);
        return 2;
    }
    if (from->missing || to->missing) {
        bench_error(CMD, "%s", from->missing ? from->missing : to->missing);
        return 2;
    }
    if (!a->friction_box && a->from != FMT_FCLIB) {
        bench_error(CMD, "--friction applies to FCLIB input only, not %s", from->name);
        return 2;
    }
    return 0;
}

int bench_cmd_convert(int argc, char **argv)
{
    conv_args a = {0};
    int rc = parse(argc, argv, &a);
    if (rc) return rc == 1 ? 0 : rc;
    lcp_problem P;
    lcp_problem_init(&P);
    char msg[4400];
    double *cone = NULL; /* FCLIB's solution of the cone problem (zref-cone.mtx): not zref */
    const bench_format_opts o = {a.friction_box, &a.ro};
    lcp_status st = formats[a.from].read(a.in, &o, &P, &cone, msg, sizeof msg);
    if (st == LCP_OK && a.ro.factor_tol != 1e-12) { /* the relaxed reading travels with it */
        char line[160], *meta;
        snprintf(line, sizeof line, "factor_tol = %g (A = J Minv J^T + diag(E) %s)\n",
                 a.ro.factor_tol, a.ro.factor_tol < 0 ? "not checked" : "to this tolerance");
        size_t n0 = P.meta ? strlen(P.meta) : 0;
        if ((meta = lcp_realloc(P.meta, n0 + strlen(line) + 1, 1))) {
            memcpy(meta + n0, line, strlen(line) + 1);
            P.meta = meta;
        }
    }
    if (st == LCP_OK) st = formats[a.to].write(a.out, &P, cone, a.force, msg, sizeof msg);
    if (st != LCP_OK) bench_error(CMD, "%s", msg);
    lcp_problem_free(&P);
    lcp_free(cone);
    return st == LCP_OK ? 0 : 1;
}
