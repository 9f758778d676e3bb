/* step.c: one step of the velocity-level stepper (problems/README.md "The step"):
 *
 *   v* = v + h g + h f / m   (f: the constant force W->force, when set)
 *   rows: contact normal   J_n = [ n, r_a x n | -n, -(r_b x n) ]        lo 0,   hi inf
 *         contact tangent  J_t = [ t, r_a x t | -t, -(r_b x t) ]        lo -mu, hi mu,
 *                          findex = the normal row (only when mu > 0)
 *         joint            J_j = [ n, s_a x n | -n, -(s_b x n) ],  n = (p_a - p_b)/|.|, lo -inf
 *                          (distance; an axis joint: n = its world axis u, C = (p_a - p_b).u)
 *         limit (2D)       J_l = [ 0, s | 0, -s ],  C = s (theta_a - theta_b) - bound, lo 0,
 *                          present only when C + h min(0, J_l v_k) <= margin; an angle lock
 *                          the same row with s = 1, lo -inf (prob_joint_kind)
 *         (r = lever arm to the contact point on each body, s to the attachment point;
 *          2D keeps (x, y) of the linear part and z of the angular part)
 *   SPOOK: a = 4/(h(1+4d)), Ups = 1/(1+4d), E_i = 4 eps/(h^2(1+4d))
 *         q_n = J_n v* + a g - Ups J_n v_k,  q_t = J_t v*,  q_j = J_j v* + a C - Ups J_j v_k
 *   poscorr p in [0, 1] scales the contact bias (default 1; 0: none, q_n = J_n v*):
 *         q_n = J_n v* + p (a g - Ups J_n v_k), then the restitution rule
 *   restitution: if e > 0 and J_n v_k < -vrest:  q_n = min(q_n, J_n v* + e J_n v_k)
 *   A = J Minv J^T + diag(E) (lcp_csr_jmjt), Minv = blockdiag(1/m I, R Ib^-1 R^T),
 *       assembled only when something reads it: a solver that is not LCP_FACTORED or is
 *       told the assembled form, a hook (capture writes A), or W->assemble.  A matrix-free
 *       solve never reads A, and the loop's residuals (lcp_residual) take the factors'
 *       product J (Minv (J^T z)) + E z + q instead: the same w to rounding, and the same
 *       steps bit for bit unless a residual lies within rounding of tol (a test checks a
 *       pile: tests/problems/test_step_lean.c).  A hook's A is dropped before a solve that
 *       does not read it, so a capture steps as a simulation does.
 *   warm start: z0 = the previous step's impulses of the contact with the same identity
 *   v = v* + Minv J^T z;  x += h v;  2D theta += h omega;  3D q += h/2 (0, omega) q, |q| = 1
 *   ordering `height' (W->opt.order): the solve gets options.rowkey = each row's height,
 *   the coordinate of its contact point on body a (joints: of the attachment midpoint)
 *   along -gravity (y in 2D, z in 3D when g is zero), so Gauss-Seidel visits bottom-up
 *
 * Cost per step: detection O(N log N + pairs), assembly O(nnz(J)) (+ O(nnz(A)) when A is
 * assembled), the solve, and O(N) integration.  Source: Lacoursiere, "Using Gauss-Seidel for multibody problems" (SPOOK).
 */
#include "prob_internal.h"

#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* heights of the rows (row_heights, ordering `height'): m keys, lcp_malloc'd; NULL on
 * failure */
static double *row_heights(const prob_world *W, const prob_contact *c, int nc, int rpc,
                           const double *R, const int *jrow, int njr)
{
    int m = nc * rpc + njr;
    double *key = lcp_malloc((size_t)m + 1, sizeof(double));
    if (!key) return NULL;
    double up[3] = {-W->gravity[0], -W->gravity[1], -W->gravity[2]};
    double gn = sqrt(v3_dot(up, up));
    if (gn > 0.0)
        for (int i = 0; i < 3; i++) up[i] /= gn;
    else up[0] = 0.0, up[1] = W->dim == 2 ? 1.0 : 0.0, up[2] = W->dim == 2 ? 0.0 : 1.0;
    for (int k = 0; k < nc; k++) {
        double p[3];
        for (int i = 0; i < 3; i++)
            p[i] = W->pos[3 * c[k].a + i] + c[k].arm_a[i] - c[k].ra * c[k].n[i];
        for (int f = 0; f < rpc; f++) key[k * rpc + f] = v3_dot(p, up);
    }
    for (int j = 0; j < W->nj; j++) {
        const prob_joint *J = &W->joint[j];
        if (jrow[j] < 0) continue;
        double sa[3], sb[3] = {0, 0, 0}, p[3];
        m3_apply(R + 9 * J->a, J->pa, sa);
        if (J->b >= 0) m3_apply(R + 9 * J->b, J->pb, sb);
        for (int i = 0; i < 3; i++)
            p[i] = 0.5 * (W->pos[3 * J->a + i] + sa[i] +
                          (J->b >= 0 ? W->pos[3 * J->b + i] + sb[i] : J->pb[i]));
        key[nc * rpc + jrow[j]] = v3_dot(p, up);
    }
    return key;
}

