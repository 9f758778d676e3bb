/* prob.h: the scenes of lcpbench and the small velocity-level stepper that captures LCP
 * instances from them (problems/README.md; lcp/README.md, "The problem" and
 * "Instance folders").
 *
 * WORLD.  Bodies are 2D disks (3 dof: x, y, theta) or 3D rigid bodies (6 dof: linear and
 * angular velocity in the world frame).  Geometry is a list of swept spheres in body frame
 * (prob_geom: a segment a-b with radius r; a sphere / disk when a == b) or boxes (3D,
 * prob_add_box: face contacts, collide_box.c), static half-spaces
 * (prob_plane: n.x >= d is free) and bilateral distance joints (prob_joint).  A 2D world uses
 * the same 3-vectors with z = 0.
 *
 * STEP (problems/README.md "The step"), per step of length h:
 *   1. v* = v + h g + h f_k / m_k (gravity acts on every body; f_k = W->force when set; no
 *      gyroscopic term)
 *   2. contacts: sphere-plane and segment-endpoint-plane, sphere-sphere between bodies
 *      through a uniform hash grid (cells of 2 r_max + margin, sorted cell keys); a contact
 *      is kept when its gap g <= margin; normal n from the second body (or the world) to the
 *      first; contacts sorted by identity (a, b, feature a, feature b)
 *   3. rows per contact: normal (lo 0, hi inf) then, when mu > 0, friction rows (2D one
 *      tangent t = (-n_y, n_x); 3D two: t1 = the world axis least aligned with n projected
 *      on the contact plane, t2 = n x t1; lo = -mu, hi = mu, findex = the normal row); then
 *      one bilateral row per joint (lo -inf, hi inf).  With mu = 0 there are no friction
 *      rows and findex is absent: a standard LCP.
 *   4. SPOOK: a = 4/(h(1+4d)), Ups = 1/(1+4d), E_i = 4 eps/(h^2(1+4d)) on every row;
 *      q_n = J_n v* + a g - Ups J_n v_k, q_t = J_t v*, joints q = J v* + a C - Ups J v_k.
 *      POSCORR p in [0, 1] scales the contact bias: q_n = J_n v* + p (a g - Ups J_n v_k)
 *      (joints keep theirs).  p = 0 (no position correction) with eps = 0 makes the LCP the
 *      optimality condition of min |v - v*|_M s.t. J_n v >= 0, which is feasible (v = 0):
 *      it has a solution whenever no restitution target is active (problems/README.md,
 *      "The rigid formulation").
 *      POSCORR = 0 (no position correction): q_n = J_n v* on contact rows (joints keep
 *      theirs); with eps = 0 the LCP is then the optimality condition of
 *      min |v - v*|_M s.t. J_n v >= 0, feasible (v = 0), so it has a solution whenever no
 *      restitution target is active (problems/README.md, "The rigid formulation").
 *      RESTITUTION: when e > 0 and the contact approaches faster than vrest
 *      (J_n v_k < -vrest, vrest default 0.5 m/s), q_n <- min(q_n, J_n v* + e J_n v_k),
 *      i.e. the separating speed after the step is at least e times the approach speed,
 *      less E z (the compliance's share; exact with eps = 0).
 *      A = J Minv J^T + diag(E) is formed by lcp_csr_jmjt (exactly symmetric).
 *   5. solve with the world's solver (registry name, default "pgs", parameters iters sweeps
 *      (default 100; stack 1000) or ||r||_2 <= tol (1e-8)), warm started from the previous
 *      step's impulses of the contact with the same identity (joints: the same joint); new
 *      contacts start at 0.
 *   6. v = v* + Minv J^T z, x += h v, theta += h omega (2D), q += h/2 (0, omega) q and
 *      renormalise (3D).
 * Steps are numbered from 1: step t solves the problem built from the state after t - 1
 * steps.  A hook sees the problem of each step before the solve (capture).
 *
 * SCENES.  A static const registry (prob_scenes()) of {name, description, dim, parameters
 * with defaults, source, setup}.  Every parameter (the scene's and the stepper's: h, d, eps,
 * margin, vrest, poscorr, g, seed, iters, tol) can be set with "key=value" and is written to
 * meta.txt; a scene may override a stepper default (chain: h, d; stack: iters).
 *
 * The library prints nothing and never exits; functions return lcp_status and fill msg.
 */
