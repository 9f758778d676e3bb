/* scenes.c: the scene registry (a static const table: name, description, dim, parameters
 * with defaults, source, setup), the parameters shared by every scene (the stepper's:
 * h, d, eps, margin, vrest, poscorr, g, seed, iters, tol), "key=value" parsing with validation, the
 * building of
 * a world from a scene and its parameters, and the meta.txt text of a captured step.
 * Sources of the scenes: problems/README.md; each scene's file documents its layout.
 */
#include "prob_internal.h"
#include "scenes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* the stepper's parameters, appended to every scene's unless the scene sets its own default */
static const prob_param stepper_params[] = {
    {"h", 1.0 / 60.0, PROB_POS, "time step (s)"},
    {"d", 4.0, PROB_NONNEG, "SPOOK relaxation d = tau / h (steps)"},
    {"eps", 1e-6, PROB_NONNEG, "SPOOK compliance (m/N), E_i = 4 eps / (h^2 (1 + 4 d))"},
    {"margin", 1e-3, PROB_NONNEG, "contacts are kept when their gap is <= margin (m)"},
    {"vrest", 0.5, PROB_NONNEG, "restitution applies above this approach speed (m/s)"},
    {"poscorr", 1.0, PROB_UNIT, "share p of SPOOK's contact bias, q_n = J_n v* + p (a g - "
                                "Ups J_n v_k); 0: none (with eps 0 the rigid formulation)"},
    {"g", 9.80665, PROB_NONNEG, "gravity (m/s^2), along -y (2D) or -z (3D)"},
    {"seed", 1.0, PROB_NONNEG, "seed of the layout generator (integer)"},
    {"iters", 100, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {"tol", 1e-8, PROB_REAL, "solver tolerance on ||r||_2, < 0: always iters sweeps (--tol)"},
    {NULL, 0.0, PROB_REAL, NULL},
};

static const prob_scene registry[] = {
    {"pool", "Pool 1 (AMGS): 221 disks r 0.21 m 2 kg fall into a 6 m wide container", 2,
     prob_pool_params, "Miyamoto et al. 2019 (arXiv 1910.09873), Pool 1", prob_setup_pool},
    {"pool-graded", "Pool 2 (AMGS): as pool, masses 1 to 3 kg growing with initial height", 2,
     prob_pool_graded_params, "Miyamoto et al. 2019 (arXiv 1910.09873), Pool 2",
     prob_setup_pool_graded},
    {"stack", "Stacking (AMGS): a vertical column of disks r 0.18 m 1 kg on the floor", 2,
     prob_stack_params, "Miyamoto et al. 2019 (arXiv 1910.09873), Stacking", prob_setup_stack},
    {"spheres", "a pile of spheres r 0.1 m 1 kg in a box (SPOOK, box friction, 2 tangents)", 3,
     prob_spheres_params, "Lacoursiere, Using Gauss-Seidel for multibody problems (2013)",
     prob_setup_spheres},
    {"capsule", "a capsule 10 kg sliding on a plane at 10 m/s, 1 rad/s: 2 contacts, 6 rows",
     3, prob_capsule_params, "Andrews, Erleben, Kry, Teichmann 2017, capsule",
     prob_setup_capsule},
    {"three-spheres", "a rigid body of three spheres sliding on a plane: 3 contacts, 9 rows",
     3, prob_three_spheres_params, "Andrews, Erleben, Kry, Teichmann 2017, three spheres",
     prob_setup_three_spheres},
    {"chain", "20 particles 0.1 kg on rigid 0.1 m links, hanging from a point, released level",
     2, prob_chain_params, "Francu, Transversal stability of constraints (2018)",
     prob_setup_chain},
    {"pendulum", "one particle 0.1 kg on a rigid 1 m link, released level (the chain of one)",
     2, prob_pendulum_params, "Francu, Transversal stability of constraints (2018)",
     prob_setup_pendulum},
    {"towed", "20 beads 0.1 kg on rigid 0.1 m links towed along +x by 10 N, no gravity", 2,
     prob_towed_params, "Francu (2018), transversal stability: fixed-free beaded string",
     prob_setup_towed},
    {"hang", "20 beads 0.1 kg hanging on rigid 0.1 m links, end mass 100x", 2,
     prob_hang_params, "Andrews, Teichmann, Kry (2017), mass ratios; Francu (2018)",
     prob_setup_hang},
    {"thread", "horizontal thread of 20 beads with alternating vertical speeds (h V/L 3.3)",
     2, prob_thread_params, "Francu, Implicit velocity projection (2018): extreme velocities",
     prob_setup_thread},
    {"slide", "a flat body on four spheres sliding at an angle to t1: box vs cone friction",
     3, prob_slide_params, "Lacoursiere 2013, Sec. 2: box friction, not maximally dissipative",
     prob_setup_slide},
    {"boxes", "boxes face on face, 4 contacts per face pair: a tower of n or a wall of bricks",
     3, prob_boxes_params, "hard families: redundant face contacts (box stacks as in FCLIB)",
     prob_setup_boxes},
    {"mass-ratio", "a column of 5 disks, the top one 100x heavier (reverse=1: lighter)", 2,
     prob_mass_ratio_params, "hard families: mass ratios 1 to 1e4 (Andrews et al. 2017)",
     prob_setup_mass_ratio},
    {"links", "10 rigid links 0.1 m 0.1 kg on pins with +-0.5 rad angle limits, hanging "
     "(pose=1: draped over a disk)", 2, prob_links_params,
     "hard families: jointed chains, bilateral pins and unilateral joint limits",
     prob_setup_links},
    {"silo", "a silo: 120 disks r 0.05 m (10% spread) in a container 4.5 disks wide, mu 0.5", 2,
     prob_silo_params, "hard families: tall granular columns, wall friction (Janssen)",
     prob_setup_silo},
    {"kapla", "a Kapla-like tower: 6 crossed layers of two 12 x 2.4 x 0.8 cm plates", 3,
     prob_kapla_params, "hard families: thin plates of aspect ratio 1:3:15, crossed layers",
     prob_setup_kapla},
};

const prob_scene *prob_scenes(int *count)
{
    if (count) *count = (int)(sizeof registry / sizeof registry[0]);
    return registry;
}

const prob_scene *prob_scene_find(const char *name)
{
    int n;
    const prob_scene *s = prob_scenes(&n);
    for (int k = 0; name && k < n; k++)
        if (strcmp(s[k].name, name) == 0) return &s[k];
    return NULL;
}

void prob_params_default(const prob_scene *s, prob_params *P)
{
    P->n = 0;
    for (const prob_param *p = s ? s->defaults : NULL; p && p->key && P->n < PROB_MAX_PARAMS;
         p++)
        P->p[P->n++] = *p;
    for (const prob_param *p = stepper_params; p->key && P->n < PROB_MAX_PARAMS; p++)
        if (isnan(prob_param_get(P, p->key))) P->p[P->n++] = *p; /* a scene may override */
}

double prob_param_get(const prob_params *P, const char *key)
{
    for (int k = 0; k < P->n; k++)
        if (strcmp(P->p[k].key, key) == 0) return P->p[k].value;
    return NAN;
}

/* "x" or "a/b" */
static int parse_value(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno) return -1;
    if (*end == '/') {
        const char *s2 = end + 1;
        double y = strtod(s2, &end);
        if (end == s2 || errno || y == 0.0) return -1;
        x /= y;
    }
    if (*end != '\0' || !isfinite(x)) return -1;
    *v = x;
    return 0;
}