/* 1 when the step's solve reads A: a solver without a matrix-free form that never reads A
 * (LCP_FACTORED), one told the assembled form, or a world that always assembles */
static int solve_reads_A(const prob_world *W)
{
    return W->assemble || !(W->solver->needs & LCP_FACTORED) ||
           W->opt.form == LCP_FORM_ASSEMBLED;
}

/* J built row by row straight into CSR, plus the row's J v* and J v_k */
typedef struct rowbuild {
    const prob_world *W;
    const double *vs, *vk;
    lcp_csr *J;   /* allocated with room for every entry; p[r + 1] set as rows end */
    int nt;       /* entries so far */
    double jvs, jvk;
} rowbuild;

/* add sign * [lin, ang] of body k to the current row (2D: x, y, ang_z) */
static void emit(rowbuild *B, int k, double sign, const double lin[3], const double ang[3])
{
    const prob_world *W = B->W;
    int base = W->ndof * k;
    double val[6];
    int cnt;
    if (W->dim == 2) {
        val[0] = lin[0], val[1] = lin[1], val[2] = ang[2];
        cnt = 3;
    } else {
        for (int i = 0; i < 3; i++) val[i] = lin[i], val[3 + i] = ang[i];
        cnt = 6;
    }
    for (int i = 0; i < cnt; i++) {
        double x = sign * val[i];
        if (x == 0.0) continue;                    /* keep J sparse: exact zeros dropped */
        B->J->j[B->nt] = base + i;
        B->J->x[B->nt++] = x;
        B->jvs += x * B->vs[base + i];             /* J v* */
        B->jvk += x * B->vk[base + i];             /* J v_k */
    }
}

/* row r = [lin, ang_a] on body a and -[lin, ang_b] on body b (if b >= 0); rows must come in
 * order 0, 1, ... */
static void emit_row(rowbuild *B, int r, int a, int b, const double lin[3],
                     const double ang_a[3], const double ang_b[3])
{
    int start = B->nt;
    B->jvs = B->jvk = 0.0;
    emit(B, a, 1.0, lin, ang_a);
    if (b >= 0) emit(B, b, -1.0, lin, ang_b);
    int *j = B->J->j;
    double *x = B->J->x;
    for (int k = start + 1; k < B->nt; k++)        /* columns ascending (b < a: joints) */
        for (int t = k; t > start && j[t - 1] > j[t]; t--) {
            int tj = j[t];
            double tx = x[t];
            j[t] = j[t - 1], x[t] = x[t - 1];
            j[t - 1] = tj, x[t - 1] = tx;
        }
    B->J->p[r + 1] = B->nt;
}

/* row r along direction u with lever arms la (body a) and lb (body b, if b >= 0) */
static void emit_dir(rowbuild *B, int r, int a, int b, const double u[3], const double la[3],
                     const double lb[3])
{
    double anga[3], angb[3] = {0, 0, 0};
    v3_cross(la, u, anga);                         /* r_a x u */
    if (b >= 0) v3_cross(lb, u, angb);             /* r_b x u */
    emit_row(B, r, a, b, u, anga, angb);
}

/* the limit's C = s (theta_a - theta_b) - len (2D) and its rate s (omega_a - omega_b) at v */
static double limit_gap(const prob_world *W, const prob_joint *J, const double *v, double *rate)
{
    double s = J->u[2], tb = J->b >= 0 ? W->rot[4 * J->b] : 0.0;
    double wb = J->b >= 0 ? v[3 * J->b + 2] : 0.0;
    *rate = s * (v[3 * J->a + 2] - wb);
    return s * (W->rot[4 * J->a] - tb) - J->len;
}

