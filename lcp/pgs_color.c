/* pgs_color.c: projected Gauss-Seidel over a colouring of the rows (`pgs-color') or of
 * the contacts (`pgs-color-contact'), on POSIX threads.
 *
 * COLOURING (lcp_color_rows, in the setup: lcp_prepare, or the start of a solve given none
 * that fits; timed into info->color_time).  Two rows may be
 * updated at the same time when neither reads what the other writes:
 *   matrix-free: row i reads u at the columns of J_i and writes u at the columns of
 *     B_i = (J Minv)_i (the bodies of its contact), and z_i;
 *   assembled:   row i reads z_j where a_ij != 0 and writes z_i;
 *   friction:    row i reads z_f, f = findex[i], for its bounds.
 * So rows conflict when they share a column of J or B (matrix-free), when a_ij or a_ji is
 * nonzero (assembled), or when one is the other's normal row; the friction rows of a
 * contact also share its bodies, so they and their normal row get different colours, and
 * a friction row always takes its bounds from the newest normal value of an earlier colour
 * or of the previous sweep (we keep that coupling instead of grouping the contact, which
 * would be pgs-block's visit).  The greedy colouring takes rows in natural order and gives
 * each the smallest colour none of its earlier neighbours has: matrix-free, each column
 * keeps the set of colours of the rows coloured so far that touch it, so the cost is
 * O(sum over rows of their columns x the colours / 64) and the memory a bit set per
 * column, B's rows being made one at a time from J and Minv (B is never held); assembled,
 * from the pattern of A + A^T.  Within a colour the rows are ordered by their first column
 * of J (the first body of the contact; assembled: by row), then by row.
 * CONTACTS (pgs-color-contact, the grouping engines use): the unit coloured is a contact,
 * its normal row with the friction rows whose findex names it (a row without findex and
 * not named is a unit alone).  Units conflict when rows of the two share what rows
 * conflict on above; a unit's rows get one colour and are visited in turn, in ascending
 * order, by one thread, so a friction row takes its bounds from its normal row updated
 * just before it (as in natural-order pgs) and the contact's u lines are fetched once
 * for its rows.  Units are coloured in the order of their first row; within a colour
 * they are ordered by the key of the normal row, then by that row, their rows ascending.
 * Without findex every unit is one row and the two solvers are the same.
 *
 * SWEEP.  Colour by colour; the rows of a colour are cut into fixed blocks of whole units,
 * each closed at the first unit boundary from BLOCK rows on (rows: BLOCK rows), and the
 * blocks of each colour are shared out between the threads: thread k of T starts on
 * the k-th of T equal shares of each colour's blocks (color_split), and as the rows
 * of a colour are ordered by their first body, a thread keeps about the same bodies from
 * colour to colour and their u, and the z of their rows, stay in its cache; a thread
 * that has finished its share takes what is left of the others' from their backs
 * (claim, color_task), so a thread held up does not hold up the colour; a thread
 * starts a colour once every block of the previous one is done (a counter of blocks per
 * colour; no barrier, and no wait for a thread that holds no block, see color_task).  The rows read and write the caller's z in place (a
 * contact's rows are adjacent: one line for its three rows).  Matrix-free, a colour's
 * rows are the streaming layout's records (stream.c) laid out in colour order and
 * carrying their values, one array read forward by each thread, with u's lines fetched
 * 8 records ahead; assembled, the rows of A and the row vectors in colour order.
 * Each row is the `pgs' update with the same arithmetic,
 *     r_i = (A z + q)_i,  z_i <- mid(lo_i, z_i - omega r_i / a_ii, hi_i),  u += B_i^T dz,
 * and since rows of one colour touch disjoint data, the iterates are bit-identical to
 * serial `pgs' with the ordering `perm' = the rows colour by colour (the order
 * lcp_color_rows returns), for any T.  The fused stopping test's row residuals
 * (iterate.c) are summed per block and the blocks in order, so the estimate does not
 * depend on T either.
 * Threads: options.threads, or options.threads_auto (lcp_threads_free); the pool is
 * started once per solve, one hand-over (pool.c) per sweep, per colour and thread one
 * atomic add (when it ran blocks) and one wait.  The ordering option
 * does not apply (the colouring orders).
 * SETUP (lcp_prepare): the row operator, the colouring, the rows' data in colour order and
 * the colours' blocks, made for omega and the form; a solve reads them only (its u, the
 * split between its threads and the pool are its own), so
 * one setup serves solves on any number of threads.  A solve given none, or one made for
 * another omega or form, sets up for itself.
 * Cost per sweep: that of a pgs sweep, divided among the threads, plus a compare-and-swap
 * per 4 blocks claimed and per colour a wait for the last blocks claimed to finish.
 * Source: graph-coloured Gauss-Seidel as engines parallelise the contact solve (e.g.
 * Tonge, Benevolenski, Voroshilov, "Mass splitting for jitter-free parallel rigid body
 * simulation", 2012, section 2, on the colouring and its cost in convergence).
 */
