/* tables.h: the research tables, the third layer of bench/ (folder tables/: one file per
 * table, each including only the grid and the kit through this header, never another
 * table).  `lcpbench table' (cmd/table.c) registers them. */
#ifndef BENCH_TABLES_H
#define BENCH_TABLES_H

#include "grid.h"

/* the tables (one file each, registered in table.c) */
bench_table_fn bench_table_amgs1, bench_table_amgs2, bench_table_amgs_figures,
    bench_table_reorder, bench_table_spook_pgs, bench_table_ode, bench_table_transversal,
    bench_table_amgs_regime, bench_table_reorder_sim,
    bench_table_peers, bench_table_precision, bench_table_solvers;

/* a worker rank's side of reorder's orderings under mpirun: the job's payload (the instance
 * folder); 0, or 1 on failure */
int bench_reorder_serve(const bench_mpi *m, const char *payload, size_t len);

#endif
