/* decimal.c: a decimal token to the correctly rounded double with integer arithmetic only
 * (lcp_fast_decimal), the number reader of the Matrix Market files (mtx.c).
 *
 *   [+-]digits[.digits][(e|E)[+-]digits]  =  w 10^e,  w < 10^19 an integer
 *   v = round-to-nearest-even(w 10^e)
 *   e >= 0:  x = w 10^e, exact in 128 bits (w < 2^64, 10^e < 2^64 for e <= 19)
 *   e < 0:   x = floor((w 2^s) / 10^-e), w 2^s normalised to 128 bits, 10^-e < 2^74
 *            (-e <= 22), so x has at least 54 bits; the remainder is the sticky bit
 *   then x (and the sticky bit) rounded to 53 bits, half to even.
 * The digits are read eight at a time where they are there (SWAR on a little-endian 64-bit
 * word: one check that all eight are digits, three multiplies to their value).
 *
 * RANGE.  Tokens of at most 19 significant digits with a decimal exponent in -22..19 (all
 * that %.17g writes for magnitudes 1e-5..1e19, so everything our writer writes in that
 * range); every other token (more digits, other exponents, inf, nan, hex) returns 0 and
 * the caller uses strtod.  Both are correctly rounded, so the reader's numbers are strtod's
 * bit for bit (tested on 200000 tokens).  Exact with integers, so it also holds under
 * valgrind, which does not emulate x87 long doubles.  Without unsigned __int128
 * (__SIZEOF_INT128__ with GCC or Clang) every token goes to strtod.
 *
 * COST.  O(token length): the digits a byte or eight at a time, then one 128-bit product
 * or division and a rounding step, for each value the reader parses (mtx.c, COST).
 *
 * NEEDS.  Nothing but the token's bytes: the C locale's format ('.' as the decimal point)
 * whatever LC_NUMERIC says; strtod, the fallback, follows LC_NUMERIC (mtx.c, LIMITS).
 */
#include "io_internal.h"

#include <stdint.h>
#include <string.h>

#if defined(__SIZEOF_INT128__) && defined(__GNUC__)
__extension__ typedef unsigned __int128 u128;

static int clz128(u128 x)
{
    unsigned long long hi = (unsigned long long)(x >> 64), lo = (unsigned long long)x;
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll(lo);
}

/* v = w 10^e (w > 0) correctly rounded to double with integer arithmetic only (exact, so it
 * also holds under valgrind, which does not emulate x87 long doubles).  e >= 0: the product
 * w 10^e (w < 2^64, 10^e < 2^64 for e <= 19) is exact in 128 bits.  e < 0: the quotient
 * (w 2^s) / 10^-e with w 2^s normalised to 128 bits and 10^-e < 2^74 (-e <= 22) has at least
 * 54 bits, and the remainder is the sticky bit.  Then round to 53 bits, half to even.
 * Returns 0 outside these ranges (left to strtod). */
static int exact_scale(unsigned long long w, int e, double *v)
{
    static const unsigned long long p10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};
    u128 x;
    int bexp = 0, sticky = 0;                                      /* v = (x + sticky) 2^bexp */
    if (e >= 0) {
        if (e > 19) return 0;
        x = (u128)w * p10[e];                                      /* exact */
    } else {
        if (e < -22) return 0;
        u128 d = -e <= 19 ? (u128)p10[-e] : (u128)p10[19] * p10[-e - 19];
        int sh = __builtin_clzll(w) + 64;
        u128 n = (u128)w << sh;                                    /* top bit set */
        x = n / d;                                                 /* >= 2^53 */
        sticky = n - x * d != 0;
        bexp = -sh;
    }
    int nb = 128 - clz128(x);                                      /* bits of x */
    unsigned long long mant;
    if (nb > 53) {
        int sh = nb - 53;
        u128 rem = x & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
        mant = (unsigned long long)(x >> sh);
        if (rem > half || (rem == half && (sticky || (mant & 1)))) mant++; /* half to even */
        bexp += sh;
        if (mant == (1ull << 53)) {
            mant >>= 1;
            bexp++;
        }
    } else {
        mant = (unsigned long long)x << (53 - nb);                 /* exact, no sticky */
        bexp -= 53 - nb;
    }
    int biased = bexp + 52 + 1023;                                 /* v = mant 2^bexp */
    if (biased < 1 || biased > 2046) return 0;
    uint64_t bits = ((uint64_t)biased << 52) | (mant & ((1ull << 52) - 1));
    memcpy(v, &bits, sizeof *v);
    return 1;
}

/* A run of digits at s (the text ends at end) appended to w, leading zeros skipped while
 * w = 0; *nsig counts the significant digits.  Returns the characters read, or -1 past 19
 * significant digits.  Eight digits at a time when they are there (SWAR, little-endian). */
static int digit_run(const char *s, const char *end, unsigned long long *w, int *nsig)
{
    const char *p = s;
    if (*w == 0)
        while (*p == '0') p++;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 8 && *nsig + 8 <= 19) {
        uint64_t x;
        memcpy(&x, p, 8);
        if ((((x & 0xF0F0F0F0F0F0F0F0ull) |
              (((x + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4))) !=
            0x3333333333333333ull)
            break;                                                 /* not eight digits */
        x -= 0x3030303030303030ull;
        x = x * 10 + (x >> 8);                                     /* pairs */
        x = (((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
             (((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
        *w = *w * 100000000ull + x;
        *nsig += 8;
        p += 8;
    }
#else
    (void)end;
#endif
    for (; *p >= '0' && *p <= '9'; p++) {
        if (++*nsig > 19) return -1;
        *w = 10 * *w + (unsigned)(*p - '0');
    }
    return (int)(p - s);
}

/* Decimal token [+-]digits[.digits][(e|E)[+-]digits] to double, correctly rounded, or 0 to
 * leave it to strtod (more than 19 significant digits, exponents out of exact_scale's range,
 * inf, nan, hex): io_internal.h. */
int lcp_fast_decimal(const char *s, const char *end, const char **endp, double *v)
{
    int neg = 0, nd, nsig = 0, frac = 0;
    unsigned long long w = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if ((nd = digit_run(s, end, &w, &nsig)) < 0) return 0;         /* integer digits */
    s += nd;
    if (*s == '.') {
        if ((frac = digit_run(s + 1, end, &w, &nsig)) < 0) return 0; /* fraction digits */
        s += 1 + frac;
        nd += frac;
    }
    if (nd == 0) return 0;
    int e = 0;
    if (*s == 'e' || *s == 'E') {
        int eneg = 0, ne = 0;
        s++;
        if (*s == '-' || *s == '+') eneg = *s++ == '-';
        for (; *s >= '0' && *s <= '9'; s++)
            if (++ne > 4) return 0;
            else e = 10 * e + (*s - '0');
        if (ne == 0) return 0;
        if (eneg) e = -e;
    }
    e -= frac;                                                     /* v = w 10^e */
    double d = 0.0;
    if (w != 0 && !exact_scale(w, e, &d)) return 0;
    *v = neg ? -d : d;
    *endp = s;
    return 1;
}
#else
int lcp_fast_decimal(const char *s, const char *end, const char **endp, double *v)
{
    (void)s;
    (void)end;
    (void)endp;
    (void)v;
    return 0;
}
#endif