static const char *kind_rule(prob_kind k)
{
    switch (k) {
    case PROB_POS: return "> 0";
    case PROB_NONNEG: return ">= 0";
    case PROB_COUNT: return "an integer >= 1";
    case PROB_UNIT: return "in [0, 1]";
    default: return "finite";
    }
}

lcp_status prob_params_set(prob_params *P, const char *kv, char *msg, size_t msglen)
{
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq || eq == kv) {
        snprintf(msg, msglen, "parameter '%s': expected key=value", kv ? kv : "");
        return LCP_ERR_ARG;
    }
    size_t klen = (size_t)(eq - kv);
    prob_param *p = NULL;
    for (int k = 0; k < P->n; k++)
        if (strlen(P->p[k].key) == klen && strncmp(P->p[k].key, kv, klen) == 0) p = &P->p[k];
    if (!p) {
        int off = snprintf(msg, msglen, "unknown parameter '%.*s' (known:", (int)klen, kv);
        for (int k = 0; k < P->n && off >= 0 && (size_t)off < msglen; k++)
            off += snprintf(msg + off, msglen - (size_t)off, " %s", P->p[k].key);
        if (off >= 0 && (size_t)off < msglen) snprintf(msg + off, msglen - (size_t)off, ")");
        return LCP_ERR_ARG;
    }
    double v;
    if (parse_value(eq + 1, &v) != 0) {
        snprintf(msg, msglen, "parameter %s: '%s' is not a finite number", p->key, eq + 1);
        return LCP_ERR_ARG;
    }
    int good = 1;
    switch (p->kind) {
    case PROB_POS: good = v > 0.0; break;
    case PROB_NONNEG: good = v >= 0.0; break;
    case PROB_COUNT: good = v >= 1.0 && v <= 1e7 && v == floor(v); break;
    case PROB_UNIT: good = v >= 0.0 && v <= 1.0; break;
    default: break;
    }
    if (strcmp(p->key, "seed") == 0) good = good && v == floor(v) && v < 9007199254740992.0;
    if (!good) {
        snprintf(msg, msglen, "parameter %s = %s: must be %s", p->key, eq + 1,
                 strcmp(p->key, "seed") == 0 ? "an integer >= 0" : kind_rule(p->kind));
        return LCP_ERR_ARG;
    }
    p->value = v;
    return LCP_OK;
}