#include "lcp_internal.h"
#include "solvers.h"
#include "stream.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* BLOCK rows: the unit of the residual sums and of the split between threads (fixed, so
 * the sums do not depend on T) */
enum { BLOCK = 32, MAX_THREADS = 256 };
/* blocks a thread claims at a time from its own share (front) or another's (back) */
enum { CHUNK = 4, LEFT_STRIDE = 8 };

/* the unit row i is visited in: its own (rows), or its contact's normal row (contacts) */
static inline int unit_of(const lcp_problem *P, int contact, int i)
{
    return contact && P->findex && P->findex[i] >= 0 ? P->findex[i] : i;
}

/* Matrix-free: the units sharing a column conflict, and the columns of row i are those of
 * J_i, of B_i = (J Minv)_i (a contact row's: its bodies' coordinates, J_i's own when
 * Minv is diagonal) and n + g_i (g_i: the normal row of a friction row, else i).  Each
 * column keeps the set of colours of the units already coloured that touch it (W 64-bit
 * words, W doubled when a unit needs colour 64 W); a unit's forbidden colours are the
 * union over its rows' columns.  The same colouring as looking up the rows that share
 * each column, without the conflict pattern and its transpose (which were the colourings'
 * peak memory: results/performance.md), and B's rows made one at a time (B never held). */
/* the column sets (W words each) of unit g's columns: ORed into forb (forb given), or
 * colour c added to each (forb NULL) */
static void unit_columns(const lcp_problem *P, lcp_csr_rows *b, const int *up, const int *ur,
                         int g, uint64_t *set, size_t W, uint64_t *forb, int c)
{
    const lcp_csr *J = &P->J;
    for (int s = up[g]; s < up[g + 1]; s++) {
        int r = ur[s];
        lcp_csr_row(b, r);
        int nj = J->p[r + 1] - J->p[r], nb = lcp_stream_same_pattern(J, r, b) ? 0 : b->len;
        int f = P->findex && P->findex[r] >= 0 ? P->findex[r] : r;
        for (int k = 0; k <= nj + nb; k++) {
            size_t col = k < nj ? (size_t)J->j[J->p[r] + k]
                       : k < nj + nb ? (size_t)b->j[k - nj] : (size_t)P->n + (size_t)f;
            uint64_t *cs = set + col * W;
            if (forb)
                for (size_t w = 0; w < W; w++) forb[w] |= cs[w];
            else
                cs[c / 64] |= 1ull << (c % 64);
        }
    }
}

static lcp_status color_units_mf(const lcp_problem *P, int contact, const int *up,
                                 const int *ur, int *color, int *ncolors)
{
    int m = P->m, nc = 0;
    size_t ncol = (size_t)P->n + (size_t)m, W = 1;
    lcp_csr_rows b;
    lcp_status st = lcp_csr_rows_init(&b, NULL, &P->J, &P->Minv);
    if (st != LCP_OK) return st;
    uint64_t *set = lcp_calloc(ncol * W + 1, sizeof(uint64_t));
    uint64_t *forb = lcp_malloc(W + 1, sizeof(uint64_t));
    if (!set || !forb) st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < m; i++) {
        int g = unit_of(P, contact, i);
        if (color[g] >= 0) continue;                       /* coloured with an earlier row */
        memset(forb, 0, W * sizeof(uint64_t));
        unit_columns(P, &b, up, ur, g, set, W, forb, 0);
        int c = 0;
        while ((size_t)c < 64 * W && (forb[c / 64] >> (c % 64) & 1)) c++;
        if ((size_t)c == 64 * W) {                         /* every colour so far: widen */
            uint64_t *wide = lcp_calloc(ncol * 2 * W + 1, sizeof(uint64_t));
            uint64_t *fw = lcp_calloc(2 * W + 1, sizeof(uint64_t));
            if (!wide || !fw) {
                lcp_free(wide);
                lcp_free(fw);
                st = LCP_ERR_NOMEM;
                break;
            }
            for (size_t k = 0; k < ncol; k++)
                memcpy(wide + k * 2 * W, set + k * W, W * sizeof(uint64_t));
            lcp_free(set);
            lcp_free(forb);
            set = wide;
            forb = fw;
            W *= 2;
        }
        color[g] = c;
        if (c + 1 > nc) nc = c + 1;
        unit_columns(P, &b, up, ur, g, set, W, NULL, c);
    }
    lcp_free(set);
    lcp_free(forb);
    lcp_csr_rows_free(&b);
    *ncolors = nc;
    return st;
}

