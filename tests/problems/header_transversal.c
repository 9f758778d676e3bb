/* header_transversal.c: transversal.h compiles alone (included first) and is C++-safe. */
#include "transversal.h"
#include "transversal.h" /* include guard */

#include <stdio.h>

int main(void)
{
    printf("ok 1 - header/transversal.h-compiles-alone\n1..1\n");
    return 0;
}
