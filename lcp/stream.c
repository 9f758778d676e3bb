/* stream.c: the streaming layout of the matrix-free Gauss-Seidel sweep (results/performance.md,
 * "Memory and the streaming floor").
 *
 * A matrix-free sweep reads, for each row in its order, J_i, B_i = (J Minv)_i with their
 * columns, q_i, lo_i, hi_i, omega / a_ii, E_i, findex_i, and reads and writes u = Minv J^T z
 * at the columns of its bodies.  In CSR form that is a dozen arrays, and once u (6 doubles a
 * body) no longer fits in the core's cache it is reached at random: a row waits for memory
 * about every other body.  The layout, built once per problem and options (pgs's setup,
 * lcp_prepare):
 *   - the columns of J (u's coordinates) are renumbered in the order the sweep first
 *     touches them (J's columns, then B's, row by row in the layout order), so that a
 *     body's coordinates stay together and a sweep's first touches run forward in memory;
 *   - each row is one record of 8-byte words, the records in the layout order in one array:
 *       [row i | findex_i or -1] [record length | run counts] [J_i's first entry | 0]
 *       omega/a_ii, J's runs [first new column | length] ...,
 *       B's runs (only when B_i's columns differ from J_i's), B's values;
 *     J's values, q, lo, hi and E are read where the problem holds them (in the natural
 *     layout each is a stream in order): a copy would cost memory (8 bytes an entry of J,
 *     32 a row), and a matrix-free solve of the 734k-row pile must stay under 400 MB;
 *     a run is a stretch of consecutive new columns in J's (B's) column order, so a body's
 *     six coordinates are one run and a contact row has two;
 *   - while it updates row s the sweep prefetches the u of the row PF_AHEAD records ahead
 *     (its runs' first and last coordinates) and its J values, so that the random reads
 *     of u overlap, and a forward sweep prefetches the records PF_BYTES ahead.  One core
 *     reading one array gets about half the triad's bandwidth from the hardware
 *     prefetchers alone: with the software prefetch the 10^6-row sweep ran about 1.3x
 *     faster (measured under load).  Transparent huge pages for the records, u and the
 *     problem's arrays gained nothing (10^6 rows: 63-66 against 64-65 ns a row, plain
 *     rows 87-90 against 90; a 195126-row pile 22.7-23.1 against 20.8-25.8 ns; paired
 *     runs on the AMD EPYC machine of results/performance.md), so none are asked for.
 * A permutation of u's coordinates only relabels memory: every row sums the same products
 * in J's order, adds E_i z_i last, and adds dz B_ic to the same coordinates, so z, u and
 * the fused test's sum are bit-identical to pgs's plain matrix-free rows
 * (tests/library/test_stream.c).
 * COPIED RECORDS (pgs-color, pgs-color-contact: lcp_stream_blocks).  Their order visits the
 * rows colour by colour, so q, lo, hi, E and J's values read in place would be scattered
 * (a sweep measured 3x slower): their records carry them,
 *       [row i | findex_i or -1] [record length | shared] [J's runs | B's runs] omega/a_ii,
 *       q_i, lo_i, hi_i, (E_i,) J's runs ..., B's runs (when not J's), J's values, B's values,
 *     8 bytes an entry of J and 24-32 a row more than pgs's, and less than CSR copies of
 *     J's and B's rows in that order (a 4-byte column an entry, where a record has one
 *     word a run of columns: a body's six); and they keep the problem's numbering of u:
 *     renumbered by first touch in colour order, a captured pile's bodies interleave far
 *     apart and its one-thread sweep ran 1.5x slower (4.97 against 3.35 ms;
 *     results/performance.md).
 * Orders: the records are laid out in the sweep's order when it is fixed (natural; reverse,
 * mass, perm and height lay out their permutation; symmetric walks the natural layout
 * forward and back); other orders (random, random8, error, ode8) visit the natural layout's
 * records through the offsets.
 * FLOAT32 (pgs's precision float32, not with copied records): B's values are stored as
 * floats, two to a word (the record's last word half empty when B_i has an odd count), and
 * J's values are read from a float copy of P's in P's order; every product is taken in
 * double, so on data exact in float32 a sweep is the float64 layout's bit for bit.
 * Cost: set-up O(nnz(J) + nnz(B) + m + n) time, memory nnz(B) values plus 4 words a row
 * and 1 word a run, plus 2 ints a row and an int and a double a column (B's CSR, u, the
 * steps and a_ii can then be freed); a sweep reads the records and J's values once in order.
 */