/* assembled: the pattern of the rows' couplings, A + A^T + friction edges (neighbours
 * directly) */
static lcp_status conflict_pattern(const lcp_problem *P, lcp_csr *C)
{
    int m = P->m;
    long nz = (long)m + 2L * LCP_CSR_NNZ(&P->A) + 2L * m;
    if (nz > 2147483647L) return LCP_ERR_TOO_LARGE;
    int *ti = lcp_malloc((size_t)nz, sizeof(int)), *tj = lcp_malloc((size_t)nz, sizeof(int));
    double *tx = lcp_calloc((size_t)nz, sizeof(double));
    lcp_status st = (!ti || !tj || !tx) ? LCP_ERR_NOMEM : LCP_OK;
    int t = 0;
    for (int i = 0; st == LCP_OK && i < m; i++) {
        int f = P->findex && P->findex[i] >= 0 ? P->findex[i] : -1;
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) {
            ti[t] = i, tj[t++] = P->A.j[k];
            ti[t] = P->A.j[k], tj[t++] = i;
        }
        ti[t] = i, tj[t++] = i;
        if (f >= 0) {
            ti[t] = i, tj[t++] = f;
            ti[t] = f, tj[t++] = i;
        }
    }
    if (st == LCP_OK) st = lcp_csr_from_triplets(C, m, m, t, ti, tj, tx);
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    return st;
}