#ifndef PROB_H
#define PROB_H

#include "lcp.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ------------------------------------------------------------------------ */

typedef enum prob_kind {
    PROB_REAL = 0, /* any finite value */
    PROB_POS,      /* > 0 */
    PROB_NONNEG,   /* >= 0 */
    PROB_COUNT,    /* integer >= 1 */
    PROB_UNIT      /* in [0, 1] */
} prob_kind;

typedef struct prob_param {
    const char *key;  /* e.g. "r" */
    double value;     /* default (in a scene table) or current value */
    prob_kind kind;   /* what values are valid */
    const char *help; /* one line, with the unit */
} prob_param;

enum { PROB_MAX_PARAMS = 40 };

typedef struct prob_params {
    int n;
    prob_param p[PROB_MAX_PARAMS];
} prob_params;

/* ---- world ----------------------------------------------------------------------------- */

typedef struct prob_geom {
    int body;       /* owner */
    double a[3];    /* segment start in body frame */
    double b[3];    /* segment end (== a for a sphere or disk) */
    double r;       /* radius (0 for a box) */
    double half[3]; /* box half extents along the body axes (all > 0: a box centred on the
                     * body's centre of mass, a, b unused; 0: a sphere or segment) */
} prob_geom;

typedef struct prob_plane {
    double n[3];    /* unit normal pointing into free space */
    double d;       /* free side: n.x >= d */
} prob_plane;

typedef enum prob_joint_kind {
    PROB_JOINT_DISTANCE = 0, /* |p_a - p_b| = len: one bilateral row along p_a - p_b */
    PROB_JOINT_AXIS,         /* (p_a - p_b).u = 0 along the world axis u: one bilateral row;
                              * dim of them along x, y (, z) make a pin (prob_add_pin) */
    PROB_JOINT_LIMIT,        /* 2D angle limit C = s (theta_a - theta_b) - len >= 0 (theta_b
                              * = 0 for the world, s = u[2] = +-1): one unilateral row
                              * (lo 0, hi inf), present in a step only when the limit may be
                              * reached in it, C + h min(0, s (omega_a - omega_b)) <= margin
                              * (prob_add_limit) */
    PROB_JOINT_ANGLE         /* 2D angle lock C = theta_a - theta_b - len = 0: one bilateral
                              * row (prob_add_limit with lo = hi) */
} prob_joint_kind;

typedef struct prob_joint {
    int a, b;       /* bodies; b < 0: anchored to the world point pb */
    double pa[3];   /* attachment on a, body frame */
    double pb[3];   /* attachment on b, body frame (world frame when b < 0) */
    double len;     /* rest distance (distance), 0 (axis), the bound angle (limit) */
    int kind;       /* prob_joint_kind; 0 (distance) from prob_add_joint */
    double u[3];    /* axis: the world axis; limit: (0, 0, s); angle: (0, 0, 1) */
} prob_joint;

typedef struct prob_contact {
    int a, b;          /* bodies; b < 0: world plane -1 - b */
    int fa, fb;        /* features: 2 * geom + segment end on a; geom or plane on b;
                        * boxes: negative codes (collide_box.c) */
    double n[3];       /* unit normal from b to a */
    double t1[3], t2[3]; /* tangents (2D: t1 only) */
    double arm_a[3];   /* world offset of a's feature centre from a's centre of mass */
    double arm_b[3];   /* same for b (unused for the world) */
    double ra, rb;     /* feature radii (rb = 0 for the world) */
    double g;          /* gap (negative: penetration) */
    double z[3];       /* impulses: warm start before the solve, answer after */
} prob_contact;

struct prob_scene;

