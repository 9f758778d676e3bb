# lcpbench: 0.1.0 (git c3e675e18a32)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T22:51:10Z
# pool-graded: ||r||_2 against iteration; data: ../history/*.csv (lcpbench run)
set datafile separator ','
set logscale y
set format y '%.0e'
set grid
set xlabel 'iteration'
set ylabel '||r||_2 (natural-map residual)'
set title "pool-graded".': residual against iteration'
set key outside right top
set terminal pngcairo size 1000,600 noenhanced
set output 'pool-graded-iter.png'
set termoption noenhanced
plot \
  "../history/pool-graded__pgs.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "pgs", \
  "../history/pool-graded__amgs-3.1-I.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "amgs-3.1-I", \
  "../history/pool-graded__amgs-3.1-D.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "amgs-3.1-D", \
  "../history/pool-graded__amgs-3.1-D-b0.25.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "amgs-3.1-D-b0.25", \
  "../history/pool-graded__amgs-3.1-D-b0.75.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "amgs-3.1-D-b0.75"
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'pool-graded-iter.pdf'
set termoption noenhanced
replot
unset output