lcp_status lcp_color_rows(const lcp_problem *P, int mf, int contact, int *ncolors,
                          int **colptr, int **rows)
{
    int m = P->m;
    lcp_csr C = {0};
    *colptr = *rows = NULL;
    *ncolors = 0;
    lcp_status st = mf ? LCP_OK : conflict_pattern(P, &C);
    int *color = lcp_malloc((size_t)m + 1, sizeof(int));   /* by unit (its normal row) */
    int *mark = lcp_malloc((size_t)m + 1, sizeof(int));
    int *up = lcp_calloc((size_t)m + 2, sizeof(int));      /* the rows of each unit, */
    int *ur = lcp_malloc((size_t)m + 1, sizeof(int));      /* ascending */
    int nc = 0;
    if (st == LCP_OK && (!color || !mark || !up || !ur)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        for (int i = 0; i < m; i++) up[unit_of(P, contact, i) + 1]++;
        for (int i = 0; i < m; i++) up[i + 1] += up[i];
        for (int i = 0; i < m; i++) ur[up[unit_of(P, contact, i)]++] = i;
        for (int i = m; i > 0; i--) up[i] = up[i - 1];
        up[0] = 0;
    }
    for (int c = 0; st == LCP_OK && c <= m; c++) mark[c] = -1, color[c] = -1;
    /* units in the order of their first row, each the smallest colour that no unit
     * coloured before it and sharing a column (matrix-free) or coupled (assembled) has */
    if (st == LCP_OK && mf) st = color_units_mf(P, contact, up, ur, color, &nc);
    for (int i = 0; st == LCP_OK && !mf && i < m; i++) {
        int g = unit_of(P, contact, i);
        if (color[g] >= 0) continue;                       /* coloured with an earlier row */
        for (int s = up[g]; s < up[g + 1]; s++)
            for (int k = C.p[ur[s]]; k < C.p[ur[s] + 1]; k++) {
                int h = unit_of(P, contact, C.j[k]);       /* neighbours directly */
                if (h != g && color[h] >= 0) mark[color[h]] = g;
            }
        int c = 0;
        while (mark[c] == g) c++;
        color[g] = c;
        if (c + 1 > nc) nc = c + 1;
    }
    if (st == LCP_OK) {
        *colptr = lcp_calloc((size_t)nc + 1, sizeof(int));
        *rows = lcp_malloc((size_t)m + 1, sizeof(int));
        if (!*colptr || !*rows) st = LCP_ERR_NOMEM;
    }
    int nkey = mf ? P->n + 1 : m + 1;
    int *kp = st == LCP_OK ? lcp_calloc((size_t)nkey + 1, sizeof(int)) : NULL;
    int *bykey = st == LCP_OK ? lcp_malloc((size_t)m + 1, sizeof(int)) : NULL;
    if (st == LCP_OK && (!kp || !bykey)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        /* ur lists the rows by unit, then ascending; counting sorts, each stable: by the
         * key of the unit's normal row, then by colour */
        for (int i = 0; i < m; i++) kp[lcp_color_key(P, mf, unit_of(P, contact, i)) + 1]++;
        for (int k = 0; k < nkey; k++) kp[k + 1] += kp[k];
        for (int s = 0; s < m; s++)
            bykey[kp[lcp_color_key(P, mf, unit_of(P, contact, ur[s]))]++] = ur[s];
        int *cp = *colptr;
        for (int i = 0; i < m; i++) cp[color[unit_of(P, contact, i)] + 1]++;
        for (int c = 0; c < nc; c++) cp[c + 1] += cp[c];
        for (int c = 0; c <= nc; c++) mark[c] = cp[c];
        for (int s = 0; s < m; s++) {
            int i = bykey[s];
            (*rows)[mark[color[unit_of(P, contact, i)]]++] = i;
        }
        *ncolors = nc;
    } else {
        lcp_free(*colptr);
        lcp_free(*rows);
        *colptr = *rows = NULL;
    }
    lcp_free(kp);
    lcp_free(bykey);
    lcp_free(color);
    lcp_free(mark);
    lcp_free(up);
    lcp_free(ur);
    lcp_csr_free(&C);
    return st;
}

/* What pgs-color's setup makes (lcp_prepare): the colouring and the rows' data in colour
 * order, for the options that fix them (omega: the steps; the form).  A solve only reads
 * it: u, the iterate in colour order, the split between threads and the pool are its own. */
typedef struct color_prep {
    unsigned tag;        /* LCP_PREP_COLOR */
    double omega;
    int mf, m, n;
    int contact;         /* 1: the units are contacts (pgs-color-contact), 0: rows */
    double color_time;   /* seconds of lcp_color_rows */
    int ncolors;
    int *colptr, *rows;  /* the colouring */
    int *bp;             /* ncolors + 1: first block of each colour */
    int *bs;             /* blocks + 1: the first position of each block */
    /* the rows' data in colour order (position t holds row rows[t]): one stream per sweep */
    lcp_stream st;       /* matrix-free: the rows' records (stream.c, copied), without u */
    lcp_csr R;           /* assembled: the rows of A */
    double *q, *lo, *hi, *step;  /* assembled; step = omega / a_ii */
    int *f;              /* assembled: findex (friction rows), -1 elsewhere; or NULL */
} color_prep;

typedef struct color_ctx {
    const lcp_problem *P;
    color_prep L;        /* a copy of the prepared one's members (read only) */
    double *u;           /* matrix-free: n entries, u = Minv J^T z (L.st's numbering) */
    lcp_pool *pool;
    int T;
    int *cut;            /* ncolors x (T + 1): thread k's share, blocks [cut[c(T+1)+k], ...+1) */
    double *part;        /* one partial sum of rho^2 per block */
    atomic_int *done;    /* ncolors: blocks done of each colour (this sweep) */
    atomic_int bail;     /* 1: the sweep overran (lcp_pool_overdue), the caller ends it alone */
    _Atomic uint64_t *left; /* ncolors x T, LEFT_STRIDE apart (a cache line each): the
                             blocks of thread k's share not yet claimed, [front, back)
                             packed as front << 32 | back */
    double *z;           /* the iterate of the sweep being run (the caller's) */
    int solo;            /* sweeps run on the calling thread alone (adaptive runs) */
} color_ctx;

