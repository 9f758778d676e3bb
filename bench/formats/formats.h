/* formats.h: the format converters (folder formats/, third layer of bench/, above the
 * grid): `lcpbench convert' between instance folders, FCLIB, Siconos .dat, ODE's text and
 * dense Matrix Market. */
#ifndef BENCH_FORMATS_H
#define BENCH_FORMATS_H

#include "grid.h"

int bench_cmd_convert(int argc, char **argv);

#endif
