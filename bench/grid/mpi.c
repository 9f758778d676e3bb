/* mpi.c: the ranks of mpirun as workers of lcpbench's grids (bench/README.md, "Grids on a cluster"):
 * starting MPI, dealing numbered cells from rank 0 to the other ranks and gathering their
 * results in cell order, and telling idle workers their next job (`table' runs several grids
 * and `reorder' ranges of permutations in one job).  What a cell is and what its result holds
 * is the caller's (run.c: a grid's run, tables/reorder.c: a range of orderings).
 *
 * Dealing: a worker says hello, rank 0 answers with two cells, then each result with one
 * more, so a worker always holds its next cell while it runs one.  A worker sends its result
 * without waiting for rank 0 to take it (MPI_Isend, completed before the next result), and
 * rank 0 receives results without blocking on a busy worker (matched probe, MPI_Imrecv), so
 * neither side ever waits for the other while a cell runs.  Rank 0 runs no cell; when nothing
 * arrives it sleeps a quarter of the mean cell time so far (0.1 to 20 ms; 1 ms before the
 * first result), and an idle worker waiting for a job sleeps 1 ms: Open MPI's blocking calls
 * spin at 100% CPU, which would take the core of a rank that computes.  Cost per cell: two
 * messages (the cell and its result) and the copies of the result.
 * Built without MPI (or outside mpirun, or on 1 rank) bench_mpi_start returns NULL and the
 * callers run serially.
 */
#include "grid.h"

#include <stdlib.h>
#include <string.h>

#ifdef LCPBENCH_HAVE_MPI
#include <mpi.h>
#include <stdint.h>
#include <time.h>

enum { TAG_HELLO = 1, TAG_RESULT = 2, TAG_CELL = 3, TAG_JOB = 4,
       HOSTLEN = MPI_MAX_PROCESSOR_NAME + 1 };

struct bench_mpi {
    int rank, n;
    char *hosts;              /* rank 0: n host names, HOSTLEN bytes apart */
};

typedef struct result_head {  /* before a result's bytes */
    int64_t cell, failed;
} result_head;

static void nap_for(double seconds)
{
    nanosleep(&(struct timespec){0, (long)(seconds * 1e9)}, NULL);
}

static void nap(void)
{
    nap_for(1e-3);
}

