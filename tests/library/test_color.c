/* test_color.c: the parallel solvers (pgs-color, pgs-color-contact, threaded jacobi) on
 * instance folders given as arguments (the canonical scene instances) and on generated
 * contact problems.  For each colouring (rows: pgs-color; contacts, a normal row with its
 * friction rows as one unit: pgs-color-contact):
 *   - the colouring is valid: every row once, ordered within a colour by the first column
 *     of J_g of the unit's row g (matrix-free; the contact's first body; assembled: g),
 *     then by unit, then by row; no two rows of different units in one colour share a
 *     column of J or of B = J Minv (matrix-free) or are coupled through A (assembled);
 *     with rows, a friction row and its normal row differ in colour; with contacts, they
 *     share it;
 *   - the solver after 40 sweeps equals, bit for bit, serial `pgs' with the ordering
 *     `perm' = the rows colour by colour (a serial implementation of the same coloured
 *     order), on 1, 2, 3, 4 and 8 threads (8: more threads than the cores of the machines
 *     this runs on, so the waits between threads sleep), in both forms, the sweeps run on
 *     all threads or on the caller alone as the pool finds faster (adaptive runs), and on
 *     2 threads with every sweep on both (options.threads_fixed);
 *   - to a tolerance (1e-7, cap 500) it stops after the same sweeps on 1 to 4 threads;
 *   - its setup (lcp_prepare: the colouring and the rows in colour order) made once and
 *     given to solves on 1 and 2 threads (lcp_solve and the solver's own function) gives
 *     lcp_solve's status, z, sweeps, residual and colours bit for bit, with no set-up in
 *     them (setup_time 0) and the colouring's time of the prepared data (color_time, the
 *     same in each); options it was not made for (omega 1.3, the other form, the other
 *     colouring's setup, pgs's prepared layout) are ignored: lcp_solve's answer for them
 *     without it, with the solve's own set-up timed;
 *   - without findex the two colourings are the same; with it, on these instances, the
 *     contacts take no more colours than the rows (a regression check: greedy colourings
 *     promise no such bound);
 *   - the sweeps cut short (pool.c's lcp_pool_overdue, the caller finishing alone), forced
 *     (lcp_pool_force_overdue, test only) onto 2 and 4 threads and cut at colour 1 and at
 *     the middle colour (0, all by the caller, with 2 colours), on four of the instances
 *     and two generated problems: z, sweeps, status, residual and residual history equal
 *     to the 1-thread solve bit for bit, and every sweep counted as cut;
 *   - jacobi after 25 sweeps is bit-identical on 1 to 4 and 8 threads and equal to a serial
 *     Jacobi written here from the formula with the library's CSR products;
 *   - the thread pool (pool.c) on 1 to 4 and 8 threads runs every thread exactly once a run, with
 *     what the caller wrote before the run seen by the workers and what every thread wrote
 *     before a barrier seen by all after it: 2000 runs back to back (the workers spinning
 *     between runs), then runs after 2 ms asleep (the workers asleep: the wake-up path), and
 *     runs in which thread T-1 sleeps 1 ms (the caller asleep waiting for it); and its
 *     waits (lcp_pool_await, lcp_pool_add) put a thread to sleep and wake it: T threads
 *     that go in turn, each waiting for the one before, 20 runs. */
#include "lcp_internal.h"
#include "stream.h"
#include "tap.h"
#include "testprob.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* the unit of row i: itself (pgs-color), or its contact's normal row (pgs-color-contact) */
static int unit(const lcp_problem *P, int contact, int i)
{
    return contact && P->findex && P->findex[i] >= 0 ? P->findex[i] : i;
}

/* the order within a colour, written out: matrix-free, by the first column of J_g of the
 * unit's row g (the contact's first body), assembled by g; then by unit, then by row.
 * < 0 when row a comes before row b */
