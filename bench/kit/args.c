/* args.c: the one argument parser of the subcommands (bench/README.md, "Layout").
 *
 * Each subcommand describes its options as a table of bench_arg {name, kind, to, fn, help}
 * and its other words (instances, a scene, a folder) by one handler; bench_args_parse walks
 * argv[1..argc-1] once, in order:
 *   --help or -h               stop, return BENCH_ARGS_HELP (the caller prints its help and
 *                              chooses its exit status)
 *   NAME of a FLAG entry       *(int *)to = 1, or fn(cmd, NULL, to)
 *   NAME V or NAME=V (VALUE)   *(const char **)to = V, or fn(cmd, V, to); a missing V is
 *                              `lcpbench CMD: NAME needs a value' (bench_opt)
 *   NAME W... (WORDS)          every word up to the next option, as a bench_words into to;
 *                              none: fn(cmd, NULL, to), which says why
 *   an option of no entry      p->option (the settings of solve), else `unknown option'
 *   any other word             p->word(cmd, WORD, p->word_to)
 * A handler returns 0, or non-zero after one line on stderr; the parser then returns 2
 * (usage error) at once, so later arguments are not looked at, as before.
 * Cost O(argc x entries).  A lone "-" is a word (standard input's name) unless p->dash. */
#include "kit.h"

#include <string.h>

static const bench_arg *find(const bench_args *p, const char *a)
{
    for (int e = 0; e < p->narg; e++) {
        const bench_arg *t = &p->arg[e];
        size_t n = strlen(t->name);
        if (strncmp(a, t->name, n) != 0) continue;
        if (a[n] == 0 || (a[n] == '=' && t->kind == BENCH_ARG_VALUE)) return t;
    }
    return NULL;
}

/* one option of the table at argv[*k]: 0 taken, 2 refused */
static int take(const bench_args *p, const bench_arg *t, int argc, char **argv, int *k)
{
    const char *v = NULL;
    if (t->kind == BENCH_ARG_FLAG) {
        if (t->fn) return t->fn(p->cmd, NULL, t->to) ? 2 : 0;
        *(int *)t->to = 1;
        return 0;
    }
    if (t->kind == BENCH_ARG_WORDS) {
        bench_words *w = t->to;
        int n = 0;
        while (*k + 1 + n < argc && argv[*k + 1 + n][0] != '-') n++;
        if (n == 0) return t->fn && t->fn(p->cmd, NULL, t->to) == 0 ? 0 : 2;
        w->v = argv + *k + 1;
        w->n = n;
        *k += n;
        return 0;
    }
    if (bench_opt(argc, argv, k, t->name, &v) < 0) return 2;
    if (t->fn) return t->fn(p->cmd, v, t->to) ? 2 : 0;
    *(const char **)t->to = v;
    return 0;
}

int bench_args_parse(const bench_args *p, int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return BENCH_ARGS_HELP;
        const bench_arg *t = find(p, a);
        int r = 0;
        if (t) {
            if (take(p, t, argc, argv, &k)) return 2;
            continue;
        }
        if (p->option && (r = p->option(p->option_to, argc, argv, &k)) != 0) {
            if (r < 0) return 2;
            continue;
        }
        if (a[0] == '-' && (a[1] || p->dash)) {
            bench_error(p->cmd, "unknown option '%s' (lcpbench %s --help)", a, p->cmd);
            return 2;
        }
        if (!p->word || p->word(p->cmd, a, p->word_to) != 0) return 2;
    }
    return 0;
}

int bench_arg_style(const char *cmd, const char *v, void *to)
{
    return bench_style_parse(cmd, v, to) != 0;
}

int bench_arg_factor_tol(const char *cmd, const char *v, void *to)
{
    return bench_parse_factor_tol(cmd, v, to) != 0;
}