/* D = the rows of S in the order rows[0..m-1] */
static lcp_status csr_rows(const lcp_csr *S, const int *rows, int m, lcp_csr *D)
{
    lcp_status st = lcp_csr_alloc(D, m, S->ncol, LCP_CSR_NNZ(S));
    if (st != LCP_OK) return st;
    int nz = 0;
    for (int t = 0; t < m; t++) {
        int i = rows[t];
        for (int k = S->p[i]; k < S->p[i + 1]; k++, nz++) {
            D->j[nz] = S->j[k];
            D->x[nz] = S->x[k];
        }
        D->p[t + 1] = nz;
    }
    return LCP_OK;
}

/* the rows' data in colour order, from the row operator op: matrix-free the records of
 * the streaming layout (stream.c) laid out in the colour order and carrying the rows'
 * values, u in the problem's numbering (stream.c says why); assembled, the rows of A
 * (columns as in A: the rows read z in place) and the row vectors.  Over 2^31 words of
 * records: LCP_ERR_TOO_LARGE. */
static lcp_status color_layout(color_prep *L, const lcp_problem *P, const lcp_rowop *op,
                               double omega)
{
    int m = P->m;
    if (L->mf) {
        double *step = lcp_malloc((size_t)m + 1, sizeof(double));
        if (!step) return LCP_ERR_NOMEM;
        for (int i = 0; i < m; i++) step[i] = omega / op->diag[i];   /* the same as pgs */
        lcp_status st = lcp_stream_build(&L->st, P, NULL, step, L->rows, 1);   /* B made */
        lcp_free(step);
        lcp_free(L->st.u);                                   /* each solve has its own */
        L->st.u = NULL;
        return st == LCP_ERR_ARG ? LCP_ERR_TOO_LARGE : st;
    }
    lcp_status st = csr_rows(&P->A, L->rows, m, &L->R);
    if (st != LCP_OK) return st;
    L->q = lcp_malloc((size_t)m + 1, sizeof(double));
    L->lo = lcp_malloc((size_t)m + 1, sizeof(double));
    L->hi = lcp_malloc((size_t)m + 1, sizeof(double));
    L->step = lcp_malloc((size_t)m + 1, sizeof(double));
    if (P->findex) L->f = lcp_malloc((size_t)m + 1, sizeof(int));
    if (!L->q || !L->lo || !L->hi || !L->step || (P->findex && !L->f))
        return LCP_ERR_NOMEM;
    for (int t = 0; t < m; t++) {
        int i = L->rows[t];
        L->q[t] = P->q[i];
        L->lo[t] = P->lo[i];
        L->hi[t] = P->hi[i];
        L->step[t] = omega / op->diag[i];               /* the same step as pgs */
        if (L->f) L->f[t] = P->findex[i];
    }
    return LCP_OK;
}

/* The shares: colour col's blocks [cut_k, cut_{k+1}) are thread k's to start on, the k-th
 * of T equal shares of its blocks (what is left of a share when its thread is late goes
 * to the others: color_task).  Rows being ordered by their first body in each colour, a
 * thread has about the same range of bodies in every colour (their u, and the z of their
 * rows, stay in its cache) and the same number of rows (the smaller body of a contact is
 * its first, so equal ranges of bodies would not be equal shares of rows); the blocks,
 * and so the residual sums, do not depend on T. */
static void color_split(color_ctx *c)
{
    for (int col = 0; col < c->L.ncolors; col++) {
        int *cut = c->cut + (size_t)col * (c->T + 1);
        long nb = c->L.bp[col + 1] - c->L.bp[col];
        for (int k = 0; k <= c->T; k++) cut[k] = c->L.bp[col] + (int)(nb * k / c->T);
    }
}

/* the rows of blocks [b0, b1) (of one colour); the same row arithmetic as pgs.
 * Matrix-free, the layout's records (lcp_stream_blocks, which fetches the lines of u that
 * the row 8 records ahead will read and write: they were last written by whichever thread
 * ran that body in an earlier colour).  Assembled, A's rows (E in their diagonal) read z
 * in place. */
