# lcpbench: 0.1.0 (git c3e675e18a32)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T22:51:31Z
set datafile separator ','
set logscale xy
set grid
set xlabel 'rows'
set ylabel 'time per PGS sweep (s)'
set title 'spheres: cost of a sweep against size'
set key top left
set terminal pngcairo size 1000,600 noenhanced
set output 'spook-pgs-scaling.png'
set termoption noenhanced
plot '../spook-pgs-scaling.csv' using 2:3 w lp lw 2 pt 7 t 'PGS sweep'
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'spook-pgs-scaling.pdf'
set termoption noenhanced
replot
unset output
