/* cmd.h: the subcommands, the top layer of bench/ (folder cmd/: one file per subcommand,
 * its arguments, help and printing; the work is the layers below).  lcpbench.c dispatches
 * argv[1] to them. */
#ifndef BENCH_CMD_H
#define BENCH_CMD_H

#include "formats.h"
#include "tables.h"

/* ---- subcommands: int cmd(int argc, char **argv), argv[0] = subcommand name ---------- */
typedef int bench_cmd_fn(int argc, char **argv);
bench_cmd_fn bench_cmd_list, bench_cmd_solve;
bench_cmd_fn bench_cmd_capture, bench_cmd_simulate, bench_cmd_families;
bench_cmd_fn bench_cmd_run, bench_cmd_plot, bench_cmd_profile, bench_cmd_table, bench_cmd_check;
bench_cmd_fn bench_cmd_score, bench_cmd_convert, bench_cmd_merge;
void bench_list_tables(FILE *f); /* names and one line each (table.c) */

#endif