#include "stream.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#define PF_AHEAD 8       /* records between a row and the row whose u it prefetches */
#define PF_BYTES 4096    /* how far ahead a forward sweep prefetches its records */
#define HEAD 4           /* words before the runs: [i|findex] [length|runs] [J_i's offset|0] step */
#define SAMPLE 8         /* lcp_stream_pays looks at every SAMPLE-th row */
#define NEAR 4096        /* columns (32 KB of u) within which a row's body counts as near */
#define JUMPS 0.15       /* the share of rows that must reach a far body for the layout */
#define RUN_MAX 0x7fff   /* runs of J or B in a record (15 bits each in the header) */

static inline void put2(double *w, int a, int b)
{
    int32_t v[2] = {a, b};
    memcpy(w, v, sizeof v);
}

static inline void get2(const double *w, int32_t v[2])
{
    memcpy(v, w, 2 * sizeof(int32_t));
}

/* value k of an array of floats (f32) or doubles, in double; and the array n values on */
static inline __attribute__((always_inline)) double ld(const void *x, int k, const int f32)
{
    return f32 ? (double)((const float *)x)[k] : ((const double *)x)[k];
}

static inline __attribute__((always_inline)) const void *adv(const void *x, int n, const int f32)
{
    return (const char *)x + (size_t)n * (f32 ? sizeof(float) : sizeof(double));
}

/* words of n values of B */
static inline int bwords(int n, int f32)
{
    return f32 ? (n + 1) / 2 : n;
}

/* words before the runs of a record that carries its row's values (copy) */
static inline int head_copied(const lcp_stream *s)
{
    return HEAD + 3 + s->has_e;
}

/* runs of a row's columns j[0 .. n-1] in the new numbering col[]: count, and written to w
 * when not NULL */
static int runs_of(const int *j, int n, const int *col, double *w)
{
    int nr = 0, start = 0, len = 0;
    for (int k = 0; k < n; k++) {
        int c = col[j[k]];
        if (len > 0 && c == start + len) {
            len++;
            continue;
        }
        if (len > 0 && w) put2(w + nr - 1, start, len);
        start = c;
        len = 1;
        nr++;
    }
    if (len > 0 && w) put2(w + nr - 1, start, len);
    return nr;
}

int lcp_stream_same_pattern(const lcp_csr *J, int i, const lcp_csr_rows *b)
{
    if (J->p[i + 1] - J->p[i] != b->len) return 0;
    for (int k = 0; k < b->len; k++)
        if (J->j[J->p[i] + k] != b->j[k]) return 0;
    return 1;
}

void lcp_stream_free(lcp_stream *s)
{
    if (!s) return;
    lcp_free(s->w);
    lcp_free(s->off);
    lcp_free(s->pos);
    lcp_free(s->col);
    lcp_free(s->u);
    lcp_free(s->jf);
    memset(s, 0, sizeof *s);
}

