/* suite.c: suites, the grids of `lcpbench run' (instances x solver settings), in a small
 * line-based text format shared by files and the built-in suites; and the capture of an
 * instance from a scene of problems/ (the stepper's problem at one step, before its solve).
 *
 * FORMAT (one statement per line, `#' starts a comment, words separated by blanks):
 *     suite NAME                              name of the suite (optional)
 *     set KEY=VALUE ...                       defaults for the solver lines that follow
 *     instance PATH [name=N] [ref=SOLVER] [optional=1]
 *                                             instance folder(s); PATH relative to the
 *                                             suite file, glob patterns allowed (* ? []);
 *                                             optional=1: no match is not an error; named
 *                                             by folder, or by the path relative to the
 *                                             matches' common parent when two share a name
 *     scene SCENE step=T [name=N] [ref=SOLVER] [PARAM=VALUE ...]
 *                                             capture step T of a scene (lcpbench list
 *                                             scenes) into DIR/instances/N (N: SCENE-stepT)
 *     solver NAME|all [KEY=VALUE ...]         a solver setting (all = every registered)
 *     solver external NAME [KEY=VALUE ...] cmd=COMMAND...
 *                                             an outside solver (external.c)
 *     grid                                    start a new grid: the instances and solver
 *                                             lines after it pair only with each other
 * Solver keys: the run settings of settings.c (lcpbench list settings).  A key on a
 * solver line that the solver does not use is an error; keys of `set' lines and of
 * `solver all' apply to the solvers that use them.  ref=SOLVER solves each instance once
 * with that solver (e.g. ldlt-ref) when it has no zref.mtx, for the zdiff/wdiff columns.
 * The grid is every instance x every solver line of the same grid.  Labels default to NAME,
 * or NAME:KEY=VALUE;... with the keys given on the line, and must be unique.
 * Cost: parsing is linear in the text; a scene line costs the scene's steps.
 */
#include "grid.h"
#include "prob.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- built-in suites ---------------------------------------------------------------------- */

typedef struct builtin {
    const char *name, *what, *text;
} builtin;

static const builtin builtins[] = {
    {"smoke", "tiny scenes x every sweep solver, 2 reps (seconds)",
     "suite smoke\n"
     "scene capsule step=20 ref=ldlt-ref\n"
     "scene three-spheres step=20 ref=ldlt-ref\n"
     "scene stack step=30 n=10 mu=0 ref=ldlt-ref\n"
     "scene chain step=10 n=8\n"
     "set tol=1e-8 maxit=3000 reps=2 warm=1\n"
     "solver pgs\n"
     "solver pgs omega=1.3 label=psor-1.3\n"
     "solver jacobi omega=auto\n"
     "solver amgs-D\n"
     "solver amgs-I\n"},
    {"amgs", "the AMGS paper's scenes at step 100, mu 0, warm, tol 1e-6 (Table 1 grid)",
     "suite amgs\n"
     "scene pool step=100 mu=0 ref=ldlt-ref\n"
     "scene pool-graded step=100 mu=0 ref=ldlt-ref\n"
     "scene stack step=100 n=150 mu=0 ref=ldlt-ref\n"
     "set tol=1e-6 maxit=20000 reps=5 warm=1\n"
     "solver pgs\n"
     "solver amgs-D-explicit beta=0.5 gamma=1\n"
     "solver amgs-I\n"
     "solver amgs-D beta=0.5 gamma=1\n"
     "solver pgs omega=1.3333333333333333 label=psor-equiv\n"},
    {"friction", "scenes with friction (box bounds, findex), warm, every boxed solver",
     "suite friction\n"
     "scene capsule step=20 ref=ldlt-ref\n"
     "scene three-spheres step=20 ref=ldlt-ref\n"
     "scene stack step=60 n=30 ref=ldlt-ref\n"
     "scene pool step=60 ref=ldlt-ref\n"
     "set tol=1e-6 maxit=20000 reps=3 warm=1\n"
     "solver pgs\n"
     "solver pgs omega=1.3 label=psor-1.3\n"
     "solver amgs-D\n"
     "solver amgs-I\n"},
};

const char *bench_suite_builtin(const char *name)
{
    for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
        if (strcmp(name, builtins[k].name) == 0) return builtins[k].text;
    return NULL;
}

void bench_list_suites(FILE *f)
{
    for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
        fprintf(f, "  %-10s %s\n", builtins[k].name, builtins[k].what);
}