typedef struct prob_world {
    int dim;            /* 2 or 3 */
    int ndof;           /* 3 (2D) or 6 (3D) per body */
    int nb;             /* bodies */
    double *pos;        /* 3 per body: centre of mass (z = 0 in 2D) */
    double *rot;        /* 4 per body: unit quaternion (w, x, y, z); 2D: rot[4k] = theta */
    double *vel;        /* ndof per body: v then omega */
    double *mass;       /* per body */
    double *Ib;         /* 9 per body: inertia in body frame (2D: only Ib[9k+8] = I_zz) */
    double *Ibinv;      /* 9 per body: its inverse */
    unsigned char *collide; /* per body: 1 = takes part in body-body detection */
    int ng, npl, nj;    /* geoms, planes, joints */
    prob_geom *geom;
    prob_plane *plane;
    prob_joint *joint;
    double *zj;         /* nj joint impulses (warm start) */
    double gravity[3];  /* m/s^2 */
    double *force;      /* NULL, or 3 per body: a constant world-frame force (N) on the
                         * centre, so that step 1 reads v* = v + h g + h force_k / m_k */
    double h, d, eps, margin, vrest, mu, e; /* stepper and material (problems/README.md) */
    double poscorr;     /* share of SPOOK's bias on contact rows: 1 (default) all, 0 none
                           (q_n = J_n v*: velocity-level rigid contacts with eps = 0) */
    const lcp_solver *solver; /* default pgs */
    lcp_options opt;    /* warm = 1, max_iter = iters, tol = tol */
    int assemble;       /* 0: a step assembles A = J Minv J^T + diag(E) only when its solve
                         * reads A (a solver not LCP_FACTORED, or options.form assembled) or
                         * a hook is given the problem (capture), and drops it before a
                         * solve that does not read it; 1: every step (the stepper before
                         * 0.4, kept so that a test compares the two) */
    int step;           /* steps done */
    int nc;             /* contacts of the last step */
    prob_contact *c;    /* nc contacts, sorted by identity, impulses of the last solve */
    const struct prob_scene *scene; /* NULL for a hand-built world */
    prob_params params; /* the parameters it was built with */
    const char *notes;  /* scene notes for meta.txt */
    int caps[4];        /* capacities of geom, plane, joint arrays (internal) */
} prob_world;

/* Allocate nb bodies (zeroed; identity orientation; collide = 1) in a dim-D world with the
 * stepper defaults (h 1/60, d 4, eps 1e-6, margin 1e-3, vrest 0.5, g 9.80665 down, pgs
 * with 100 sweeps or tol 1e-8); prob_world_create then applies the scene's parameters. */
lcp_status prob_world_init(prob_world *W, int dim, int nb);
void prob_world_free(prob_world *W); /* accepts a zeroed or freed world */
/* Body k: position, mass, body-frame inertia (3x3 row-major; 2D: NULL and Izz given). */
lcp_status prob_body_set(prob_world *W, int k, const double pos[3], double mass,
                         const double Ib[9], double Izz);
lcp_status prob_add_geom(prob_world *W, int body, const double a[3], const double b[3],
                         double r);
/* A box of half extents half[3] (> 0) centred on body's centre of mass, axes = body axes. */
lcp_status prob_add_box(prob_world *W, int body, const double half[3]);
lcp_status prob_add_plane(prob_world *W, const double n[3], double d);
lcp_status prob_add_joint(prob_world *W, int a, int b, const double pa[3],
                          const double pb[3], double len);
/* A pin: point pa of a on point pb of b (world point when b < 0) as dim PROB_JOINT_AXIS rows
 * along the world axes x, y (, z).  The explicit steppers of steppers.c (ivts, pbd, ...)
 * and the modal analysis know distance joints only. */
lcp_status prob_add_pin(prob_world *W, int a, int b, const double pa[3], const double pb[3]);
/* 2D: the relative angle phi = theta_a - theta_b (theta_b = 0 when b < 0) kept in
 * [lo, hi] (lo <= 0 <= hi) by two PROB_JOINT_LIMIT rows, phi - lo >= 0 and hi - phi >= 0;
 * lo = hi = 0 locks it with one PROB_JOINT_ANGLE row (two opposite limit rows would make a
 * singular pair). */
lcp_status prob_add_limit(prob_world *W, int a, int b, double lo, double hi);
/* Set the constant force on body k's centre (allocates W->force, zero elsewhere). */
lcp_status prob_body_force(prob_world *W, int k, const double f[3]);
/* Choose the solver by registry name with a sweep cap and tolerance (tol < 0: fixed); the
 * other options (omega, order, beta, gamma) are reset to lcp_options_default and may then be
 * set in W->opt (they are written to meta.txt). */
lcp_status prob_world_set_solver(prob_world *W, const char *name, int max_iter, double tol);