static void *must(void *p, const char *what)
{
    if (!p) {
        bench_error("mpi", "out of memory (%s)", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

bench_mpi *bench_mpi_start(void)
{
    const char *sz = getenv("OMPI_COMM_WORLD_SIZE");
    if (!sz) sz = getenv("PMI_SIZE");
    if (!sz || atoi(sz) < 2) return NULL;
    bench_mpi *m = lcp_calloc(1, sizeof *m);
    if (!m) return NULL;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->n);
    char me[HOSTLEN];
    int len = 0;
    memset(me, 0, sizeof me);
    MPI_Get_processor_name(me, &len);
    if (m->rank == 0) m->hosts = must(lcp_calloc((size_t)m->n, HOSTLEN), "hosts");
    MPI_Gather(me, HOSTLEN, MPI_CHAR, m->hosts, HOSTLEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    return m;
}

int bench_mpi_rank(const bench_mpi *m)
{
    return m ? m->rank : 0;
}

int bench_mpi_ranks(const bench_mpi *m)
{
    return m ? m->n : 1;
}

int bench_mpi_provenance(const bench_mpi *m, const char *cmd, const char *path, int argc,
                         char **argv)
{
    return bench_provenance_ranks(cmd, path, argc, argv, m->n, m->hosts, HOSTLEN);
}

int bench_mpi_agree(const bench_mpi *m, int ok)
{
    (void)m;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

void bench_mpi_abort(const bench_mpi *m)
{
    (void)m;
    MPI_Abort(MPI_COMM_WORLD, 1);
}

void bench_mpi_finish(bench_mpi *m)
{
    if (!m) return;
    lcp_free(m->hosts);
    lcp_free(m);
    MPI_Finalize();
}

/* ---- jobs ---------------------------------------------------------------------------------- */

void bench_mpi_job(const bench_mpi *m, int kind, const char *payload, size_t len)
{
    char *b = must(lcp_malloc(len + sizeof(int64_t), 1), "job");
    int64_t k = kind;
    memcpy(b, &k, sizeof k);
    memcpy(b + sizeof k, payload, len);
    if (len + sizeof k > INT32_MAX) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Request *rq = must(lcp_calloc((size_t)m->n, sizeof *rq), "job");
    for (int r = 1; r < m->n; r++)
        MPI_Isend(b, (int)(len + sizeof k), MPI_BYTE, r, TAG_JOB, MPI_COMM_WORLD, &rq[r]);
    int done = 0;
    while (!done) {          /* each worker takes it within a millisecond: no spinning */
        MPI_Testall(m->n - 1, rq + 1, &done, MPI_STATUSES_IGNORE);
        if (!done) nap();
    }
    lcp_free(rq);
    lcp_free(b);
}

char *bench_mpi_next_job(const bench_mpi *m, int *kind, size_t *len)
{
    (void)m;
    MPI_Message msg;
    MPI_Status s;
    int flag = 0, n = 0;
    for (;;) {
        MPI_Improbe(0, TAG_JOB, MPI_COMM_WORLD, &flag, &msg, &s);
        if (flag) break;
        nap();
    }
    MPI_Get_count(&s, MPI_BYTE, &n);
    char *b = must(lcp_malloc((size_t)n + 1, 1), "job");
    MPI_Mrecv(b, n, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    int64_t k = BENCH_JOB_END;
    if (n >= (int)sizeof k) memcpy(&k, b, sizeof k);
    *kind = (int)k;
    *len = n >= (int)sizeof k ? (size_t)n - sizeof k : 0;
    memmove(b, b + sizeof k, *len);
    b[*len] = 0;
    return b;
}

/* ---- dealing --------------------------------------------------------------------------------- */

int bench_mpi_work(const bench_mpi *m, bench_cell_fn *run, void *ctx)
{
    (void)m;
    long cell = -1, next = -1;
    int failed = 0;
    MPI_Request rq, sq = MPI_REQUEST_NULL;
    char *sb = NULL;
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
    MPI_Recv(&cell, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(&next, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, &rq);
    while (cell >= 0) {
        char *out = NULL;
        size_t len = 0;
        int bad = run(ctx, cell, &out, &len);
        failed |= bad;
        result_head h = {cell, bad};
        MPI_Wait(&sq, MPI_STATUS_IGNORE);      /* the previous result, long taken */
        lcp_free(sb);
        if (len + sizeof h > INT32_MAX) {
            bench_error("mpi", "cell %ld: a result of %zu bytes is too large", cell, len);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        sb = must(lcp_malloc(sizeof h + len, 1), "result");
        memcpy(sb, &h, sizeof h);
        if (len) memcpy(sb + sizeof h, out, len);
        lcp_free(out);
        MPI_Isend(sb, (int)(sizeof h + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &sq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);      /* the cell dealt ahead: already here */
        cell = next;
        MPI_Irecv(&next, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, &rq);
    }
    MPI_Wait(&rq, MPI_STATUS_IGNORE);          /* the answer to the last result: -1 */
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    lcp_free(sb);
    return failed;
}

int bench_mpi_deal(const bench_mpi *m, const char *label, long total, bench_put_fn *put,
                   void *ctx)
{
    long next = 0, written = 0;
    int active = m->n - 1, failed = 0, npend = 0, cap = 4 * m->n;
    char **got = must(lcp_calloc((size_t)total + 1, sizeof *got), "results");
    size_t *gotlen = must(lcp_calloc((size_t)total + 1, sizeof *gotlen), "results");
    int *ends = must(lcp_calloc((size_t)m->n, sizeof *ends), "results");
    MPI_Request *rq = must(lcp_calloc((size_t)cap, sizeof *rq), "results");
    char **pb = must(lcp_calloc((size_t)cap, sizeof *pb), "results");
    int *pl = must(lcp_calloc((size_t)cap, sizeof *pl), "results");
    int *idx = must(lcp_calloc((size_t)cap, sizeof *idx), "results");
    bench_progress prog;
    bench_progress_start(&prog, label, total);
    if (!label) prog.tty = 0;
    double t0 = bench_now();
    while (active > 0 || npend > 0) {
        int busy = 0, flag = 0;
        MPI_Message msg;
        MPI_Status s;
        if (active > 0 && npend < cap)
            MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &s);
        if (flag) {                                /* a worker asks: deal, then receive */
            int len = 0, src = s.MPI_SOURCE;
            MPI_Get_count(&s, MPI_BYTE, &len);
            if (s.MPI_TAG == TAG_RESULT) {
                pb[npend] = must(lcp_malloc(len > 0 ? (size_t)len : 1, 1), "result");
                pl[npend] = len;
                MPI_Imrecv(pb[npend], len, MPI_BYTE, &msg, &rq[npend]);
                npend++;
            } else MPI_Mrecv(NULL, 0, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
            for (int k = s.MPI_TAG == TAG_HELLO ? 2 : 1; k > 0; k--) {
                long give = next < total ? next++ : -1;
                if (give < 0 && ++ends[src] == 2) active--;
                MPI_Send(&give, 1, MPI_LONG, src, TAG_CELL, MPI_COMM_WORLD);
            }
            busy = 1;
        }
        int nd = 0;
        if (npend > 0) MPI_Testsome(npend, rq, &nd, idx, MPI_STATUSES_IGNORE);
        for (int j = 0; j < nd && nd != MPI_UNDEFINED; j++) {
            int i = idx[j];
            result_head h = {.cell = -1};
            if (pl[i] >= (int)sizeof h) memcpy(&h, pb[i], sizeof h);
            if (h.cell >= written && h.cell < total && !got[h.cell]) {
                got[h.cell] = pb[i];
                gotlen[h.cell] = (size_t)pl[i] - sizeof h;
                pb[i] = NULL;
            }
            lcp_free(pb[i]);
            pb[i] = NULL;
        }
        if (nd > 0 && nd != MPI_UNDEFINED) {       /* compact the pending list */
            int w = 0;
            for (int i = 0; i < npend; i++)
                if (rq[i] != MPI_REQUEST_NULL) {
                    rq[w] = rq[i];
                    pb[w] = pb[i];
                    pl[w++] = pl[i];
                }
            npend = w;
            busy = 1;
        }
        for (; written < total && got[written]; written++) {
            result_head h;
            memcpy(&h, got[written], sizeof h);
            failed |= put(ctx, written, (int)h.failed, got[written] + sizeof h, gotlen[written]);
            failed |= (int)h.failed;
            lcp_free(got[written]);
            got[written] = NULL;
            bench_progress_step(&prog, 1);
        }
        if (!busy) {   /* a quarter of a cell's time (results so far), 0.1 to 20 ms: the */
                       /* workers hold a cell ahead, so an answer is never late */
            double el = bench_now() - t0, nap_s = 1e-3;
            if (written > 0) nap_s = el * (m->n - 1) / (double)written / 4;
            nap_for(nap_s < 1e-4 ? 1e-4 : nap_s > 2e-2 ? 2e-2 : nap_s);
        }
    }
    bench_progress_end(&prog);
    lcp_free(got);
    lcp_free(gotlen);
    lcp_free(ends);
    lcp_free(rq);
    lcp_free(pb);
    lcp_free(pl);
    lcp_free(idx);
    return failed || written < total;
}

#else  /* built without MPI: bench_mpi_start returns NULL, so the rest is never called */

int bench_mpi_rank(const bench_mpi *m)
{
    (void)m;
    return 0;
}

int bench_mpi_ranks(const bench_mpi *m)
{
    (void)m;
    return 1;
}

bench_mpi *bench_mpi_start(void)
{
    return NULL;
}

void bench_mpi_finish(bench_mpi *m)
{
    (void)m;
}

int bench_mpi_provenance(const bench_mpi *m, const char *cmd, const char *path, int argc,
                         char **argv)
{
    (void)m;
    return bench_provenance_file(cmd, path, argc, argv);
}

int bench_mpi_agree(const bench_mpi *m, int ok)
{
    (void)m;
    return ok;
}

void bench_mpi_abort(const bench_mpi *m)
{
    (void)m;
    abort();
}

void bench_mpi_job(const bench_mpi *m, int kind, const char *payload, size_t len)
{
    (void)m;
    (void)kind;
    (void)payload;
    (void)len;
}

char *bench_mpi_next_job(const bench_mpi *m, int *kind, size_t *len)
{
    (void)m;
    *kind = BENCH_JOB_END;
    *len = 0;
    return NULL;
}

int bench_mpi_work(const bench_mpi *m, bench_cell_fn *run, void *ctx)
{
    (void)m;
    (void)run;
    (void)ctx;
    return 1;
}

int bench_mpi_deal(const bench_mpi *m, const char *label, long total, bench_put_fn *put,
                   void *ctx)
{
    (void)m;
    (void)label;
    (void)total;
    (void)put;
    (void)ctx;
    return 1;
}
#endif
