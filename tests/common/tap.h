/* tap.h: a minimal TAP producer for the test programs (meson test, protocol 'tap').
 * Every check prints one named line: "ok 7 - jacobi/stack-30" or "not ok 7 - ...".
 * An expected failure is marked by name: tap_todo("reason") before the check. */
#ifndef LCP_TAP_H
#define LCP_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_n = 0, tap_failed = 0;
static const char *tap_todo_reason = NULL;

static inline void tap_todo(const char *reason) { tap_todo_reason = reason; }

static inline int tap_vok(int cond, const char *fmt, va_list ap)
{
    ++tap_n;
    printf("%sok %d - ", cond ? "" : "not ", tap_n);
    vprintf(fmt, ap);
    if (tap_todo_reason) printf(" # TODO %s", tap_todo_reason);
    else if (!cond) tap_failed++;
    printf("\n");
    fflush(stdout);
    tap_todo_reason = NULL;
    return cond;
}

static inline int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = tap_vok(cond, fmt, ap);
    va_end(ap);
    return r;
}

/* |got - want| <= tol * max(1, |want|); prints both on failure */
static inline int ok_close(double got, double want, double tol, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int ok_close(double got, double want, double tol, const char *fmt, ...)
{
    double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
    int cond = isfinite(got) && fabs(got - want) <= tol * scale;
    va_list ap;
    va_start(ap, fmt);
    int r = tap_vok(cond, fmt, ap);
    va_end(ap);
    if (!cond) printf("#   got %.17g, want %.17g (tol %g)\n", got, want, tol);
    return r;
}

static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* prints the plan and returns the exit code */
static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
