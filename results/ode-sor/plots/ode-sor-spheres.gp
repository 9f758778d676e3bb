# lcpbench: 0.1.0 (git c3e675e18a32)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T22:51:06Z
set datafile separator ','
set grid
set xlabel 'omega'
set title 'spheres: relaxation and ordering'
set key top left
set logscale y
set format y '%.0e'
set ylabel '||r||_2 after 2000 sweeps (1e-6 not reached)'
set terminal pngcairo size 1000,600 noenhanced
set output 'ode-sor-spheres.png'
set termoption noenhanced
plot '../ode-sor.csv' using (strcol(1) eq 'spheres' ? $2 : 1/0):9 with linespoints lw 2 title 'natural', \
  '../ode-sor.csv' using (strcol(1) eq 'spheres' ? $2 : 1/0):10 with linespoints lw 2 title 'random8 (reshuffled every 8)'
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'ode-sor-spheres.pdf'
set termoption noenhanced
replot
unset output
