/* header_lcp.c: lcp.h compiles alone (included first, nothing before it) and is C++-safe. */
#include "lcp.h"
#include "lcp.h" /* include guard */

#include <stdio.h>

int main(void)
{
    printf("ok 1 - header/lcp.h-compiles-alone\n1..1\n");
    return 0;
}