static int key(const lcp_problem *P, int mf, int contact, int a, int b)
{
    int ga = unit(P, contact, a), gb = unit(P, contact, b);
    if (mf) {
        int ka = P->J.p[ga] < P->J.p[ga + 1] ? P->J.j[P->J.p[ga]] : P->n;
        int kb = P->J.p[gb] < P->J.p[gb + 1] ? P->J.j[P->J.p[gb]] : P->n;
        if (ka != kb) return ka < kb ? -1 : 1;
    }
    if (ga != gb) return ga < gb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* 1 when the colouring is a valid partition with no conflict inside a colour between rows
 * of different units (contact: a unit's rows are one contact, together in one colour) */
static int color_valid(const lcp_problem *P, const lcp_csr *B, int mf, int contact, int nc,
                       const int *cp, const int *rows, char *why, size_t len)
{
    int m = P->m, ncol = mf ? P->n : m, ok_ = 1;
    int *seen = calloc((size_t)m + 1, sizeof(int)), *col = malloc(((size_t)ncol + 1) * sizeof(int));
    int *color = malloc(((size_t)m + 1) * sizeof(int));
    if (cp[0] != 0 || cp[nc] != m) {
        snprintf(why, len, "colour pointers 0..%d, want 0..%d", cp[nc], m);
        ok_ = 0;
    }
    for (int c = 0; ok_ && c < nc; c++)
        for (int t = cp[c]; t < cp[c + 1]; t++) {
            int i = rows[t];
            if (i < 0 || i >= m || seen[i]++) {
                snprintf(why, len, "row %d repeated or out of range", i);
                ok_ = 0;
                break;
            }
            if (t > cp[c] && !(key(P, mf, contact, rows[t - 1], i) < 0)) {
                snprintf(why, len, "rows %d, %d of colour %d out of order (first column, unit, "
                         "then row)", rows[t - 1], i, c);
                ok_ = 0;
                break;
            }
            color[i] = c;
        }
    for (int c = 0; ok_ && c < nc; c++) {
        for (int j = 0; j < ncol; j++) col[j] = -1;
        for (int t = cp[c]; ok_ && t < cp[c + 1]; t++) {
            int i = rows[t];
            const lcp_csr *S[2] = {mf ? &P->J : &P->A, mf ? B : NULL};
            for (int s = 0; s < 2 && S[s]; s++)
                for (int k = S[s]->p[i]; ok_ && k < S[s]->p[i + 1]; k++) {
                    int j = S[s]->j[k];
                    if (mf && col[j] >= 0 && unit(P, contact, col[j]) != unit(P, contact, i)) {
                        snprintf(why, len, "rows %d and %d of colour %d share column %d",
                                 col[j], i, c, j);
                        ok_ = 0;
                    }
                    if (mf) col[j] = i;
                    else if (unit(P, contact, j) != unit(P, contact, i) && color[j] == c) {
                        snprintf(why, len, "rows %d and %d of colour %d coupled (a_ij != 0)",
                                 i, j, c);
                        ok_ = 0;
                    }
                }
            if (ok_ && P->findex && P->findex[i] >= 0 && color[P->findex[i]] != c && contact) {
                snprintf(why, len, "row %d and its normal row %d in colours %d and %d", i,
                         P->findex[i], c, color[P->findex[i]]);
                ok_ = 0;
            }
            if (ok_ && P->findex && P->findex[i] >= 0 && color[P->findex[i]] == c &&
                !contact) {
                snprintf(why, len, "row %d and its normal row %d share colour %d", i,
                         P->findex[i], c);
                ok_ = 0;
            }
        }
    }
    free(seen);
    free(col);
    free(color);
    return ok_;
}

/* the colouring is the greedy one, written out: taking the units in the order of their
 * first row, each has the smallest colour that no unit taken before it and in conflict
 * with it has.  Rows conflict when they share a column of J, of B or of the contact
 * (the normal row: n + g) in the matrix-free form, and when a_rs or a_sr is nonzero or
 * one is the other's normal row in the assembled form; units, when rows of the two do.
 * A dense m x m table of conflicts: for the instances of this test (m <= 1530). */
static int color_greedy(const lcp_problem *P, const lcp_csr *B, int mf, int contact, int nc,
                        const int *cp, const int *rows, char *why, size_t len)
{
    int m = P->m, ok_ = 1;
    size_t mm = (size_t)m * (size_t)m;
    unsigned char *conf = calloc(mm + 1, 1);
    int *color = malloc(((size_t)m + 1) * sizeof(int));
    int *first = malloc(((size_t)m + 1) * sizeof(int));
    for (int c = 0; c < nc; c++)
        for (int t = cp[c]; t < cp[c + 1]; t++) color[rows[t]] = c;
    for (int i = m - 1; i >= 0; i--) first[unit(P, contact, i)] = i;
    if (mf) {                                  /* rows by column: J, B, then n + g */
        int ncol = P->n + m, *cnt = calloc((size_t)ncol + 2, sizeof(int)), *lst = NULL;
        for (int pass = 0; pass < 2; pass++) {
            if (pass) {
                for (int c = 0; c < ncol; c++) cnt[c + 1] += cnt[c];
                lst = malloc(((size_t)cnt[ncol] + 1) * sizeof(int));
            }
            for (int i = 0; i < m; i++) {
                const lcp_csr *S[2] = {&P->J, B};
                for (int sx = 0; sx < 3; sx++) {
                    int a = sx < 2 ? S[sx]->p[i] : 0, e = sx < 2 ? S[sx]->p[i + 1] : 1;
                    for (int k = a; k < e; k++) {
                        int g = P->findex && P->findex[i] >= 0 ? P->findex[i] : i;
                        int c = sx < 2 ? S[sx]->j[k] : P->n + g;
                        if (pass) lst[cnt[c]++] = i;
                        else cnt[c + 1]++;
                    }
                }
            }
            if (pass)
                for (int c = ncol; c > 0; c--) cnt[c] = cnt[c - 1];
        }
        cnt[0] = 0;
        for (int c = 0; c < ncol; c++)
            for (int a = cnt[c]; a < cnt[c + 1]; a++)
                for (int b = cnt[c]; b < cnt[c + 1]; b++)
                    conf[(size_t)lst[a] * m + lst[b]] = 1;
        free(cnt);
        free(lst);
    } else {
        for (int i = 0; i < m; i++) {
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) {
                int j = P->A.j[k];
                conf[(size_t)i * m + j] = conf[(size_t)j * m + i] = 1;
            }
            int f = P->findex ? P->findex[i] : -1;
            if (f >= 0) conf[(size_t)i * m + f] = conf[(size_t)f * m + i] = 1;
        }
    }
    unsigned char *used = calloc((size_t)nc + 2, 1);
    for (int i = 0; ok_ && i < m; i++) {
        int g = unit(P, contact, i);
        if (first[g] != i) continue;               /* the unit is taken at its first row */
        memset(used, 0, (size_t)nc + 1);
        for (int r = 0; r < m; r++) {              /* the unit's rows against earlier units' */
            if (unit(P, contact, r) != g) continue;
            for (int s2 = 0; s2 < m; s2++) {
                int h = unit(P, contact, s2);
                if (h != g && first[h] < i && conf[(size_t)r * m + s2]) used[color[s2]] = 1;
            }
        }
        int c = 0;
        while (used[c]) c++;
        if (c != color[g]) {
            snprintf(why, len, "unit of row %d has colour %d, the greedy colouring gives %d", g,
                     color[g], c);
            ok_ = 0;
        }
    }
    free(used);
    free(conf);
    free(color);
    free(first);
    return ok_;
}

/* serial projected Jacobi from the formula, sweeps sweeps from lcp_start's point; a_ii is A's
 * (assembled) or J_i (Minv J_i^T) + E_i from the factors (matrix-free) */
static void jacobi_ref(const lcp_problem *P, int mf, double omega, int sweeps, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    int m = P->m;
    double *w = malloc(((size_t)m + 1) * sizeof(double)), *zo = malloc(((size_t)m + 1) * sizeof(double));
    double *d = malloc(((size_t)m + 1) * sizeof(double));
    double *t = malloc(((size_t)P->n + 1) * sizeof(double)), *u = malloc(((size_t)P->n + 1) * sizeof(double));
    if (mf) {                 /* a_ii = E_i + J_i . B_i, B = J Minv, rows merged in order */
        lcp_csr B = {0};
        lcp_csr_multiply(&P->J, &P->Minv, &B);
        for (int i = 0; i < m; i++) {
            d[i] = P->E ? P->E[i] : 0.0;
            for (int a = P->J.p[i], b = B.p[i]; a < P->J.p[i + 1] && b < B.p[i + 1];) {
                if (P->J.j[a] == B.j[b]) d[i] += P->J.x[a++] * B.x[b++];
                else if (P->J.j[a] < B.j[b]) a++;
                else b++;
            }
        }
        lcp_csr_free(&B);
    } else
        lcp_csr_diag(&P->A, d);
    lcp_start(P, &o, z);
    for (int k = 0; k < sweeps; k++) {
        if (mf) {
            lcp_csr_matvec_t(&P->J, z, t);                   /* w = J Minv J^T z + E z + q */
            lcp_csr_matvec(&P->Minv, t, u);
            lcp_csr_matvec(&P->J, u, w);
            for (int i = 0; i < m; i++) w[i] += (P->E ? P->E[i] * z[i] : 0.0) + P->q[i];
        } else {
            lcp_csr_matvec(&P->A, z, w);                     /* w = A z + q */
            for (int i = 0; i < m; i++) w[i] += P->q[i];
        }
        memcpy(zo, z, (size_t)m * sizeof(double));
        for (int i = 0; i < m; i++) {
            double lo, hi;
            lcp_bounds(P, zo, i, &lo, &hi);
            z[i] = lcp_mid(lo, zo[i] - omega * w[i] / d[i], hi);
        }
    }
    free(w);
    free(zo);
    free(d);
    free(t);
    free(u);
}

/* pgs-color solved with `o' given the prepared d (fits: made for o), by lcp_solve and by
 * its own function, on 1 and 2 threads, against lcp_solve without it */
static void color_prepared(const lcp_solver *col, const char *what, const lcp_problem *P,
                           const lcp_options *o, const void *d, int fits)
{
    size_t bytes = ((size_t)P->m + 1) * sizeof(double);
    double *z0 = calloc(1, bytes), *z1 = calloc(1, bytes);
    int good = d != NULL;
    double ctime = -1.0;
    for (int T = 1; T <= 2; T++)
        for (int k = 0; k < 2; k++) {
            lcp_options op = *o;
            lcp_info i0, i1;
            op.threads = T;
            lcp_status a = lcp_solve(col, P, &op, z0, &i0);
            op.prepared = d;
            lcp_status b = k ? col->solve(P, &op, z1, &i1) : lcp_solve(col, P, &op, z1, &i1);
            good = good && a >= 0 && a == b && i0.iterations == i1.iterations &&
                   i0.residual == i1.residual && i0.colors == i1.colors &&
                   memcmp(z0, z1, (size_t)P->m * sizeof(double)) == 0 && i0.setup_time > 0.0 &&
                   i0.color_time > 0.0 && i1.color_time > 0.0 &&
                   (fits ? i1.setup_time == 0.0 : i1.setup_time > 0.0);
            if (fits && ctime >= 0.0) good = good && i1.color_time == ctime;
            ctime = i1.color_time;
        }
    ok(good, "%s/%s: %s, solves with it on 1 and 2 threads = lcp_solve bit for bit",
       col->name, what, fits ? "prepared once" : "prepared for other options, ignored");
    free(z0);
    free(z1);
}

/* pgs-color's setup on P in the form mf: fitting and not fitting options */
static void check_prepared(const lcp_solver *col, const char *name, const lcp_problem *P,
                           int mf)
{
    const char *fn = mf ? "matrix-free" : "assembled";
    char what[300];
    lcp_options o;
    lcp_options_default(&o);
    o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
    o.tol = 1e-7;
    o.max_iter = 500;
    void *d = NULL;
    lcp_prepare(col, P, &o, &d);
    snprintf(what, sizeof what, "%s/%s", name, fn);
    color_prepared(col, what, P, &o, d, 1);
    o.omega = 1.3;
    snprintf(what, sizeof what, "%s/%s, omega 1.3", name, fn);
    color_prepared(col, what, P, &o, d, 0);
    o.omega = 1.0;
    if (lcp_problem_has_factors(P) && P->A.p) {
        o.form = mf ? LCP_FORM_ASSEMBLED : LCP_FORM_MATRIX_FREE;
        snprintf(what, sizeof what, "%s/%s, the %s form", name, fn, lcp_form_name(o.form));
        color_prepared(col, what, P, &o, d, 0);
        o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
    }
    lcp_unprepare(col, d);
    const lcp_solver *other = lcp_solver_find(strcmp(col->name, "pgs-color") ? "pgs-color"
                                                                             : "pgs-color-contact");
    d = NULL;
    lcp_prepare(other, P, &o, &d);
    snprintf(what, sizeof what, "%s/%s, %s's prepared data", name, fn, other->name);
    color_prepared(col, what, P, &o, d, 0);
    lcp_unprepare(other, d);
    if (mf) {
        const lcp_solver *pgs = lcp_solver_find("pgs");
        lcp_pgs_prepare_layout(P, &o, 1, &d);
        snprintf(what, sizeof what, "%s/%s, pgs's prepared layout", name, fn);
        color_prepared(col, what, P, &o, d, 0);
        lcp_unprepare(pgs, d);
    }
}

static void check_problem(const char *name, const lcp_problem *P)
{
    const lcp_solver *pgs = lcp_solver_find("pgs"), *jac = lcp_solver_find("jacobi");
    int m = P->m;
    size_t bytes = ((size_t)m + 1) * sizeof(double);
    double *zr = calloc((size_t)m + 1, sizeof(double)), *zt = calloc((size_t)m + 1, sizeof(double));
    for (int mf = lcp_problem_has_factors(P) ? 1 : 0; mf >= 0; mf--) {
        const char *fn = mf ? "matrix-free" : "assembled";
        lcp_rowop op;
        lcp_status st = lcp_rowop_init(&op, P, mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED);
        int ncv[2] = {0, 0}, *rowsv[2] = {NULL, NULL};
        for (int contact = 0; contact <= 1; contact++) {
            const lcp_solver *col = lcp_solver_find(contact ? "pgs-color-contact" : "pgs-color");
            int nc = 0, *cp = NULL, *rows = NULL;
            char why[256] = "";
            lcp_status sc = st == LCP_OK ? lcp_color_rows(P, mf, contact, &nc, &cp, &rows)
                                         : st;
            ok(sc == LCP_OK && color_valid(P, &op.B, mf, contact, nc, cp, rows, why, sizeof why),
               "%s/%s/%s: colouring valid (%d colours for %d rows)", col->name, name, fn, nc, m);
            if (why[0]) tap_diag("%s", why);
            why[0] = 0;
            ok(sc == LCP_OK && color_greedy(P, &op.B, mf, contact, nc, cp, rows, why, sizeof why),
               "%s/%s/%s: the greedy colouring (units in row order, smallest free colour)",
               col->name, name, fn);
            if (why[0]) tap_diag("%s", why);
            lcp_options o;
            lcp_options_default(&o);
            o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
            o.tol = -1.0;
            o.max_iter = 40;
            o.order = LCP_ORDER_PERM;
            o.perm = rows;
            lcp_info info;
            lcp_solve(pgs, P, &o, zr, &info);                /* the serial coloured order */
            o.order = LCP_ORDER_NATURAL;
            o.perm = NULL;
            int its[9] = {0};
            for (int T = 1; T <= 8; T = T < 4 ? T + 1 : 2 * T) {
                o.threads = T;
                o.tol = -1.0;
                memset(zt, 0xff, bytes);
                lcp_status s = lcp_solve(col, P, &o, zt, &info);
                ok(s >= 0 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
                   info.threads == T && info.colors == nc,
                   "%s/%s/%s/threads=%d: 40 sweeps bit-identical to serial pgs in the "
                   "coloured order", col->name, name, fn, T);
                if (T == 2) {                     /* every sweep on both threads */
                    o.threads_fixed = 1;
                    memset(zt, 0xff, bytes);
                    lcp_status sf = lcp_solve(col, P, &o, zt, &info);
                    o.threads_fixed = 0;
                    ok(sf >= 0 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
                       info.solo_sweeps == 0,
                       "%s/%s/%s/threads=2, fixed: 40 sweeps on both threads, bit-identical",
                       col->name, name, fn);
                }
                if (T > 4) continue;              /* 8: the 40 sweeps only (CI time) */
                o.tol = 1e-7;
                o.max_iter = 500;
                lcp_solve(col, P, &o, zt, &info);
                its[T] = info.iterations;
                o.max_iter = 40;
            }
            ok(its[2] == its[1] && its[3] == its[1] && its[4] == its[1],
               "%s/%s/%s: sweeps to 1e-7 (cap 500) the same on 1 to 4 threads (%d %d %d %d)",
               col->name, name, fn, its[1], its[2], its[3], its[4]);
            check_prepared(col, name, P, mf);
            free(cp);
            ncv[contact] = nc;
            rowsv[contact] = rows;
        }
        if (!P->findex)      /* no friction rows: every contact is one row, the same order */
            ok(ncv[0] == ncv[1] && rowsv[0] && rowsv[1] &&
               memcmp(rowsv[0], rowsv[1], (size_t)m * sizeof(int)) == 0,
               "pgs-color-contact/%s/%s: without findex the colouring of pgs-color (%d, %d "
               "colours)", name, fn, ncv[0], ncv[1]);
        else
            ok(ncv[1] <= ncv[0], "pgs-color-contact/%s/%s: contacts coloured in %d colours, "
               "rows in %d", name, fn, ncv[1], ncv[0]);
        free(rowsv[0]);
        free(rowsv[1]);
        /* jacobi */
        lcp_options o;
        lcp_options_default(&o);
        o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        lcp_info info;
        o.max_iter = 25;
        o.tol = -1.0;
        jacobi_ref(P, mf, 1.0, 25, zr);
        for (int T = 1; T <= 8; T = T < 4 ? T + 1 : 2 * T) {
            o.threads = T;
            memset(zt, 0xff, bytes);
            lcp_solve(jac, P, &o, zt, &info);
            ok(info.iterations == 25 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
               info.threads == T,
               "jacobi/%s/%s/threads=%d: 25 sweeps bit-identical to a serial Jacobi (%d "
               "on the caller alone)", name, fn, T, info.solo_sweeps);
            if (T == 2) {
                o.threads_fixed = 1;
                memset(zt, 0xff, bytes);
                lcp_solve(jac, P, &o, zt, &info);
                o.threads_fixed = 0;
                ok(info.iterations == 25 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
                   info.solo_sweeps == 0,
                   "jacobi/%s/%s/threads=2, fixed: 25 sweeps on both threads, bit-identical",
                   name, fn);
            }
        }
        lcp_rowop_free(&op);
    }
    free(zr);
    free(zt);
}

/* The cut-short sweeps (pool.c, lcp_pool_overdue; pgs_color.c, color_task's bail), which
 * only a loaded machine reaches by itself: forced (lcp_pool_force_overdue, test only),
 * every sweep runs on all T threads and is overdue at colour `after' (after 1: the first
 * colour on all threads, the rest by the caller alone, the workers stopping), and the
 * solve must equal the 1-thread solve bit for bit: z, sweeps, status, residual and the
 * residual history; and every one of its sweeps must have been cut (the count of runs
 * lcp_pool_overdue cut short grows by the sweeps), so the path cannot go untested. */
static long cuts_total;
static double cut_seconds;

static void check_cut(const char *name, const lcp_problem *P)
{
    enum { CAP = 80 };
    int m = P->m;
    size_t bytes = ((size_t)m + 1) * sizeof(double);
    double *z1 = malloc(bytes), *zt = malloc(bytes);
    double r1[CAP + 1], rt[CAP + 1];
    int i1[CAP + 1], it[CAP + 1];
    double t0 = lcp_seconds();
    for (int mf = lcp_problem_has_factors(P) ? 1 : 0; mf >= 0; mf--)
        for (int contact = 0; contact <= 1; contact++) {
            const lcp_solver *col = lcp_solver_find(contact ? "pgs-color-contact" : "pgs-color");
            const char *fn = mf ? "matrix-free" : "assembled";
            lcp_options o;
            lcp_options_default(&o);
            o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
            o.tol = 1e-7;
            o.max_iter = CAP - 1;
            lcp_history h1 = {.cap = CAP, .iteration = i1, .residual = r1};
            lcp_info a;
            o.threads = 1;
            o.history = &h1;
            memset(z1, 0, bytes);
            lcp_status s1 = lcp_solve(col, P, &o, z1, &a);
            int nc = a.colors;
            int afters[2] = {1, nc > 2 ? nc / 2 : 0};   /* 0: all by the caller */
            for (int T = 2; T <= 4; T += 2)
                for (int k = 0; k < 2; k++) {
                    lcp_history ht = {.cap = CAP, .iteration = it, .residual = rt};
                    lcp_info b;
                    o.threads = T;
                    o.history = &ht;
                    memset(zt, 0, bytes);
                    long c0 = lcp_pool_cut_runs();
                    lcp_pool_force_overdue(afters[k]);
                    lcp_status st = lcp_solve(col, P, &o, zt, &b);
                    lcp_pool_force_overdue(-1);
                    long cuts = lcp_pool_cut_runs() - c0;
                    long want = nc > afters[k] ? b.iterations : 0;
                    cuts_total += cuts;
                    ok(s1 >= 0 && st == s1 && b.iterations == a.iterations &&
                       b.residual == a.residual && b.threads == T && b.solo_sweeps == 0 &&
                       memcmp(zt, z1, (size_t)m * sizeof(double)) == 0 && ht.n == h1.n &&
                       memcmp(it, i1, (size_t)h1.n * sizeof(int)) == 0 &&
                       memcmp(rt, r1, (size_t)h1.n * sizeof(double)) == 0 &&
                       cuts == want && (nc <= afters[k] || cuts > 0),
                       "%s/%s/%s/threads=%d: every sweep cut at colour %d of %d (%ld of %d "
                       "cut), finished by the caller: z, sweeps, residual, history (%d rows) "
                       "= 1 thread bit for bit", col->name, name, fn, T, afters[k], nc, cuts,
                       b.iterations, ht.n);
                }
        }
    cut_seconds += lcp_seconds() - t0;
    free(z1);
    free(zt);
}

/* ---- the thread pool ---- */
typedef struct pool_probe {
    lcp_pool *pool;
    int T, run, slow;       /* the caller's run number; thread T-1 sleeps 1 ms when slow */
    int seen[8];            /* per thread: the run number it saw at its start */
    int count[8];           /* per thread: runs it ran */
    int phase[8];           /* per thread: written before the barrier */
    atomic_int bad;         /* after the barrier, a thread saw another's phase unwritten */
    atomic_int total;
} pool_probe;

static void nap(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

static void probe_fn(void *v, int tid)
{
    pool_probe *p = v;
    p->seen[tid] = p->run;
    p->count[tid]++;
    atomic_fetch_add(&p->total, 1);
    if (p->slow && tid == p->T - 1) nap(1000000);
    p->phase[tid] = p->run;
    lcp_pool_barrier(p->pool, tid);
    for (int t = 0; t < p->T; t++)
        if (p->phase[t] != p->run) atomic_fetch_add(&p->bad, 1);
    lcp_pool_barrier(p->pool, tid);
}

/* the waits' sleeping path: each thread waits for the count to reach its number, then
 * adds 1, so thread t goes t-th; thread 0 first naps 1 ms, so the others, spinning at
 * most 50 us (none at all with more threads than cores), are asleep when it adds */
typedef struct chain_probe {
    lcp_pool *pool;
    int base;
    atomic_int turn, seq;
    int order[8];
} chain_probe;

static void chain_fn(void *v, int tid)
{
    chain_probe *c = v;
    if (tid == 0) nap(1000000);
    lcp_pool_await(c->pool, &c->turn, c->base + tid);
    c->order[tid] = atomic_fetch_add(&c->seq, 1);
    lcp_pool_add(c->pool, &c->turn, 1);
}

static void check_chain(int T)
{
    chain_probe c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.turn, 0);
    atomic_init(&c.seq, 0);
    if (lcp_pool_start(&c.pool, T) != LCP_OK) {
        ok(0, "pool: %d threads start (chain)", T);
        return;
    }
    int wrong = 0;
    for (int r = 0; r < 20; r++) {
        c.base = r * T;
        atomic_store(&c.seq, 0);
        lcp_pool_run(c.pool, chain_fn, &c);
        for (int t = 0; t < T; t++) wrong += c.order[t] != t;
    }
    ok(wrong == 0 && atomic_load(&c.turn) == 20 * T,
       "pool: %d threads: waits that sleep until an add wakes them, in turn (%d out of "
       "turn, count %d of %d)", T, wrong, atomic_load(&c.turn), 20 * T);
    lcp_pool_stop(c.pool);
}

static void check_pool(void)
{
    for (int T = 1; T <= 8; T = T < 4 ? T + 1 : 2 * T) {   /* 8: more than the cores here */
        pool_probe p;
        memset(&p, 0, sizeof p);
        atomic_init(&p.total, 0);
        atomic_init(&p.bad, 0);
        p.T = T;
        if (!ok(lcp_pool_start(&p.pool, T) == LCP_OK && lcp_pool_size(p.pool) == T,
                "pool: %d threads start", T))
            continue;
        int runs = 0, stale = 0;
        for (int k = 0; k < 2000 + 20; k++) {
            p.run = ++runs;
            p.slow = k >= 2010;                      /* the last 10: the caller sleeps */
            if (k >= 2000 && k < 2010) nap(2000000);   /* 10 after the workers sleep */
            lcp_pool_run(p.pool, probe_fn, &p);
            for (int t = 0; t < T; t++) stale += p.seen[t] != runs;
        }
        int counts = 0;
        for (int t = 0; t < T; t++) counts += p.count[t] == runs;
        ok(counts == T && atomic_load(&p.total) == T * runs,
           "pool: %d threads: each ran every one of %d runs once (%d of %d threads, %d calls)",
           T, runs, counts, T, atomic_load(&p.total));
        ok(stale == 0, "pool: %d threads: every thread saw the run the caller set (%d stale)",
           T, stale);
        ok(atomic_load(&p.bad) == 0,
           "pool: %d threads: writes before a barrier seen after it (%d misses)", T,
           atomic_load(&p.bad));
        lcp_pool_stop(p.pool);
        check_chain(T);
    }
}

int main(int argc, char **argv)
{
    check_pool();
    for (int a = 1; a < argc; a++) {
        lcp_problem P;
        char msg[512], nb[512];
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "read %s", argv[a]);
            tap_diag("%s", msg);
            continue;
        }
        const char *name = tp_folder_name(argv[a], nb, sizeof nb);
        check_problem(name, &P);
        if (strstr(name, "boxes-tower") || strstr(name, "chain-step") ||
            strstr(name, "stack-30-step") || strstr(name, "kapla"))
            check_cut(name, &P);            /* the cut-short sweeps: a few instances */
        lcp_problem_free(&P);
    }
    struct { const char *name; int d, nb, nc, fr; } gen[] = {
        {"random-2d-friction-m600", 3, 120, 200, 1},
        {"random-3d-friction-m900", 6, 150, 300, 2},
        {"random-3d-m500", 6, 100, 500, 0},
        {"random-3d-m70-3-bodies", 6, 3, 70, 0},     /* every two rows share a body: 70
                                                      * colours, the colour sets widened */
    };
    for (size_t g = 0; g < sizeof gen / sizeof gen[0]; g++) {
        lcp_problem P;
        if (tp_contact(&P, gen[g].d, gen[g].nb, gen[g].nc, gen[g].fr, 0.5, 0.01, 7 + g) != 0) {
            ok(0, "generate %s", gen[g].name);
            continue;
        }
        check_problem(gen[g].name, &P);
        if (g == 1 || g == 3) check_cut(gen[g].name, &P);   /* friction; 70 colours */
        lcp_problem_free(&P);
    }
    ok(cuts_total > 0, "cut-short sweeps: %ld sweeps cut and finished by the caller alone "
       "(%.2f s)", cuts_total, cut_seconds);
    return tap_done();
}