/* jrow[j] = the row of joint j after the contact rows (from 0), -1 for a limit absent this
 * step (C + h min(0, rate) > margin); returns the joint rows */
static int joint_rows(const prob_world *W, int *jrow)
{
    int k = 0;
    for (int j = 0; j < W->nj; j++) {
        const prob_joint *J = &W->joint[j];
        jrow[j] = k;
        if (J->kind == PROB_JOINT_LIMIT) {
            double rate, C = limit_gap(W, J, W->vel, &rate);
            if (C + W->h * fmin(0.0, rate) > W->margin) jrow[j] = -1;
        }
        k += jrow[j] >= 0;
    }
    return k;
}

/* Minv (n x n, full storage): 1/m on the linear dofs, the world inverse inertia
 * R Ib^-1 R^T on the angular ones (exact zeros dropped).  Mv must have room for 12 nb. */
static void minv_build(const prob_world *W, const double *R, lcp_csr *Mv)
{
    int nt = 0, row = 0;
    Mv->p[0] = 0;
    for (int k = 0; k < W->nb; k++) {
        int base = W->ndof * k;
        double im = 1.0 / W->mass[k];
        for (int i = 0; i < W->dim; i++) {
            Mv->j[nt] = base + i;
            Mv->x[nt++] = im;
            Mv->p[++row] = nt;
        }
        const double *Ii = W->Ibinv + 9 * k;
        if (W->dim == 2) {
            Mv->j[nt] = base + 2;
            Mv->x[nt++] = Ii[8];
            Mv->p[++row] = nt;
            continue;
        }
        double Iw[9];
        int iso = Ii[1] == 0 && Ii[2] == 0 && Ii[3] == 0 && Ii[5] == 0 && Ii[6] == 0 &&
                  Ii[7] == 0 && Ii[0] == Ii[4] && Ii[4] == Ii[8];
        if (iso) {
            memcpy(Iw, Ii, sizeof Iw);             /* isotropic: R I R^T = I exactly */
        } else {
            const double *Rk = R + 9 * k;
            double T[9];
            for (int i = 0; i < 3; i++)            /* T = R Ib^-1 */
                for (int j = 0; j < 3; j++)
                    T[3 * i + j] = Rk[3 * i] * Ii[j] + Rk[3 * i + 1] * Ii[3 + j] +
                                   Rk[3 * i + 2] * Ii[6 + j];
            for (int i = 0; i < 3; i++)            /* Iw = T R^T */
                for (int j = 0; j < 3; j++)
                    Iw[3 * i + j] = T[3 * i] * Rk[3 * j] + T[3 * i + 1] * Rk[3 * j + 1] +
                                    T[3 * i + 2] * Rk[3 * j + 2];
            for (int i = 0; i < 3; i++)            /* symmetric by construction */
                for (int j = 0; j < i; j++) Iw[3 * i + j] = Iw[3 * j + i];
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                if (Iw[3 * i + j] == 0.0) continue;
                Mv->j[nt] = base + 3 + j;
                Mv->x[nt++] = Iw[3 * i + j];
            }
            Mv->p[++row] = nt;
        }
    }
}

/* copy the previous step's impulses to contacts with the same identity; both sorted */
static int warm_start(const prob_contact *old, int nold, prob_contact *c, int nc)
{
    int i = 0, matched = 0;
    for (int k = 0; k < nc; k++) {
        while (i < nold && prob_contact_cmp(&old[i], &c[k]) < 0) i++;
        if (i < nold && prob_contact_cmp(&old[i], &c[k]) == 0) {
            memcpy(c[k].z, old[i].z, sizeof c[k].z);
            matched++;
        }
    }
    return matched;
}

void prob_integrate(prob_world *W, int linear)
{
    double h = W->h;
    for (int k = 0; k < W->nb; k++) {
        const double *v = W->vel + (size_t)W->ndof * k;
        double *x = W->pos + 3 * k, *q = W->rot + 4 * k;
        for (int i = 0; linear && i < W->dim; i++) x[i] += h * v[i];   /* x += h v */
        if (W->dim == 2) {
            q[0] += h * v[2];                                 /* theta += h omega */
            continue;
        }
        const double *w = v + 3;
        double dq[4] = {-w[0] * q[1] - w[1] * q[2] - w[2] * q[3],   /* (0, w) q */
                        w[0] * q[0] + w[1] * q[3] - w[2] * q[2],
                        -w[0] * q[3] + w[1] * q[0] + w[2] * q[1],
                        w[0] * q[2] - w[1] * q[1] + w[2] * q[0]};
        double s = 0.0;
        for (int i = 0; i < 4; i++) {
            q[i] += 0.5 * h * dq[i];                          /* q += h/2 (0, w) q */
            s += q[i] * q[i];
        }
        s = 1.0 / sqrt(s);
        for (int i = 0; i < 4; i++) q[i] *= s;                /* renormalise */
    }
}