/* lcp_stream_build with B's rows from b */
static lcp_status build(lcp_stream *s, const lcp_problem *P, lcp_csr_rows *b,
                        const double *step, const int *order, int copy, int f32)
{
    const lcp_csr *J = &P->J;
    int m = P->m, n = J->ncol;
    if (f32 && copy) return LCP_ERR_ARG;
    s->f32 = f32 != 0;
    s->m = m;
    s->n = n;
    s->has_e = P->E != NULL;
    s->copy = copy != 0;
    s->natural = order == NULL;
    s->jx = J->x;
    s->q = P->q;
    s->lo = P->lo;
    s->hi = P->hi;
    s->E = P->E;
    s->off = lcp_malloc((size_t)m + 1, sizeof(int));
    s->pos = lcp_malloc((size_t)m + 1, sizeof(int));
    s->col = lcp_malloc((size_t)n + 1, sizeof(int));
    s->u = lcp_calloc((size_t)n + 1, sizeof(double));
    if (s->f32 && (s->jf = lcp_malloc((size_t)LCP_CSR_NNZ(J) + 1, sizeof(float))))
        for (int k = 0; k < LCP_CSR_NNZ(J); k++) s->jf[k] = (float)J->x[k];
    if (!s->off || !s->pos || !s->col || !s->u || (s->f32 && !s->jf)) {
        lcp_stream_free(s);
        return LCP_ERR_NOMEM;
    }
    for (int c = 0; c < n; c++) s->col[c] = -1;             /* columns by first touch */
    int next = 0;
    for (int t = 0; t < m && !copy; t++) {
        int i = order ? order[t] : t;
        for (int k = J->p[i]; k < J->p[i + 1]; k++)
            if (s->col[J->j[k]] < 0) s->col[J->j[k]] = next++;
        lcp_csr_row(b, i);
        for (int k = 0; k < b->len; k++)
            if (s->col[b->j[k]] < 0) s->col[b->j[k]] = next++;
    }
    for (int c = 0; c < n; c++)
        if (s->col[c] < 0) s->col[c] = next++;  /* untouched (copy: all): at the end, in order */
    long words = 0;                                         /* record offsets */
    for (int t = 0; t < m; t++) {
        int i = order ? order[t] : t;
        int rj = runs_of(J->j + J->p[i], J->p[i + 1] - J->p[i], s->col, NULL);
        lcp_csr_row(b, i);
        int shared = lcp_stream_same_pattern(J, i, b);
        int rb = shared ? 0 : runs_of(b->j, b->len, s->col, NULL);
        long len = rj + rb + bwords(b->len, s->f32);
        len += s->copy ? head_copied(s) + (J->p[i + 1] - J->p[i]) : HEAD;
        if ((!s->copy && (rj > RUN_MAX || rb > RUN_MAX)) || words + len > INT_MAX) {
            lcp_stream_free(s);
            return LCP_ERR_ARG;
        }
        s->off[t] = (int)words;
        s->pos[i] = t;
        words += len;
    }
    s->off[m] = (int)words;
    s->w = lcp_malloc((size_t)words + 1, sizeof(double));
    if (!s->w) {
        lcp_stream_free(s);
        return LCP_ERR_NOMEM;
    }
    for (int t = 0; t < m; t++) {
        int i = order ? order[t] : t;
        double *w = s->w + s->off[t];
        lcp_csr_row(b, i);
        int shared = lcp_stream_same_pattern(J, i, b);
        double *p = w + (s->copy ? head_copied(s) : HEAD);
        int rj = runs_of(J->j + J->p[i], J->p[i + 1] - J->p[i], s->col, p);
        p += rj;
        int rb = shared ? 0 : runs_of(b->j, b->len, s->col, p);
        p += rb;
        if (s->copy)
            for (int k = J->p[i]; k < J->p[i + 1]; k++) *p++ = J->x[k];
        if (s->f32) {                                       /* B's values as floats */
            if (b->len % 2) p[b->len / 2] = 0.0;            /* the last word's other half */
            float *pf = (float *)(void *)p;
            for (int k = 0; k < b->len; k++) pf[k] = (float)b->x[k];
        } else
            for (int k = 0; k < b->len; k++) *p++ = b->x[k];
        put2(w, i, P->findex ? P->findex[i] : -1);
        if (s->copy) {
            put2(w + 1, s->off[t + 1] - s->off[t], shared);
            put2(w + 2, rj, rb);
            w[4] = P->q[i];
            w[5] = P->lo[i];
            w[6] = P->hi[i];
            if (s->has_e) w[7] = P->E[i];
        } else {
            put2(w + 1, s->off[t + 1] - s->off[t], rj | rb << 15 | shared << 30);
            put2(w + 2, J->p[i], 0);
        }
        w[3] = step[i];
    }
    return LCP_OK;
}

