/* folder.c: the instance folder (lcp/README.md, "Instance folders"), in and out, through
 * liblcp's reader and writer; FCLIB's solution of its cone problem travels beside it as
 * zref-cone.mtx, never as zref.mtx (which zdiff and wdiff compare against). */
#include "formats.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define fail bench_fmt_fail /* msg filled, the status returned (dense.c) */

/* the name of FCLIB's solution in an instance folder: it solves the cone problem, not the
 * folder's LCP, so it is kept apart from zref.mtx (which zdiff and wdiff compare against) */
#define CONE_FILE "zref-cone.mtx"

static lcp_status cone_path(char *b, size_t n, const char *dir, char *msg, size_t len)
{
    if (snprintf(b, n, "%s/" CONE_FILE, dir) >= (int)n)
        return fail(msg, len, LCP_ERR_IO, "%s: path too long", dir);
    return LCP_OK;
}

/* IN/zref-cone.mtx when the folder has one (*cone NULL when not): m rows, finite */
static lcp_status read_cone(const char *dir, int m, double **cone, char *msg, size_t len)
{
    char path[4200];
    int rows = 0;
    *cone = NULL;
    lcp_status st = cone_path(path, sizeof path, dir, msg, len);
    if (st != LCP_OK || access(path, F_OK) != 0) return st;
    st = lcp_read_vector(path, &rows, cone, msg, len);
    if (st == LCP_OK && rows != m)
        st = fail(msg, len, LCP_ERR_FORMAT, "%s: %d rows where the instance has %d", path, rows,
                  m);
    for (int i = 0; st == LCP_OK && i < m; i++)
        if (!isfinite((*cone)[i]))
            st = fail(msg, len, LCP_ERR_FORMAT, "%s: row %d is not finite", path, i);
    if (st != LCP_OK) {
        lcp_free(*cone);
        *cone = NULL;
    }
    return st;
}

/* the instance folder, with zref-cone.mtx when cone is given (a stale one removed when not);
 * the cone file first, so that a failure leaves neither */
static lcp_status write_folder(const char *dir, const lcp_problem *P, const double *cone,
                               char *msg, size_t len)
{
    char path[4200];
    struct stat sb;
    int created = 0;
    lcp_status st = cone_path(path, sizeof path, dir, msg, len);
    if (st != LCP_OK) return st;
    if (cone && stat(dir, &sb) != 0) {
        if (mkdir(dir, 0777) != 0)
            return fail(msg, len, LCP_ERR_IO, "%s: cannot create folder: %s", dir,
                        strerror(errno));
        created = 1;
    }
    if (cone) st = lcp_write_vector(path, P->m, cone, msg, len);
    if (st == LCP_OK) st = lcp_write_instance(dir, P, msg, len);
    if (st != LCP_OK && cone) remove(path);
    if (st != LCP_OK && created) rmdir(dir);
    if (st == LCP_OK && !cone) remove(path);
    return st;
}

lcp_status bench_folder_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                             double **cone, char *msg, size_t len)
{
    *cone = NULL;
    lcp_status st = lcp_read_instance_opt(path, o->ro, P, msg, len);
    if (st == LCP_OK) st = read_cone(path, P->m, cone, msg, len);
    return st;
}

/* OUT must be absent or empty unless force */
lcp_status bench_folder_write(const char *path, const lcp_problem *P, const double *cone,
                              int force, char *msg, size_t len)
{
    if (!force && bench_dir_nonempty(path))
        return fail(msg, len, LCP_ERR_IO, "%s: exists and is not empty (use --force)", path);
    return write_folder(path, P, cone, msg, len);
}
