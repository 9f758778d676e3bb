/* options.c: defaults of the options (beside each field in lcp.h), the info record, and the
 * names of statuses, orderings and forms (names are part of the API, as in libsamplerate). */
#include "lcp_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *lcp_escape_byte(unsigned char c, char buf[5])
{
    static const char hex[] = "0123456789abcdef";
    if (c == '\n') return "\\n";
    if (c == '\r') return "\\r";
    if (c == '\t') return "\\t";
    if (c >= 0x20 && c != 0x7f) return "";
    buf[0] = '\\', buf[1] = 'x', buf[2] = hex[c >> 4], buf[3] = hex[c & 15], buf[4] = '\0';
    return buf;
}

/* The message is one line whatever a path or name in it holds: control characters (a
 * newline in a folder's name, an escape sequence) are written as C escapes, in place, the
 * message cut before an escape that does not fit.  A backslash is kept as it is, so a
 * message that quotes another is not escaped twice. */
lcp_status lcp_fail(char *msg, size_t msglen, lcp_status st, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
        size_t n = strlen(msg), out = 0, keep = 0;
        char e[5];
        for (; keep < n; keep++) {                                  /* what fits escaped */
            size_t w = strlen(lcp_escape_byte((unsigned char)msg[keep], e));
            if (out + (w ? w : 1) > msglen - 1) break;
            out += w ? w : 1;
        }
        msg[out] = '\0';
        while (keep > 0) {                                          /* from the end, in place */
            const char *x = lcp_escape_byte((unsigned char)msg[--keep], e);
            size_t w = strlen(x);
            if (w) memcpy(msg + (out -= w), x, w);
            else msg[--out] = msg[keep];
        }
    }
    return st;
}

void lcp_options_default(lcp_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->max_iter = 1000;
    o->tol = 1e-6;
    o->check_every = 1;
    o->omega = 1.0;
    o->omega_auto = 0;
    o->order = LCP_ORDER_NATURAL;
    o->seed = 1;
    o->perm = NULL;
    o->form = LCP_FORM_AUTO;
    o->beta = 0.0;
    o->gamma = 1.0;
    o->warm = 0;
    o->diverge = 1e12;
    o->max_pivots = 0;
    o->monitor = NULL;
    o->monitor_ctx = NULL;
    o->prepared = NULL;
    o->sym_tol = 1e-12;
    o->threads = 1;
    o->warm_scale = 1.0;
    o->rowkey = NULL;
    o->history = NULL;
    o->restart = 1;
    o->projected = 0;
    o->pgs_sweeps = 5;
    o->sm_steps = 5;
    o->inner_max = 0;
    o->forcing = 0.1;
    o->step = 0.0;
    o->memory = 10;
    o->rho = 0.0;
    o->sigma = 1e-6;
    o->relax = 1.6;
    o->precision = LCP_PRECISION_FLOAT64;
}

void lcp_info_init(lcp_info *info)
{
    if (!info) return;
    memset(info, 0, sizeof *info);
    info->status = LCP_ERR_ARG;
    info->residual = NAN;
    info->residual_inf = NAN;
    info->flops = 0.0;
    info->row = -1;
    info->form = LCP_FORM_AUTO;
    info->threads = 1;
    info->certificate = NAN;
}

const char *lcp_status_str(lcp_status s)
{
    switch (s) {
    case LCP_OK: return "converged";
    case LCP_MAXITER: return "max-iterations";
    case LCP_NONUNIQUE: return "solved-nonunique";
    case LCP_NOT_SETTLED: return "friction-not-settled";
    case LCP_PIVOT_CAP: return "pivot-cap";
    case LCP_PARTIAL: return "partial";
    case LCP_UNDECIDED: return "undecided";
    case LCP_ERR_ARG: return "bad-argument";
    case LCP_ERR_NOMEM: return "out-of-memory";
    case LCP_ERR_ZERO_DIAG: return "zero-diagonal";
    case LCP_ERR_SINGULAR: return "singular-block";
    case LCP_ERR_NONFINITE: return "non-finite";
    case LCP_ERR_DIVERGED: return "diverged";
    case LCP_ERR_NEEDS_FACTORS: return "needs-factors";
    case LCP_ERR_NEEDS_SYMMETRIC: return "needs-symmetric";
    case LCP_ERR_TOO_LARGE: return "too-large";
    case LCP_ERR_BREAKDOWN: return "breakdown";
    case LCP_ERR_IO: return "io-error";
    case LCP_ERR_FORMAT: return "bad-format";
    case LCP_ERR_INCONSISTENT: return "inconsistent";
    case LCP_ERR_UNSUPPORTED: return "unsupported";
    case LCP_ERR_NO_SOLUTION: return "no-solution-found";
    case LCP_ERR_NEEDS_ASSEMBLED: return "needs-assembled";
    }
    return "unknown-status";
}

static const char *const order_names[] = {"natural", "reverse", "symmetric", "random",
                                          "random8", "error",   "mass",      "ode8",
                                          "perm",      "height"};

const char *lcp_order_name(lcp_order o)
{
    if ((int)o < 0 || (size_t)o >= sizeof order_names / sizeof order_names[0]) return "?";
    return order_names[o];
}

lcp_status lcp_order_parse(const char *s, lcp_order *o)
{
    if (!s || !o) return LCP_ERR_ARG;
    for (size_t k = 0; k < sizeof order_names / sizeof order_names[0]; k++)
        if (strcmp(s, order_names[k]) == 0) {
            *o = (lcp_order)k;
            return LCP_OK;
        }
    return LCP_ERR_ARG;
}

const char *lcp_precision_name(lcp_precision p)
{
    switch (p) {
    case LCP_PRECISION_FLOAT64: return "float64";
    case LCP_PRECISION_FLOAT32: return "float32";
    }
    return "?";
}

const char *lcp_form_name(lcp_form f)
{
    switch (f) {
    case LCP_FORM_AUTO: return "auto";
    case LCP_FORM_ASSEMBLED: return "assembled";
    case LCP_FORM_MATRIX_FREE: return "matrix-free";
    }
    return "?";
}