lcp_status prob_world_create(prob_world *W, const prob_scene *s, const prob_params *P,
                             char *msg, size_t msglen)
{
    if (!W || !s || !P) return LCP_ERR_ARG;
    if (msg && msglen) msg[0] = 0;
    memset(W, 0, sizeof *W);
    lcp_status st = s->setup(W, P, msg, msglen);
    if (st != LCP_OK) {
        if (msg && !msg[0]) snprintf(msg, msglen, "scene %s: %s", s->name, lcp_status_str(st));
        prob_world_free(W);
        return st;
    }
    W->scene = s;
    W->params = *P; /* before prob_world_set_solver below, which keeps iters and tol true */
    W->h = prob_param_get(P, "h");
    W->d = prob_param_get(P, "d");
    W->eps = prob_param_get(P, "eps");
    W->margin = prob_param_get(P, "margin");
    W->vrest = prob_param_get(P, "vrest");
    W->poscorr = prob_param_get(P, "poscorr");
    double g = prob_param_get(P, "g"), mu = prob_param_get(P, "mu"), e = prob_param_get(P, "e");
    memset(W->gravity, 0, sizeof W->gravity);
    W->gravity[W->dim == 2 ? 1 : 2] = -g;
    W->mu = isnan(mu) ? 0.0 : mu;
    W->e = isnan(e) ? 0.0 : e;
    return prob_world_set_solver(W, "pgs", (int)prob_param_get(P, "iters"),
                                 prob_param_get(P, "tol"));
}

/* append to a growing string; returns 0 or -1 when out of memory */
static int put(char **s, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int put(char **s, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(*s + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (k < 0) return -1;
        if ((size_t)k < *cap - *len) {
            *len += (size_t)k;
            return 0;
        }
        size_t nc = 2 * *cap + (size_t)k;
        char *p = lcp_realloc(*s, nc, 1);
        if (!p) return -1;
        *s = p;
        *cap = nc;
    }
}

/* shortest %.*g text of v that reads back exactly (so 0.21 prints as 0.21) */
static void exact(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, len, "%.0f", v);                     /* integers without exponent */
        return;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (strtod(buf, NULL) == v) return;
    }
}

char *prob_meta(const prob_world *W, int step, int contacts, int rows)
{
    size_t len = 0, cap = 1024;
    char *s = lcp_malloc(cap, 1);
    if (!s) return NULL;
    s[0] = 0;
    int bad = 0;
    const char *name = W->scene ? W->scene->name : "custom";
    bad |= put(&s, &len, &cap, "scene = %s\nstep = %d\ndim = %d\nbodies = %d\ndofs = %d\n",
               name, step, W->dim, W->nb, W->nb * W->ndof);
    bad |= put(&s, &len, &cap, "contacts = %d\njoints = %d\nrows = %d\n", contacts, W->nj,
               rows);
    if (isnan(prob_param_get(&W->params, "mu")))
        bad |= put(&s, &len, &cap, "mu = 0\n");                 /* no friction parameter */
    bad |= put(&s, &len, &cap, "solver = %s\nomega = %.17g\norder = %s\n", W->solver->name,
               W->opt.omega, lcp_order_name(W->opt.order));
    if (W->opt.beta != 0.0 || W->opt.gamma != 1.0)
        bad |= put(&s, &len, &cap, "beta = %.17g\ngamma = %.17g\n", W->opt.beta, W->opt.gamma);
    for (int k = 0; k < W->params.n; k++) {
        char v[32];
        exact(v, sizeof v, W->params.p[k].value);
        bad |= put(&s, &len, &cap, "%s = %s\n", W->params.p[k].key, v);
    }
    bad |= put(&s, &len, &cap,
               "spook = a = 4/(h(1+4d)), Ups = 1/(1+4d), E = 4 eps/(h^2(1+4d))\n"
               "restitution = q_n = min(q_n, J_n v* + e J_n v_k) when J_n v_k < -vrest\n"
               "friction = box, lo = -mu, hi = mu, findex = normal row%s\n",
               W->dim == 3 ? ", tangents t1 = least aligned world axis, t2 = n x t1" : "");
    bad |= put(&s, &len, &cap, "source = %s\nnotes = %s\n",
               W->scene ? W->scene->source : "custom", W->notes ? W->notes : "");
    if (bad) {
        lcp_free(s);
        return NULL;
    }
    return s;
}