static void color_blocks(color_ctx *c, int b0, int b1)
{
    if (c->L.mf) {
        lcp_stream_blocks(&c->L.st, c->u, c->z, c->L.bs, b0, b1, c->part);
        return;
    }
    const lcp_csr *R = &c->L.R;
    double *z = c->z;
    for (int b = b0; b < b1; b++) {
        double e2 = 0.0;
        for (int t = c->L.bs[b]; t < c->L.bs[b + 1]; t++) {
            int i = c->L.rows[t];
            double lo = c->L.lo[t], hi = c->L.hi[t];
            if (c->L.f && c->L.f[t] >= 0) {                  /* friction: lcp_row_bounds */
                double zn = fabs(z[c->L.f[t]]);
                lo *= zn;
                hi *= zn;
            }
            double r = c->L.q[t];                                     /* r_i = (A z + q)_i */
            for (int k = R->p[t]; k < R->p[t + 1]; k++) r += R->x[k] * z[R->j[k]];
            double rho = z[i] - lcp_mid(lo, z[i] - r, hi);           /* row as visited */
            e2 += rho * rho;
            z[i] = lcp_mid(lo, z[i] - c->L.step[t] * r, hi);
        }
        c->part[b] = e2;
    }
}

/* Claim up to CHUNK blocks of a share: its owner from the front, another thread from the
 * back; [*b0, *b1) is the claim, 0 when the share is used up.  One compare-and-swap on
 * the packed pair, so a block is claimed once whoever races for it. */
static int claim(_Atomic uint64_t *left, int back, int *b0, int *b1)
{
    uint64_t s = atomic_load(left);
    for (;;) {
        int f = (int)(s >> 32), e = (int)(s & 0xffffffffu);
        if (f >= e) return 0;
        int nf = f, ne = e;
        if (back) ne = e - CHUNK > f ? e - CHUNK : f;
        else nf = f + CHUNK < e ? f + CHUNK : e;
        if (atomic_compare_exchange_weak(left, &s, (uint64_t)nf << 32 | (uint32_t)ne)) {
            *b0 = back ? ne : f;
            *b1 = back ? e : nf;
            return 1;
        }
    }
}

/* Thread tid runs its share of each colour's blocks from the front, then takes what is
 * left of the other threads' shares from their backs (a thread held up, by the host or
 * its cache misses, no longer holds up the colour), and starts on the next colour once
 * every block of this one is done (a count of the blocks done per colour, not of the
 * threads: a thread that the host has taken off its core between two claims holds up
 * nobody, as the others take its share and nobody waits for it to pass; only a claim in
 * progress is waited for).  The wait spins briefly and then sleeps (lcp_pool_await).
 * Which thread runs a block changes nothing: the blocks of a colour touch disjoint data
 * and each writes its own partial sum. */
static void color_task(void *vctx, int tid)
{
    color_ctx *c = vctx;
    int T = c->T, b0, b1, solo = lcp_pool_active(c->pool) == 1;
    for (int col = 0; col < c->L.ncolors; col++) {
        if (tid > 0 && atomic_load(&c->bail)) return;   /* the caller finishes alone */
        if (col > 0)
            lcp_pool_await(c->pool, &c->done[col - 1], c->L.bp[col] - c->L.bp[col - 1]);
        if (tid == 0 && !solo && !atomic_load(&c->bail) && lcp_pool_overdue(c->pool))
            atomic_store(&c->bail, 1);
        _Atomic uint64_t *left = c->left + (size_t)col * T * LEFT_STRIDE;
        int ran = 0;                              /* blocks this thread ran of this colour */
        while (!(tid > 0 && atomic_load(&c->bail)) &&
               claim(&left[tid * LEFT_STRIDE], 0, &b0, &b1)) {
            color_blocks(c, b0, b1);
            ran += b1 - b0;
        }
        for (int v = 1; v < T; v++)     /* alone (a solo run): the others' from the front */
            while (!(tid > 0 && atomic_load(&c->bail)) &&
                   claim(&left[(tid + v) % T * LEFT_STRIDE], !solo, &b0, &b1)) {
                color_blocks(c, b0, b1);
                ran += b1 - b0;
            }
        if (ran > 0) lcp_pool_add(c->pool, &c->done[col], ran);   /* one add (and wake-up) */
    }
}

