# lcpbench: 0.1.0 (git c3e675e18a32)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T22:51:06Z
# spheres: ||r||_2 against iteration; data: ../history/*.csv (lcpbench run)
set datafile separator ','
set logscale y
set format y '%.0e'
set grid
set xlabel 'iteration'
set ylabel '||r||_2 (natural-map residual)'
set title "spheres".': residual against iteration'
set key outside right top
set terminal pngcairo size 1000,600 noenhanced
set output 'spheres-iter.png'
set termoption noenhanced
plot \
  "../history/spheres__natural-1.0.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "natural-1.0", \
  "../history/spheres__natural-1.3.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "natural-1.3", \
  "../history/spheres__natural-1.7.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "natural-1.7", \
  "../history/spheres__random8-1.0.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "random8-1.0", \
  "../history/spheres__random8-1.3.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "random8-1.3", \
  "../history/spheres__random8-1.7.csv" using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title "random8-1.7"
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'spheres-iter.pdf'
set termoption noenhanced
replot
unset output