void bench_suite_format_help(FILE *f)
{
    fprintf(f,
            "suite file format (one statement per line, '#' comments):\n"
            "  suite NAME                               optional name\n"
            "  set KEY=VALUE ...                        defaults for later solver lines\n"
            "  instance PATH [name=N] [ref=SOLVER] [optional=1]\n"
            "                                           instance folder(s); relative to the\n"
            "                                           file; glob patterns allowed\n"
            "  scene SCENE step=T [name=N] [ref=SOLVER] [PARAM=VALUE ...]\n"
            "                                           capture step T of a scene into\n"
            "                                           DIR/instances/N (default SCENE-stepT)\n"
            "  solver NAME|all [KEY=VALUE ...]          a solver setting (all: every solver)\n"
            "  solver external NAME [KEY=VALUE ...] cmd=COMMAND...\n"
            "                                           an outside solver: COMMAND INSTANCE OUT\n"
            "                                           writes OUT/z.mtx [OUT/history.csv]\n"
            "  grid                                     start a new grid (instances and solvers\n"
            "                                           after it pair only with each other)\n"
            "The runs are every instance x every solver line of the same grid.  ref=SOLVER\n"
            "gives zref when zref.mtx is absent.  A key on a solver line that the solver does\n"
            "not use is refused; `set' keys and `solver all' keys apply where they are used.\n"
            "solver keys (numbers may be fractions a/b):\n");
    bench_settings_help(f, 0);
}

long bench_suite_runs(const bench_suite *S)
{
    long total = 0;
    for (int i = 0; i < S->ninst; i++)
        for (int k = 0; k < S->nspec; k++) total += S->inst[i].block == S->spec[k].block;
    return total;
}

void bench_suite_free(bench_suite *S)
{
    for (int k = 0; k < S->nspec; k++) bench_external_free(&S->spec[k]);
    lcp_free(S->inst);
    lcp_free(S->spec);
    memset(S, 0, sizeof *S);
}

typedef struct parser {
    const char *cmd, *where, *base, *capdir;
    int line, force, block, nset;
    bench_suite *S;
    char set[64][256];   /* `set' KEY=VALUE pairs, in order */
} parser;

static int perr(const parser *p, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int perr(const parser *p, int code, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    bench_error(p->cmd, "%s:%d: %s", p->where, p->line, buf);
    return code;
}

static int integer(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || x < lo || x > hi) return -1;
    *v = x;
    return 0;
}

/* split "KEY=VALUE" (a copy in buf) */
static int split_kv(const parser *p, const char *tok, char *buf, size_t len, char **key,
                    char **val)
{
    snprintf(buf, len, "%s", tok);
    char *eq = strchr(buf, '=');
    if (!eq || eq == buf) return perr(p, 2, "'%s': expected KEY=VALUE", tok);
    *eq = 0;
    *key = buf;
    *val = eq + 1;
    return 0;
}

/* A `set tol=T' skipped by a solver that takes no tolerance still sets the tolerance its
 * answer is judged by (bench_settings_tol); 1 (skipped) */
static int keep_tol(bench_settings *s, const bench_setting *k, const char *val)
{
    bench_settings t;
    char msg[512];
    bench_settings_default(&t);
    if (!strcmp(k->key, "tol") && bench_setting_set(&t, k, val, msg, sizeof msg) == 0)
        s->tol_asked = t.opt.tol;
    return 1;
}

/* Apply KEY=VALUE to s for solver sv (NULL: only check the value).  strict: a key that sv
 * does not use is an error; else it is skipped (`set' lines, `solver all').  0, 1 when
 * skipped, or 2 (error printed). */
static int apply_kv(const parser *p, bench_settings *s, const lcp_solver *sv, const char *kv,
                    int strict)
{
    char buf[256], msg[512], *key = NULL, *val = NULL;
    if (split_kv(p, kv, buf, sizeof buf, &key, &val) != 0) return 2;
    const bench_setting *k = bench_setting_find(key);
    if (!k || !strcmp(key, k->flag ? k->flag : ""))
        return perr(p, 2, "unknown key '%s' (lcpbench list settings)", key);
    if (sv && !bench_setting_uses(k, sv)) {
        if (!strict) return keep_tol(s, k, val);
        return perr(p, 2, "%s does not use %s (lcpbench list settings)", sv->name, key);
    }
    if (bench_setting_set(s, k, val, msg, sizeof msg) != 0)
        return perr(p, 2, "%s: %s", key, msg);
    return 0;
}