lcp_status lcp_stream_build(lcp_stream *s, const lcp_problem *P, const lcp_csr *B,
                            const double *step, const int *order, int copy)
{
    return lcp_stream_build_as(s, P, B, step, order, copy, 0);
}

lcp_status lcp_stream_build_as(lcp_stream *s, const lcp_problem *P, const lcp_csr *B,
                               const double *step, const int *order, int copy, int f32)
{
    memset(s, 0, sizeof *s);
    lcp_csr_rows b;                                         /* B's rows, held or made */
    lcp_status st = lcp_csr_rows_init(&b, B, &P->J, &P->Minv);
    if (st != LCP_OK) return st;
    st = build(s, P, &b, step, order, copy, f32);
    lcp_csr_rows_free(&b);
    return st;
}

/* a record's runs: *rj of J, *rb of B (0 when B's columns are J's: *shared) */
static inline __attribute__((always_inline)) void counts(const double *w, const int copy,
                                                         int *rj, int *rb, int *shared)
{
    int32_t h[2];
    get2(w + 1, h);
    if (copy) {
        *shared = h[1];
        get2(w + 2, h);
        *rj = h[0];
        *rb = h[1];
    } else {
        *rj = h[1] & RUN_MAX;
        *rb = h[1] >> 15 & RUN_MAX;
        *shared = h[1] >> 30;
    }
}

/* B_i in record w (its runs start at w + head): sets *runs and *rb to its runs (J's when
 * the columns are shared) and returns its values, which follow J_i's when copied */
static const void *b_values(const double *w, const lcp_stream *s, const double **runs,
                            int *rb)
{
    int rj, shared;
    counts(w, s->copy, &rj, rb, &shared);
    const double *r = w + (s->copy ? head_copied(s) : HEAD), *x = r + rj + *rb;
    if (s->copy)
        for (int a = 0; a < rj; a++) {                      /* past J_i's values */
            int32_t rr[2];
            get2(r + a, rr);
            x += rr[1];
        }
    *runs = shared ? r : r + rj;
    if (shared) *rb = rj;
    return x;
}

void lcp_stream_reset(lcp_stream *s, const double *z)
{
    memset(s->u, 0, (size_t)s->n * sizeof(double));
    for (int i = 0; i < s->m; i++) {                       /* rows in natural order */
        const double *runs, *w = s->w + s->off[s->pos[i]];
        int rb, f32 = s->f32;
        const void *x = b_values(w, s, &runs, &rb);
        for (int a = 0; a < rb; a++) {
            int32_t r[2];
            get2(runs + a, r);
            for (int c = r[0]; c < r[0] + r[1]; c++) {           /* u += B_i^T z_i */
                s->u[c] += ld(x, 0, f32) * z[i];
                x = adv(x, 1, f32);
            }
        }
    }
}

/* the lines of u that record w's row reads (and writes: the same bodies), and its J
 * values where the problem holds them */
static inline __attribute__((always_inline)) void prefetch_u(const double *w, const void *jx,
                                                             const double *u, const int copy,
                                                             const int head, const int f32)
{
    int rj, rb, shared;
    counts(w, copy, &rj, &rb, &shared);
    if (!copy) {
        int32_t h[2];
        get2(w + 2, h);
        __builtin_prefetch(adv(jx, h[0], f32), 0, 3);    /* J_i's values */
        __builtin_prefetch(adv(jx, h[0] + 8, f32), 0, 3);
    }
    const double *runs = w + head;
    for (int a = 0; a < rj; a++) {
        int32_t r[2];
        get2(runs + a, r);
        __builtin_prefetch(u + r[0], 1, 3);
        __builtin_prefetch(u + r[0] + r[1] - 1, 1, 3);
    }
}

/* pgs's matrix-free row on one record; returns rho_i^2 (pgs.c, pgs_rows).  copy: q, lo,
 * hi, E and J_i's values are in the record (head words before the runs); f32: J's and B's
 * values are floats, each product taken in double */
