# lcpbench: 0.1.0 (git c3e675e18a32)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T22:51:14Z
set datafile separator ','
set logscale y
set format y '%.0e'
set grid
set xlabel 'step'
set ylabel '||r||_2 after 10 sweeps'
set title 'stack: residual after the per-step budget (friction on)'
set key outside right top
set terminal pngcairo size 1000,600 noenhanced
set output 'steps-stack.png'
set termoption noenhanced
plot \
  '../steps-stack.csv' using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title 'pgs', \
  '../steps-stack.csv' using 1:($3 > 0 ? $3 : 1/0) with lines lw 2 title 'amgs-D-b0.1', \
  '../steps-stack.csv' using 1:($4 > 0 ? $4 : 1/0) with lines lw 2 title 'amgs-D-b0.25', \
  '../steps-stack.csv' using 1:($5 > 0 ? $5 : 1/0) with lines lw 2 title 'amgs-D-b0.5', \
  '../steps-stack.csv' using 1:($6 > 0 ? $6 : 1/0) with lines lw 2 title 'amgs-D-b0.75', \
  '../steps-stack.csv' using 1:($7 > 0 ? $7 : 1/0) with lines lw 2 title 'amgs-D-b1'
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'steps-stack.pdf'
set termoption noenhanced
replot
unset output