static lcp_status color_sweep(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    color_ctx *c = vctx;
    (void)row;
    if (k == 1 && c->L.mf) {    /* u = Minv J^T z at the start, as lcp_rowop_reset */
        lcp_stream s = c->L.st;
        s.u = c->u;
        lcp_stream_reset(&s, z);
    }
    c->z = z;
    atomic_store(&c->bail, 0);
    for (int col = 0; col < c->L.ncolors; col++) {
        atomic_store(&c->done[col], 0);
        const int *cut = c->cut + (size_t)col * (c->T + 1);
        for (int t = 0; t < c->T; t++)                          /* the shares, whole */
            atomic_store(&c->left[((size_t)col * c->T + t) * LEFT_STRIDE],
                         (uint64_t)cut[t] << 32 | (uint32_t)cut[t + 1]);
    }
    c->solo += lcp_pool_run_adaptive(c->pool, color_task, c);   /* tid 0 alone: all blocks */
    double e2 = 0.0;
    for (int b = 0; b < c->L.bp[c->L.ncolors]; b++) e2 += c->part[b];   /* blocks in order */
    est->e2 = e2;
    return LCP_OK;
}

/* omega and threads in range */
static int color_args(const lcp_options *opt)
{
    return opt->omega > 0.0 && opt->omega < 2.0 &&
           (opt->threads_auto || (opt->threads >= 1 && opt->threads <= MAX_THREADS));
}

static void color_prep_free(color_prep *L)
{
    if (!L) return;
    lcp_stream_free(&L->st);
    lcp_csr_free(&L->R);
    lcp_free(L->q);
    lcp_free(L->lo);
    lcp_free(L->hi);
    lcp_free(L->f);
    lcp_free(L->step);
    lcp_free(L->colptr);
    lcp_free(L->rows);
    lcp_free(L->bp);
    lcp_free(L->bs);
    lcp_free(L);
}

/* The set-up (once per problem): the row operator (a_ii > 0, else *row), the colouring
 * (timed), the rows in colour order and the colours' blocks; B is kept for u's reset and
 * a_ii dropped. */
static lcp_status color_prepare(const lcp_problem *P, const lcp_options *opt, int contact,
                                color_prep **out, int *row)
{
    *out = NULL;
    if (!color_args(opt)) return LCP_ERR_ARG;
    lcp_rowop op = {0};
    color_prep *L = lcp_calloc(1, sizeof *L);
    lcp_status st = L ? lcp_rowop_init_diag(&op, P, opt->form) : LCP_ERR_NOMEM;   /* no B */
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(op.diag[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            *row = i;
        }
    if (st == LCP_OK) {
        L->tag = LCP_PREP_COLOR;
        L->omega = opt->omega;
        L->mf = op.mf;
        L->m = P->m;
        L->n = P->n;
        L->contact = contact;
        double t0 = lcp_seconds();
        st = lcp_color_rows(P, op.mf, contact, &L->ncolors, &L->colptr, &L->rows);
        L->color_time = lcp_seconds() - t0;
    }
    if (st == LCP_OK) st = color_layout(L, P, &op, opt->omega);
    if (st == LCP_OK && (!(L->bp = lcp_malloc((size_t)L->ncolors + 1, sizeof(int))) ||
                         !(L->bs = lcp_malloc((size_t)P->m + 1, sizeof(int)))))
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {            /* blocks: whole units, closed at BLOCK rows or more */
        int nb = 0;
        L->bp[0] = 0;
        for (int col = 0; col < L->ncolors; col++) {
            for (int t = L->colptr[col]; t < L->colptr[col + 1]; t++)
                if (t == L->colptr[col] ||
                    (t - L->bs[nb - 1] >= BLOCK &&
                     unit_of(P, contact, L->rows[t]) != unit_of(P, contact, L->rows[t - 1])))
                    L->bs[nb++] = t;
            L->bp[col + 1] = nb;
        }
        L->bs[nb] = P->m;
    }
    lcp_rowop_free(&op);
    if (st != LCP_OK) {
        color_prep_free(L);
        return st;
    }
    *out = L;
    return LCP_OK;
}

/* 1 when L was made by color_prepare for P with options like opt */
static int color_fits(const color_prep *L, const lcp_problem *P, const lcp_options *opt,
                      int contact)
{
    return L->tag == LCP_PREP_COLOR && L->contact == contact && L->omega == opt->omega &&
           L->m == P->m &&
           L->n == P->n && L->mf == lcp_rowop_mf(P, opt->form) &&
           (!L->mf || lcp_problem_has_factors(P)) && (L->mf || P->A.p);
}

/* the sweeps from the prepared L (read only), on opt->threads threads */
static lcp_status color_run(const color_prep *L, const lcp_problem *P, const lcp_options *opt,
                            double *z, lcp_info *info)
{
    color_ctx c;
    memset(&c, 0, sizeof c);
    c.P = P;
    c.L = *L;
    c.T = lcp_threads(opt);
    if (c.T > MAX_THREADS) c.T = MAX_THREADS;
    lcp_status st = LCP_OK;
    if (L->mf) c.u = lcp_calloc((size_t)L->st.n + 1, sizeof(double));
    c.part = lcp_calloc((size_t)L->bp[L->ncolors] + 1, sizeof(double));
    c.cut = lcp_malloc((size_t)L->ncolors * ((size_t)c.T + 1) + 1, sizeof(int));
    c.done = lcp_malloc((size_t)L->ncolors + 1, sizeof(atomic_int));
    c.left = lcp_malloc((size_t)L->ncolors * (size_t)c.T * LEFT_STRIDE + 1,
                        sizeof(_Atomic uint64_t));
    if ((L->mf && !c.u) || !c.part || !c.cut || !c.done || !c.left) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) color_split(&c);
    atomic_init(&c.bail, 0);
    for (int col = 0; st == LCP_OK && col < L->ncolors; col++) {
        atomic_init(&c.done[col], 0);
        for (int t = 0; t < c.T; t++)
            atomic_init(&c.left[((size_t)col * c.T + t) * LEFT_STRIDE], 0);
    }
    if (st == LCP_OK) st = lcp_pool_start(&c.pool, c.T);
    if (st == LCP_OK) lcp_pool_set_adapt(c.pool, !opt->threads_fixed);
    if (st == LCP_OK) {
        info->form = L->mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = opt->omega;
        info->threads = c.T;
        info->colors = L->ncolors;
        st = lcp_iterate_fused(P, opt, color_sweep, &c, z, info);
        info->color_time = L->color_time;
        info->solo_sweeps = c.solo;
    }
    lcp_pool_stop(c.pool);
    lcp_free(c.u);
    lcp_free(c.part);
    lcp_free(c.cut);
    lcp_free(c.done);
    lcp_free(c.left);
    return st;
}