/* ---- stepping -------------------------------------------------------------------------- */

typedef struct prob_step_info {
    int step;              /* number of this step (from 1) */
    int bodies, contacts, rows;
    int warm_matched;      /* contacts that found their previous impulses */
    lcp_status status;     /* the solver's status */
    int iterations;        /* sweeps */
    double residual;       /* ||r||_2 by lcp_residual */
    double max_penetration;/* max(0, -g) over this step's contacts (before the solve) */
    double kinetic_energy; /* after the step */
    int assembled;         /* 1: A was assembled (a solve or a hook read it: W->assemble) */
    double t_collide, t_build, t_capture, t_solve, t_total; /* seconds (capture: the hook) */
} prob_step_info;

/* Called with the problem of a step before the solve (z0 = the warm start). */
typedef lcp_status prob_hook_fn(void *ctx, const prob_world *W, const lcp_problem *P,
                                int step);

/* One step; hook may be NULL.  On error the world is left at its last good state. */
lcp_status prob_step(prob_world *W, prob_hook_fn *hook, void *ctx, prob_step_info *info,
                     char *msg, size_t msglen);

double prob_kinetic_energy(const prob_world *W);
/* position of body k's point p (body frame) in the world */
void prob_body_point(const prob_world *W, int k, const double p[3], double out[3]);

/* ---- scenes ------------------------------------------------------------------------------ */

typedef lcp_status prob_setup_fn(prob_world *W, const prob_params *P, char *msg,
                                 size_t msglen);

typedef struct prob_scene {
    const char *name;        /* registry / CLI name */
    const char *description; /* one line */
    int dim;                 /* 2 or 3 */
    const prob_param *defaults; /* the scene's parameters, ended by key NULL */
    const char *source;      /* where it comes from */
    prob_setup_fn *setup;
} prob_scene;

const prob_scene *prob_scenes(int *count);
const prob_scene *prob_scene_find(const char *name); /* NULL when unknown */

/* Fill P with the scene's defaults and the stepper's (h, d, eps, margin, vrest, g, seed,
 * iters, tol) unless the scene sets them. */
void prob_params_default(const prob_scene *s, prob_params *P);
/* Set one "key=value" (value may be a fraction "1/60"); checks the key and the kind. */
lcp_status prob_params_set(prob_params *P, const char *kv, char *msg, size_t msglen);
/* Value of key (NaN when absent). */
double prob_param_get(const prob_params *P, const char *key);

/* Build the scene's world from its parameters (validated; "does not fit" is an error); the
 * solver is pgs with the iters and tol parameters (prob_world_set_solver changes it). */
lcp_status prob_world_create(prob_world *W, const prob_scene *s, const prob_params *P,
                             char *msg, size_t msglen);

/* The world of scene `scene' with nkv "key=value" parameters (prob_scene_find,
 * prob_params_default, prob_params_set, prob_world_create; capture.c).  LCP_OK, or the
 * status with msg: "unknown scene 'NAME'", a parameter's message, or the scene's. */
lcp_status prob_scene_world(prob_world *W, const char *scene, int nkv, const char *const *kv,
                            char *msg, size_t msglen);

/* ---- capture in memory (capture.c) -------------------------------------------------------- */

/* Deep copy of a problem (Q lcp_problem_init'ed by the call).  LCP_OK or LCP_ERR_NOMEM. */
lcp_status prob_problem_copy(const lcp_problem *P, lcp_problem *Q);

enum { PROB_CAPTURE_DESCRIPTORS = 1u }; /* meta as `lcpbench capture' writes it: with the
                                           descriptors (prob_meta_descriptors; dense ranks) */
/* Step scene (with nkv "key=value" parameters; solver: the stepper's solver by registry name,
 * NULL for the scene's pgs) once up to the last of nstep increasing steps (from 1) and copy
 * the problem of each (before its solve, z0 = the stepper's warm start) into out[k]
 * (lcp_problem_free each).  The problems `lcpbench capture SCENE --at STEPS' writes.  LCP_OK,
 * or the status with msg (out[] freed) as `lcpbench capture' words it: "unknown scene 'NAME'
 * (lcpbench list scenes)", "SCENE: " and a parameter's, the scene's or a step's message,
 * "cannot use solver 'NAME'", "SCENE step T has no constraints: nothing to capture". */
