# lcpbench: 0.1.0 (git 555522e65a73)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T23:39:28Z
set datafile separator ','
set logscale y
set format y '%.0e'
set grid
set xlabel 'PGS sweep'
set ylabel '||r||_2'
set title 'capsule: default, best and worst constraint ordering'
set xrange [0:100]
set terminal pngcairo size 1000,600 noenhanced
set output 'capsule-orderings.png'
set termoption noenhanced
plot \
  '../history/capsule__default.csv' using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title 'default', \
  '../history/capsule__best.csv' using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title 'best', \
  '../history/capsule__worst.csv' using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title 'worst'
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'capsule-orderings.pdf'
set termoption noenhanced
replot
unset output