lcp_status prob_step(prob_world *W, prob_hook_fn *hook, void *ctx, prob_step_info *info,
                     char *msg, size_t msglen)
{
    if (!W || !info || !W->solver) return LCP_ERR_ARG;
    memset(info, 0, sizeof *info);
    if (msg && msglen) msg[0] = 0;
    double t0 = now();
    int nb = W->nb, nd = W->ndof, n = nb * nd, dim = W->dim;
    int step = W->step + 1;
    lcp_status st = LCP_OK;
    lcp_problem P;
    lcp_problem_init(&P);
    prob_contact *c = NULL;
    int nc = 0;
    double *z = NULL, *w = NULL, *u = NULL, *rw = NULL;   /* rw: the residual's work */
    size_t nrw = 0;
    double *R = lcp_malloc(9 * (size_t)nb, sizeof(double));
    double *vk = lcp_malloc((size_t)n, sizeof(double));
    double *vs = lcp_malloc((size_t)n, sizeof(double));
    int *jrow = lcp_malloc((size_t)W->nj + 1, sizeof(int));
    if (!R || !vk || !vs || !jrow) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        for (int k = 0; k < nb; k++) prob_rotation(W, k, R + 9 * k);
        memcpy(vk, W->vel, (size_t)n * sizeof(double));
        memcpy(vs, W->vel, (size_t)n * sizeof(double));
        for (int k = 0; k < nb; k++)
            for (int i = 0; i < dim; i++) {
                vs[nd * k + i] += W->h * W->gravity[i];              /* v* = v + h g */
                if (W->force) vs[nd * k + i] += W->h * (W->force[3 * k + i] / W->mass[k]);
            }
        st = prob_collide(W, R, &c, &nc);
        if (st != LCP_OK)
            snprintf(msg, msglen, "step %d: contact detection failed: %s", step,
                     st == LCP_ERR_NONFINITE ? "a body position is not finite"
                                             : lcp_status_str(st));
    }
    double t1 = now();
    int fr = W->mu > 0.0 ? dim - 1 : 0, rpc = 1 + fr;
    int njr = st == LCP_OK ? joint_rows(W, jrow) : 0;   /* joint rows present this step */
    int m = nc * rpc + njr;
    if (st == LCP_OK) {
        info->warm_matched = warm_start(W->c, W->nc, c, nc);
        if (m > 0) st = lcp_problem_alloc_vectors(&P, m);
        long cap = 0;                              /* entries of J: nd per body per row */
        for (int k = 0; k < nc; k++) cap += (long)rpc * nd * (c[k].b >= 0 ? 2 : 1);
        for (int j = 0; j < W->nj; j++)
            if (jrow[j] >= 0) cap += (long)nd * (W->joint[j].b >= 0 ? 2 : 1);
        if (cap > INT32_MAX) st = LCP_ERR_TOO_LARGE;
        if (m > 0 && st == LCP_OK) st = lcp_csr_alloc(&P.J, m, n, (int)cap);
        if (m > 0 && st == LCP_OK) st = lcp_csr_alloc(&P.Minv, n, n, 12 * nb);
        P.E = lcp_malloc((size_t)m + 1, sizeof(double));
        P.z0 = lcp_malloc((size_t)m + 1, sizeof(double));
        if (fr) P.findex = lcp_malloc((size_t)m + 1, sizeof(int));
        if (st == LCP_OK && (!P.E || !P.z0 || (fr && !P.findex))) st = LCP_ERR_NOMEM;
        if (st != LCP_OK) snprintf(msg, msglen, "step %d: out of memory", step);
    }
    if (st == LCP_OK && m > 0) {
        double h = W->h, a = 4.0 / (h * (1.0 + 4.0 * W->d)), ups = 1.0 / (1.0 + 4.0 * W->d);
        double Ei = 4.0 * W->eps / (h * h * (1.0 + 4.0 * W->d));
        rowbuild B = {W, vs, vk, &P.J, 0, 0.0, 0.0};
        for (int k = 0; k < nc; k++) {
            prob_contact *ct = &c[k];
            int r = k * rpc;
            info->max_penetration = fmax(info->max_penetration, -ct->g);
            emit_dir(&B, r, ct->a, ct->b, ct->n, ct->arm_a, ct->arm_b);
            double qn = B.jvs + a * ct->g - ups * B.jvk;      /* q_n = J v* + a g - Ups J v_k */
            if (W->poscorr != 1.0)                            /* scaled: p = 0 none */
                qn = B.jvs + W->poscorr * (a * ct->g - ups * B.jvk);
            if (W->e > 0.0 && B.jvk < -W->vrest)
                qn = fmin(qn, B.jvs + W->e * B.jvk);          /* restitution */
            P.q[r] = qn;
            P.lo[r] = 0.0;
            P.hi[r] = INFINITY;
            P.E[r] = Ei;
            P.z0[r] = ct->z[0];
            if (fr) P.findex[r] = -1;
            double la[3], lb[3];
            for (int i = 0; i < 3; i++) {
                la[i] = ct->arm_a[i] - ct->ra * ct->n[i];     /* contact point on a */
                lb[i] = ct->arm_b[i] + ct->rb * ct->n[i];     /* contact point on b */
            }
            for (int f = 1; f <= fr; f++) {
                emit_dir(&B, r + f, ct->a, ct->b, f == 1 ? ct->t1 : ct->t2, la, lb);
                P.q[r + f] = B.jvs;                           /* q_t = J_t v* */
                P.lo[r + f] = -W->mu;
                P.hi[r + f] = W->mu;
                P.E[r + f] = Ei;
                P.z0[r + f] = ct->z[f];
                P.findex[r + f] = r;
            }
        }
        for (int j = 0; j < W->nj; j++) {
            const prob_joint *J = &W->joint[j];
            if (jrow[j] < 0) continue;                        /* a limit out of reach */
            int r = nc * rpc + jrow[j];
            P.lo[r] = -INFINITY;
            P.hi[r] = INFINITY;
            P.E[r] = Ei;
            P.z0[r] = W->zj[j];
            if (fr) P.findex[r] = -1;
            if (J->kind == PROB_JOINT_LIMIT || J->kind == PROB_JOINT_ANGLE) {
                double zero[3] = {0, 0, 0}, rate, C = limit_gap(W, J, vs, &rate);
                emit_row(&B, r, J->a, J->b, zero, J->u, J->u);   /* J = [0, s | 0, -s] */
                P.q[r] = B.jvs + a * C - ups * B.jvk;        /* q = J v* + a C - Ups J v_k */
                if (J->kind == PROB_JOINT_LIMIT) P.lo[r] = 0.0;
                continue;
            }
            double sa[3], sb[3] = {0, 0, 0}, pa[3], pb[3], dv[3];
            m3_apply(R + 9 * J->a, J->pa, sa);
            if (J->b >= 0) m3_apply(R + 9 * J->b, J->pb, sb);
            for (int i = 0; i < 3; i++) {
                pa[i] = W->pos[3 * J->a + i] + sa[i];
                pb[i] = J->b >= 0 ? W->pos[3 * J->b + i] + sb[i] : J->pb[i];
                dv[i] = pa[i] - pb[i];
            }
            if (J->kind == PROB_JOINT_AXIS) {                 /* C = (p_a - p_b).u */
                emit_dir(&B, r, J->a, J->b, J->u, sa, sb);
                P.q[r] = B.jvs + a * v3_dot(dv, J->u) - ups * B.jvk;
                continue;
            }
            double dist = sqrt(v3_dot(dv, dv)), nj[3] = {0, 1, 0};
            if (dist > 0.0)
                for (int i = 0; i < 3; i++) nj[i] = dv[i] / dist;
            emit_dir(&B, r, J->a, J->b, nj, sa, sb);
            P.q[r] = B.jvs + a * (dist - J->len) - ups * B.jvk; /* q = J v* + a C - Ups J v_k */
        }
        P.n = n;
        minv_build(W, R, &P.Minv);
        P.symmetric = 1; /* J Minv J^T + diag(E), Minv symmetric; lcp_csr_jmjt mirrors the
                            lower triangle: A exactly symmetric */
        if (hook || solve_reads_A(W)) {
            st = lcp_csr_jmjt(&P.J, &P.Minv, P.E, &P.A);
            info->assembled = 1;
        }
        if (st != LCP_OK)
            snprintf(msg, msglen, "step %d: assembling the problem: %s", step,
                     lcp_status_str(st));
    }
    double t2 = now(), tc = t2, t3 = t2;
    if (st == LCP_OK && m > 0) {
        if (hook) {
            P.meta = prob_meta(W, step, nc, m);
            st = P.meta ? hook(ctx, W, &P, step) : LCP_ERR_NOMEM;
            if (st != LCP_OK && msg && !msg[0])
                snprintf(msg, msglen, "step %d: capture failed: %s", step, lcp_status_str(st));
            tc = now();
            if (!solve_reads_A(W)) lcp_csr_free(&P.A);      /* as a step without hook */
        }
        z = lcp_malloc((size_t)m, sizeof(double));
        w = lcp_malloc((size_t)m, sizeof(double));
        u = lcp_malloc((size_t)n, sizeof(double));
        nrw = lcp_residual_work(&P);              /* without A: the factors' product's */
        rw = nrw ? lcp_malloc(nrw, sizeof(double)) : NULL;
        if (st == LCP_OK && (!z || !w || !u || (nrw && !rw))) st = LCP_ERR_NOMEM;
        if (st == LCP_OK) {
            lcp_info li;
            lcp_info_init(&li);
            memcpy(z, P.z0, (size_t)m * sizeof(double));
            lcp_options opt = W->opt;
            double *key = NULL;
            if (opt.order == LCP_ORDER_HEIGHT) opt.rowkey = key = row_heights(W, c, nc, rpc, R, jrow, njr);
            lcp_status ss = opt.order == LCP_ORDER_HEIGHT && !key
                                ? LCP_ERR_NOMEM
                                : lcp_solve(W->solver, &P, &opt, z, &li);
            lcp_free(key);
            info->status = ss;
            info->iterations = li.iterations;
            if (ss < 0) {
                st = ss;
                snprintf(msg, msglen, "step %d: solver %s failed: %s", step, W->solver->name,
                         lcp_status_str(ss));
            }
        }
        t3 = now();
        if (st == LCP_OK) {
            lcp_residuals res;
            lcp_residual_ws(&P, z, w, rw, nrw, &res);   /* never fails: its work is here */
            info->residual = res.r2;
            lcp_csr_matvec_t(&P.J, z, u);                     /* u = J^T z */
            lcp_csr_matvec(&P.Minv, u, W->vel);               /* Minv J^T z */
            for (int i = 0; i < n; i++) W->vel[i] += vs[i];   /* v = v* + Minv J^T z */
            for (int k = 0; k < nc; k++)
                for (int f = 0; f < rpc; f++) c[k].z[f] = z[k * rpc + f];
            for (int j = 0; j < W->nj; j++) W->zj[j] = jrow[j] >= 0 ? z[nc * rpc + jrow[j]] : 0.0;
        }
    } else if (st == LCP_OK) {
        memcpy(W->vel, vs, (size_t)n * sizeof(double));      /* nothing to solve */
    }
    if (st == LCP_OK) {
        prob_integrate(W, 1);
        lcp_free(W->c);
        W->c = c;
        W->nc = nc;
        c = NULL;
        W->step = step;
        info->kinetic_energy = prob_kinetic_energy(W);
    }
    if (st != LCP_OK && msg && msglen && !msg[0])            /* the allocations above */
        snprintf(msg, msglen, "step %d: %s", step,
                 st == LCP_ERR_NOMEM ? "out of memory" : lcp_status_str(st));
    double t4 = now();
    info->step = step;
    info->bodies = nb;
    info->contacts = nc;
    info->rows = m;
    info->t_collide = t1 - t0;
    info->t_build = t2 - t1;
    info->t_capture = tc - t2;
    info->t_solve = t3 - tc;
    info->t_total = t4 - t0;
    lcp_problem_free(&P);
    lcp_free(c);
    lcp_free(z);
    lcp_free(w);
    lcp_free(u);
    lcp_free(rw);
    lcp_free(R);
    lcp_free(vk);
    lcp_free(vs);
    lcp_free(jrow);
    return st;
}
