/* header_prob.c: prob.h compiles alone (included first, nothing before it) and is C++-safe. */
#include "prob.h"
#include "prob.h" /* include guard */

#include <stdio.h>

int main(void)
{
    printf("ok 1 - header/prob.h-compiles-alone\n1..1\n");
    return 0;
}