static inline __attribute__((always_inline)) double row(const double *w, const lcp_stream *s,
                                                        double *z, double *u, const int has_e,
                                                        const int copy, const int head,
                                                        const int f32)
{
    int32_t h[2];
    get2(w, h);
    int i = h[0], f = h[1];
    int rj, rb, shared;
    counts(w, copy, &rj, &rb, &shared);
    double lo = copy ? w[5] : s->lo[i], hi = copy ? w[6] : s->hi[i];
    if (f >= 0) {                                          /* lcp_row_bounds */
        double zn = fabs(z[f]);
        lo = lo * zn;
        hi = hi * zn;
    }
    const double *runs = w + head;
    const void *x;
    if (copy)
        x = runs + rj + rb;                                /* J_i's values, then B_i's */
    else {
        get2(w + 2, h);
        x = adv(f32 ? (const void *)s->jf : (const void *)s->jx, h[0], f32); /* P's J_i */
    }
    double r = copy ? w[4] : s->q[i];                      /* r_i = q_i + J_i u + E_i z_i */
    for (int a = 0; a < rj; a++) {
        int32_t rr[2];
        get2(runs + a, rr);
        const double *uu = u + rr[0];
        if (rr[1] == 6) {                  /* a 3D body: straight-line, the same order */
            r += ld(x, 0, f32) * uu[0];
            r += ld(x, 1, f32) * uu[1];
            r += ld(x, 2, f32) * uu[2];
            r += ld(x, 3, f32) * uu[3];
            r += ld(x, 4, f32) * uu[4];
            r += ld(x, 5, f32) * uu[5];
            x = adv(x, 6, f32);
        } else if (rr[1] == 3) {           /* a 3D body's linear (or angular) part */
            r += ld(x, 0, f32) * uu[0];
            r += ld(x, 1, f32) * uu[1];
            r += ld(x, 2, f32) * uu[2];
            x = adv(x, 3, f32);
        } else {
            for (int c = 0; c < rr[1]; c++) r += ld(x, c, f32) * uu[c];
            x = adv(x, rr[1], f32);
        }
    }
    if (has_e) r += (copy ? w[7] : s->E[i]) * z[i];
    double rho = z[i] - lcp_mid(lo, z[i] - r, hi);
    double zi = lcp_mid(lo, z[i] - w[3] * r, hi);
    double dz = zi - z[i];
    if (dz != 0.0) {                                       /* u += B_i^T dz */
        if (copy) {                                        /* B_i's values follow J_i's */
            if (!shared) runs += rj;
            else rb = rj;
        } else {
            runs += rj;
            x = w + head + rj + rb;
            if (shared) runs = w + head, rb = rj;
        }
        for (int a = 0; a < rb; a++) {
            int32_t rr[2];
            get2(runs + a, rr);
            double *uu = u + rr[0];
            if (rr[1] == 6) {
                uu[0] += dz * ld(x, 0, f32);
                uu[1] += dz * ld(x, 1, f32);
                uu[2] += dz * ld(x, 2, f32);
                uu[3] += dz * ld(x, 3, f32);
                uu[4] += dz * ld(x, 4, f32);
                uu[5] += dz * ld(x, 5, f32);
                x = adv(x, 6, f32);
            } else if (rr[1] == 3) {
                uu[0] += dz * ld(x, 0, f32);
                uu[1] += dz * ld(x, 1, f32);
                uu[2] += dz * ld(x, 2, f32);
                x = adv(x, 3, f32);
            } else {
                for (int c = 0; c < rr[1]; c++) uu[c] += dz * ld(x, c, f32);
                x = adv(x, rr[1], f32);
            }
        }
    }
    z[i] = zi;
    return rho * rho;
}

/* the records at layout positions [t0, t1) in order; part (when not NULL) gets the sum of
 * rho^2 of each block [bs[b], bs[b + 1]) of them, and the whole sum is returned */