static lcp_status color_setup(const lcp_problem *P, const lcp_options *opt, int contact,
                              void **data)
{
    if (!data) return LCP_ERR_ARG;
    *data = NULL;
    if (!P || !opt) return LCP_ERR_ARG;
    color_prep *L;
    int row;
    lcp_status st = color_prepare(P, opt, contact, &L, &row);
    *data = L;
    return st == LCP_ERR_NOMEM ? st : LCP_OK;   /* other errors: the solve reports them */
}

static lcp_status color_solve(const lcp_problem *P, const lcp_options *opt, int contact,
                              double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    const color_prep *L = opt->prepared;
    color_prep *own = NULL;
    lcp_status st = color_args(opt) ? LCP_OK : LCP_ERR_ARG;
    if (st == LCP_OK && (!L || !color_fits(L, P, opt, contact))) {   /* none, or for others */
        double t0 = lcp_seconds();
        st = color_prepare(P, opt, contact, &own, &info->row);
        if (own) info->setup_time = lcp_seconds() - t0;
        L = own;
    }
    if (st == LCP_OK) st = color_run(L, P, opt, z, info);
    color_prep_free(own);
    info->status = st;
    return st;
}

void lcp_teardown_pgs_color(void *data)
{
    color_prep_free(data);
}

/* the two variants: units of one row, or a contact's rows */
lcp_status lcp_setup_pgs_color(const lcp_problem *P, const lcp_options *opt, void **data)
{
    return color_setup(P, opt, 0, data);
}

lcp_status lcp_solve_pgs_color(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info)
{
    return color_solve(P, opt, 0, z, info);
}

lcp_status lcp_setup_pgs_color_contact(const lcp_problem *P, const lcp_options *opt,
                                       void **data)
{
    return color_setup(P, opt, 1, data);
}

lcp_status lcp_solve_pgs_color_contact(const lcp_problem *P, const lcp_options *opt, double *z,
                                       lcp_info *info)
{
    return color_solve(P, opt, 1, z, info);
}