lcp_status prob_capture_steps(const char *scene, int nkv, const char *const *kv,
                              const char *solver, unsigned flags, int nstep, const int *steps,
                              lcp_problem *out, char *msg, size_t msglen);

/* meta.txt text for the problem of step `step' (allocated with the library's
 * wrapper, lcp_alloc.h, as lcp_problem_free frees P.meta; NULL when out of memory):
 * scene, step, dim, bodies, dofs, contacts, joints, rows, solver, omega, order (beta and
 * gamma when set), every parameter (h, mu, seed, iters, tol, ...), the SPOOK, restitution
 * and friction rules, source, notes. */
char *prob_meta(const prob_world *W, int step, int contacts, int rows);

/* ---- descriptors (problems/README.md "Descriptors") ------------------------------------- */

typedef struct prob_desc {
    int rows, contacts, bodies; /* contacts: the contacts' normal rows (contact points) */
    int limit_rows;          /* joint-limit rows: lo = 0, hi = inf, J on angular coordinates
                              * only (J_l = [0, s | 0, -s]); not contacts */
    int bilateral;           /* rows with lo = -inf and hi = +inf (joints) */
    double bilateral_share;  /* bilateral / rows */
    double mass_ratio;       /* max / min body mass */
    double mu;               /* the friction coefficient of the world */
    int self_stress;         /* dim null(J_C^T) = |C| - rank(J_C), C = the contact rows
                              * (normal and friction; not the limit rows); -1: not computed
                              * (|C| n > 4e6) */
    int self_stress_normal;  /* the same on the normal rows only (lo = 0, hi = inf) */
    double cond;             /* lambda_max / lambda_min+ of A by Lanczos (prob_lanczos_cond,
                              * seed 1); -1: not computed (too large, or A u = 0) */
    double lambda_max, lambda_min; /* its two Ritz values (lambda_min: on range(A)) */
    int lanczos_steps, lanczos_exact;
} prob_desc;

/* ---- the condition of A on its range (lanczos.c) ---------------------------------------- */

typedef struct prob_cond {
    double cond;        /* lambda_max / lambda_min */
    double lambda_max;  /* the largest Ritz value */
    double lambda_min;  /* the smallest Ritz value above 1e-10 lambda_max: on range(A) */
    int steps;          /* Lanczos steps k (<= min(m, 200)) */
    int exact;          /* 1: breakdown or k = m, the Ritz values are eigenvalues of A on
                         * the Krylov space's invariant subspace (to rounding); 0: cond is a
                         * lower bound */
} prob_cond;

/* Lanczos with full reorthogonalisation on the symmetric PSD A (or J Minv J^T + diag(E)
 * without A), started from A u, u uniform from splitmix64(seed).  LCP_OK, LCP_ERR_ARG,
 * LCP_ERR_NOMEM, LCP_ERR_TOO_LARGE (min(m, 200) m > 4e7), LCP_ERR_SINGULAR (A u = 0),
 * LCP_ERR_BREAKDOWN (LAPACK).  Cost O(k nnz(A) + k^2 m). */
lcp_status prob_lanczos_cond(const lcp_problem *P, uint64_t seed, prob_cond *C);

/* The descriptors of the problem P (with J) of world W; contacts = the normal rows of the
 * contacts (a unilateral row with an entry on a body's linear coordinates), limit_rows = the
 * unilateral rows on angular coordinates only (joint limits).  The
 * ranks by prob_rank on the dense rows (cost O(|C| n min(|C|, n))).  LCP_OK, LCP_ERR_ARG
 * (no J). */
lcp_status prob_descriptors(const prob_world *W, const lcp_problem *P, prob_desc *D);

/* A new text (lcp_alloc.h): P->meta followed by the descriptors as meta.txt lines
 * (mass_ratio, bilateral_rows, bilateral_share, limit_rows, self_stress, self_stress_normal,
 * cond_lanczos, lambda_max, lambda_min_range, lanczos_steps, lanczos_exact); NULL when
 * out of memory or without J.  For `lcpbench capture': the stepper's hooks get P->meta
 * without them (the ranks cost a dense QR). */
char *prob_meta_descriptors(const prob_world *W, const lcp_problem *P);

#ifdef __cplusplus
}
#endif
#endif /* PROB_H */