static inline __attribute__((always_inline)) double forward(const lcp_stream *s, double *u,
                                                            double *z, int t0, int t1,
                                                            const int *bs, double *part,
                                                            const int has_e, const int copy,
                                                            const int head, const int f32)
{
    double e2 = 0.0, eb = 0.0;
    const void *jx = f32 ? (const void *)s->jf : (const void *)s->jx;
    const double *w = s->w + s->off[t0], *ahead = w;
    int32_t h[2];
    for (int t = t0; t < t0 + PF_AHEAD && t < t1; t++) {
        get2(ahead + 1, h);
        ahead += h[0];
    }
    int b = 0, bend = bs ? bs[1] : t1;
    for (int t = t0; t < t1; t++) {
        if (t + PF_AHEAD < t1) {
            prefetch_u(ahead, jx, u, copy, head, f32);
            get2(ahead + 1, h);
            ahead += h[0];
        }
        get2(w + 1, h);
        for (const char *a = (const char *)w + PF_BYTES; a < (const char *)(w + h[0]) + PF_BYTES;
             a += 64)
            __builtin_prefetch(a, 0, 3);                /* the records ahead */
        eb += row(w, s, z, u, has_e, copy, head, f32);
        w += h[0];
        if (t + 1 == bend) {                             /* a block ends */
            if (part) part[b] = eb;
            e2 += eb;
            eb = 0.0;
            b++;
            bend = bs && t + 1 < t1 ? bs[b + 1] : t1;
        }
    }
    return e2;
}

static inline __attribute__((always_inline)) double sweep_as(const lcp_stream *s, double *z, int dir,
                                                             const int *perm, const int has_e,
                                                             const int f32)
{
    double e2 = 0.0, *u = s->u;
    const void *jx = f32 ? (const void *)s->jf : (const void *)s->jx;
    const int m = s->m, *off = s->off;
    if (dir > 0)                                            /* the records in order */
        e2 = m > 0 ? forward(s, u, z, 0, m, NULL, NULL, has_e, 0, HEAD, f32) : 0.0;
    else if (dir < 0) {                                     /* backward */
        for (int t = m - 1; t >= 0; t--) {
            if (t - PF_AHEAD >= 0) prefetch_u(s->w + off[t - PF_AHEAD], jx, u, 0, HEAD, f32);
            e2 += row(s->w + off[t], s, z, u, has_e, 0, HEAD, f32);
        }
    } else {                                                /* rows in the order perm */
        const int *pos = s->natural ? NULL : s->pos;
        for (int t = 0; t < m; t++) {
            if (t + PF_AHEAD < m) {
                int i = perm[t + PF_AHEAD];
                prefetch_u(s->w + off[pos ? pos[i] : i], jx, u, 0, HEAD, f32);
            }
            int i = perm[t];
            e2 += row(s->w + off[pos ? pos[i] : i], s, z, u, has_e, 0, HEAD, f32);
        }
    }
    return e2;
}

double lcp_stream_sweep(lcp_stream *s, double *z, int dir, const int *perm)
{
    if (s->f32)
        return s->has_e ? sweep_as(s, z, dir, perm, 1, 1) : sweep_as(s, z, dir, perm, 0, 1);
    return s->has_e ? sweep_as(s, z, dir, perm, 1, 0) : sweep_as(s, z, dir, perm, 0, 0);
}

void lcp_stream_blocks(const lcp_stream *s, double *u, double *z, const int *bs, int b0, int b1,
                       double *part)
{
    if (bs[b0] >= bs[b1]) return;                /* the head: head_copied(s), as constants */
    if (s->has_e)
        forward(s, u, z, bs[b0], bs[b1], bs + b0, part + b0, 1, 1, HEAD + 3 + 1, 0);
    else
        forward(s, u, z, bs[b0], bs[b1], bs + b0, part + b0, 0, 1, HEAD + 3 + 0, 0);
}

int lcp_stream_pays(const lcp_problem *P)
{
    const lcp_csr *J = &P->J;
    long seen = 0, far = 0;
    for (int i = 1; i < P->m; i += SAMPLE) {
        int jump = 0;
        for (int k = J->p[i]; k < J->p[i + 1] && !jump; k++) {
            int near = 0;
            for (int q = J->p[i - 1]; q < J->p[i] && !near; q++)
                near = abs(J->j[q] - J->j[k]) <= NEAR;
            jump = !near;
        }
        seen++;
        far += jump;
    }
    return seen > 0 && (double)far >= JUMPS * (double)seen;
}