static int push_spec(const parser *p, const bench_spec *s)
{
    bench_suite *S = p->S;
    for (int k = 0; k < S->nspec; k++)
        if (S->spec[k].block == p->block && strcmp(S->spec[k].set.label, s->set.label) == 0)
            return perr(p, 2, "label '%s' is used twice (give label=...)", s->set.label);
    if (S->nspec == S->capspec) {
        int cap = S->capspec ? 2 * S->capspec : 16;
        bench_spec *n = lcp_realloc(S->spec, (size_t)cap, sizeof *n);
        if (!n) return perr(p, 1, "out of memory");
        S->spec = n;
        S->capspec = cap;
    }
    S->spec[S->nspec] = *s;
    S->spec[S->nspec++].block = p->block;
    return 0;
}

/* one spec: the `set' pairs the solver uses, then the line's own (strict unless `all') */
static int make_spec(parser *p, const lcp_solver *sv, char **tok, int nt, int all)
{
    bench_spec s = {.solver = sv};
    bench_settings_default(&s.set);
    for (int k = 0; k < p->nset; k++)
        if (apply_kv(p, &s.set, sv, p->set[k], 0) == 2) return 2;
    char auto_label[640];
    snprintf(auto_label, sizeof auto_label, "%s", sv->name);
    int given = 0;
    for (int t = 2; t < nt; t++) {
        int rc = apply_kv(p, &s.set, sv, tok[t], !all);
        if (rc == 2) return 2;
        if (rc == 0 && strncmp(tok[t], "label=", 6) && strncmp(tok[t], "plot=", 5) &&
            strncmp(tok[t], "reps=", 5) && strncmp(tok[t], "timeout=", 8)) {
            size_t len = strlen(auto_label);
            snprintf(auto_label + len, sizeof auto_label - len, "%s%s", given++ ? ";" : ":",
                     tok[t]);
        }
    }
    if (!s.set.label[0]) {
        if (strlen(auto_label) >= BENCH_LABEL || strpbrk(auto_label, ",\""))
            return perr(p, 2, "label '%s' is too long or holds , or \" (give label=...)",
                        auto_label);
        snprintf(s.set.label, sizeof s.set.label, "%s", auto_label);
    } else if (all) {
        char l[BENCH_LABEL * 2];
        snprintf(l, sizeof l, "%s-%s", s.set.label, sv->name);
        snprintf(s.set.label, sizeof s.set.label, "%.*s", BENCH_LABEL - 1, l);
    }
    return push_spec(p, &s);
}

/* `solver external NAME [KEY=VALUE ...] cmd=COMMAND...': the rest of the line after cmd= is
 * the command (its words joined by single blanks) */
static int external_line(parser *p, char **tok, int nt)
{
    int c = 3;
    while (c < nt && strncmp(tok[c], "cmd=", 4)) c++;
    if (nt < 3 || c == nt || !tok[c][4])
        return perr(p, 2, "solver external: expected NAME [KEY=VALUE ...] cmd=COMMAND");
    if (bench_solver_find(tok[2]) || !strcmp(tok[2], "all") || !strcmp(tok[2], "external"))
        return perr(p, 2, "solver external: '%s' is a registered solver's name", tok[2]);
    char command[4096] = "";
    for (int t = c; t < nt; t++) {
        size_t len = strlen(command);
        snprintf(command + len, sizeof command - len, "%s%s", t > c ? " " : "",
                 t == c ? tok[t] + 4 : tok[t]);
    }
    bench_spec tmp = {0};
    char msg[256];
    if (bench_external_spec(&tmp, tok[2], command, msg, sizeof msg))
        return perr(p, 1, "solver external: %s", msg);
    char *kv[64];
    int n = 0;
    kv[n++] = tok[0];
    kv[n++] = tok[2];
    for (int t = 3; t < c && n < 64; t++) kv[n++] = tok[t];
    int rc = make_spec(p, tmp.solver, kv, n, 0);
    if (rc) {
        bench_external_free(&tmp);
        return rc;
    }
    p->S->spec[p->S->nspec - 1].ext_cmd = tmp.ext_cmd;
    return 0;
}

static int solver_line(parser *p, char **tok, int nt)
{
    if (nt < 2) return perr(p, 2, "solver: expected a solver name");
    if (!strcmp(tok[1], "external")) return external_line(p, tok, nt);
    int all = strcmp(tok[1], "all") == 0, n;
    const lcp_solver *list = bench_solvers(&n);
    const lcp_solver *one = all ? NULL : bench_solver_find(tok[1]);
    if (!all && !one)
        return perr(p, 2, "unknown solver '%s' (lcpbench list solvers)", tok[1]);
    for (int t = 2; all && t < nt; t++) {     /* `all': each key must be used by someone */
        bench_settings scratch;
        int used = 0, rc = 1;
        for (int k = 0; k < n && !used; k++) {
            bench_settings_default(&scratch);
            rc = apply_kv(p, &scratch, &list[k], tok[t], 0);
            if (rc == 2) return 2;
            used = rc == 0;
        }
        if (!used) return perr(p, 2, "no solver uses '%s'", tok[t]);
    }
    for (int k = 0; k < n; k++) {
        if (!all && &list[k] != one) continue;
        int rc = make_spec(p, &list[k], tok, nt, all);
        if (rc) return rc;
    }
    return 0;
}

/* `set KEY=VALUE ...': checked now, applied to each later solver line that uses the key */
static int set_line(parser *p, char **tok, int nt)
{
    for (int t = 1; t < nt; t++) {
        bench_settings scratch;
        bench_settings_default(&scratch);
        if (!strncmp(tok[t], "label=", 6)) return perr(p, 2, "set: label is per solver line");
        if (apply_kv(p, &scratch, NULL, tok[t], 0) != 0) return 2;
        if (p->nset == 64 || strlen(tok[t]) >= sizeof p->set[0])
            return perr(p, 2, "set: too many or too long settings");
        snprintf(p->set[p->nset++], sizeof p->set[0], "%s", tok[t]);
    }
    return 0;
}

static int push_inst(const parser *p, const char *name, const char *path, const char *ref)
{
    bench_suite *S = p->S;
    if (strlen(name) >= BENCH_LABEL || strpbrk(name, ",\""))
        return perr(p, 2, "instance name '%s' is too long or holds , or \"", name);
    for (int k = 0; k < S->ninst; k++)
        if (S->inst[k].block == p->block && strcmp(S->inst[k].name, name) == 0)
            return perr(p, 2, "instance name '%s' is used twice (give name=...)", name);
    if (S->ninst == S->capinst) {
        int cap = S->capinst ? 2 * S->capinst : 16;
        bench_inst *n = lcp_realloc(S->inst, (size_t)cap, sizeof *n);
        if (!n) return perr(p, 1, "out of memory");
        S->inst = n;
        S->capinst = cap;
    }
    bench_inst *I = &S->inst[S->ninst++];
    snprintf(I->name, sizeof I->name, "%s", name);
    snprintf(I->path, sizeof I->path, "%s", path);
    I->ref = ref;
    I->block = p->block;
    I->factor_tol = 1e-12;
    return 0;
}

static int instance_line(parser *p, char **tok, int nt)
{
    if (nt < 2) return perr(p, 2, "instance: expected a folder");
    const char *name = NULL, *ref = NULL;
    int optional = 0;
    char kvbuf[80][256];
    for (int t = 2; t < nt; t++) {
        char *key = NULL, *val = NULL;
        if (split_kv(p, tok[t], kvbuf[t], sizeof kvbuf[t], &key, &val) != 0) return 2;
        if (strcmp(key, "name") == 0) name = val;
        else if (strcmp(key, "ref") == 0) ref = val;
        else if (strcmp(key, "optional") == 0 && (!strcmp(val, "0") || !strcmp(val, "1")))
            optional = val[0] == '1';
        else return perr(p, 2, "instance: unknown key '%s' (name, ref, optional=0|1)", key);
    }
    const lcp_solver *rs = ref ? bench_solver_find(ref) : NULL;
    if (ref && !rs) return perr(p, 2, "ref: unknown solver '%s'", ref);
    char pat[BENCH_PATH];
    if (tok[1][0] == '/' || !p->base || !*p->base) snprintf(pat, sizeof pat, "%s", tok[1]);
    else snprintf(pat, sizeof pat, "%s/%s", p->base, tok[1]);
    glob_t g;
    int gr = glob(pat, 0, NULL, &g);
    if (gr != 0 || g.gl_pathc == 0) {
        if (gr == 0) globfree(&g);
        if (optional) return 0;
        return perr(p, 1, "instance: %s: no such folder", pat);
    }
    if (name && g.gl_pathc > 1) {
        globfree(&g);
        return perr(p, 2, "instance: name= needs a single folder, %s matches several", pat);
    }
    int nd = 0, rc = 0;                            /* the folders among the matches */
    char **dirs = lcp_malloc((g.gl_pathc + 1), sizeof(char *));
    char *names = lcp_calloc(g.gl_pathc + 1, BENCH_LABEL);
    for (size_t k = 0; dirs && k < g.gl_pathc; k++) {
        struct stat st;
        if (stat(g.gl_pathv[k], &st) == 0 && S_ISDIR(st.st_mode)) dirs[nd++] = g.gl_pathv[k];
    }
    if (!dirs || !names) rc = perr(p, 1, "out of memory");
    else if (bench_instance_names(nd, dirs, names, BENCH_LABEL) != 0)
        rc = perr(p, 2, "instance: %s: a folder name is too long (give name=...)", pat);
    for (int k = 0; rc == 0 && k < nd; k++)
        rc = push_inst(p, name ? name : names + (size_t)k * BENCH_LABEL, dirs[k],
                       rs ? rs->name : NULL);
    lcp_free(dirs);
    lcp_free(names);
    globfree(&g);
    return rc;
}

static int scene_line(parser *p, char **tok, int nt)
{
    if (nt < 2) return perr(p, 2, "scene: expected a scene name");
    if (!prob_scene_find(tok[1]))
        return perr(p, 2, "unknown scene '%s' (lcpbench list scenes)", tok[1]);
    if (!p->capdir) return perr(p, 2, "scene lines are not allowed here");
    const char *name = NULL, *ref = NULL;
    long step = -1;
    const char *kv[64];
    int nkv = 0;
    for (int t = 2; t < nt; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq || eq == tok[t]) return perr(p, 2, "'%s': expected KEY=VALUE", tok[t]);
        if (strncmp(tok[t], "name=", 5) == 0) name = eq + 1;
        else if (strncmp(tok[t], "ref=", 4) == 0) ref = eq + 1;
        else if (strncmp(tok[t], "step=", 5) == 0) {
            if (integer(eq + 1, 1, 10000000L, &step) != 0)
                return perr(p, 2, "step: '%s' is not an integer >= 1", eq + 1);
        } else if (nkv < 64) kv[nkv++] = tok[t];
        else return perr(p, 2, "too many parameters");
    }
    if (step < 0) return perr(p, 2, "scene: step=T is required");
    const lcp_solver *rs = ref ? bench_solver_find(ref) : NULL;
    if (ref && !rs) return perr(p, 2, "ref: unknown solver '%s'", ref);
    char nbuf[BENCH_LABEL], dir[BENCH_PATH], msg[4400];
    if (!name) {
        snprintf(nbuf, sizeof nbuf, "%s-step%ld", tok[1], step);
        name = nbuf;
    }
    char safe[BENCH_LABEL];
    bench_safe_name(name, safe, sizeof safe);
    snprintf(dir, sizeof dir, "%s/%s", p->capdir, safe);
    if (!p->force && bench_dir_nonempty(dir))
        return perr(p, 1, "%s exists (use --force to replace it)", dir);
    if (bench_capture_scene(tok[1], nkv, kv, (int)step, dir, msg, sizeof msg) != 0)
        return perr(p, 1, "%s", msg);
    return push_inst(p, name, dir, rs ? rs->name : NULL);
}

int bench_suite_parse(const char *cmd, const char *text, const char *where, const char *base,
                      const char *capdir, int force, bench_suite *S)
{
    memset(S, 0, sizeof *S);
    parser p = {.cmd = cmd, .where = where, .base = base, .capdir = capdir, .force = force,
                .S = S};
    snprintf(S->name, sizeof S->name, "%s", where);
    int rc = 0;
    const char *s = text;
    while (rc == 0 && *s) {
        p.line++;
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char line[4096];
        if (len >= sizeof line) {
            rc = perr(&p, 2, "line too long");
            break;
        }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (e ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *tok[80];
        int nt = 0;
        for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t;
             t = strtok_r(NULL, " \t\r", &save)) {
            if (nt == 80) {
                rc = perr(&p, 2, "too many words");
                break;
            }
            tok[nt++] = t;
        }
        if (rc || nt == 0) continue;
        if (strcmp(tok[0], "suite") == 0) {
            if (nt != 2) rc = perr(&p, 2, "suite: expected one name");
            else snprintf(S->name, sizeof S->name, "%s", tok[1]);
        } else if (strcmp(tok[0], "set") == 0) {
            rc = set_line(&p, tok, nt);
        } else if (strcmp(tok[0], "grid") == 0) {
            if (nt != 1) rc = perr(&p, 2, "grid: takes no arguments");
            p.block++;
        } else if (strcmp(tok[0], "solver") == 0) {
            rc = solver_line(&p, tok, nt);
        } else if (strcmp(tok[0], "instance") == 0) {
            rc = instance_line(&p, tok, nt);
        } else if (strcmp(tok[0], "scene") == 0) {
            rc = scene_line(&p, tok, nt);
        } else {
            rc = perr(&p, 2, "unknown statement '%s' (suite, set, instance, scene, solver, grid)",
                      tok[0]);
        }
    }
    for (int i = 0; rc == 0 && i < S->ninst; i++)      /* (instance, label) names a run */
        for (int j = i + 1; rc == 0 && j < S->ninst; j++) {
            if (strcmp(S->inst[i].name, S->inst[j].name)) continue;
            for (int k = 0; rc == 0 && k < S->nspec; k++)
                for (int l = 0; rc == 0 && l < S->nspec; l++)
                    if (S->spec[k].block == S->inst[i].block &&
                        S->spec[l].block == S->inst[j].block &&
                        !strcmp(S->spec[k].set.label, S->spec[l].set.label)) {
                        bench_error(cmd, "%s: instance '%s' meets label '%s' in two grids "
                                         "(rename one with name= or label=)", where,
                                    S->inst[i].name, S->spec[k].set.label);
                        rc = 2;
                    }
        }
    if (rc == 0 && (S->ninst == 0 || S->nspec == 0)) {
        bench_error(cmd, "%s: the suite needs at least one instance and one solver", where);
        rc = 2;
    }
    if (rc) bench_suite_free(S);
    return rc;
}

int bench_suite_load(const char *cmd, const char *arg, const char *capdir, int force,
                     bench_suite *S)
{
    const char *text = bench_suite_builtin(arg);
    if (text) return bench_suite_parse(cmd, text, arg, ".", capdir, force, S);
    const char *why;
    FILE *f = bench_fopen_read(arg, &why);
    if (!f) {
        if (!strchr(arg, '/') && !strchr(arg, '.') && errno == ENOENT) {
            bench_error(cmd, "unknown suite '%s' (built-in: smoke, amgs, friction; or a file)",
                        arg);
            return 2;
        }
        bench_error(cmd, "%s: cannot read suite file: %s", arg, why);
        return 1;
    }
    size_t cap = 4096, n = 0;
    char *buf = lcp_malloc(cap, 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *b = lcp_realloc(buf, cap *= 2, 1);
            if (!b) {
                lcp_free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        bench_error(cmd, "%s: out of memory", arg);
        return 1;
    }
    buf[n] = 0;
    char base[BENCH_PATH];
    snprintf(base, sizeof base, "%s", arg);
    char *slash = strrchr(base, '/');
    if (slash) *slash = 0;
    else snprintf(base, sizeof base, ".");
    int rc = bench_suite_parse(cmd, buf, arg, base, capdir, force, S);
    lcp_free(buf);
    return rc;
}

int bench_scene_problem(const char *cmd, const char *scene, int nkv, const char *const *kv,
                        int step, const char *dir, lcp_problem *P)
{
    char msg[8400];
    if (bench_capture_scene(scene, nkv, kv, step, dir, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    if (lcp_read_instance(dir, P, msg, sizeof msg) != LCP_OK) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    return 0;
}

/* ---- capture ------------------------------------------------------------------------------- */

int bench_capture_scene(const char *scene, int nkv, const char *const *kv, int step,
                        const char *dir, char *msg, size_t msglen)
{
    lcp_problem P;                   /* in memory, then written: prob_capture_steps's path */
    if (prob_capture_steps(scene, nkv, kv, NULL, 0, 1, &step, &P, msg, msglen) != LCP_OK)
        return -1;
    char why[4400];
    lcp_status st = LCP_ERR_IO;
    if (bench_mkdir_p(dir, why, sizeof why) == 0) st = lcp_write_instance(dir, &P, why, sizeof why);
    if (st == LCP_ERR_IO) bench_write_failed();          /* the folder it fills is incomplete */
    if (st != LCP_OK) snprintf(msg, msglen, "scene %s: %s", scene, why);
    lcp_problem_free(&P);
    return st == LCP_OK ? 0 : -1;
}
