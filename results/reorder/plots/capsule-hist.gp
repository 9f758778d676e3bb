# lcpbench: 0.1.0 (git 555522e65a73)
# compiler: gcc 12.2.0, flags: buildtype=release optimization=3 c_args=
# cpu: Intel(R) Xeon(R) Processor (2 online)
# libraries: CHOLMOD 3.0.14, OpenBLAS 0.3.21, LAPACKE 3.11.0; OpenBLAS build: OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64, kernel Prescott, OPENBLAS_NUM_THREADS=1
# date: 2026-11-22T23:39:28Z
set datafile separator ','
set style fill solid 0.6
set boxwidth 0.9
set grid ytics
set xlabel 'PGS sweeps to ||r||_2 < 1e-4 (101 = not reached)'
set ylabel 'orderings'
set xrange [-1:103]
set yrange [0:*]
set title 'capsule: 720 orderings'
set arrow from 6, graph 0 to 6, graph 1 nohead dt 2 lc rgb 'red'
set label 'natural' at 6, graph 0.98 rotate by 90 right tc rgb 'red'
set arrow from 12, graph 0 to 12, graph 1 nohead dt 2 lc rgb 'red'
set label 'reverse' at 12, graph 0.82 rotate by 90 right tc rgb 'red'
set arrow from 11, graph 0 to 11, graph 1 nohead dt 2 lc rgb 'red'
set label 'symmetric' at 11, graph 0.66 rotate by 90 right tc rgb 'red'
set arrow from 8, graph 0 to 8, graph 1 nohead dt 2 lc rgb 'red'
set label 'error' at 8, graph 0.50 rotate by 90 right tc rgb 'red'
set arrow from 8, graph 0 to 8, graph 1 nohead dt 2 lc rgb 'red'
set label 'mass' at 8, graph 0.34 rotate by 90 right tc rgb 'red'
set arrow from 2, graph 0 to 2, graph 1 nohead dt 2 lc rgb 'red'
set label 'pgs-block' at 2, graph 0.18 rotate by 90 right tc rgb 'red'
set arrow from 11, graph 0 to 11, graph 1 nohead dt 3 lc rgb 'blue'
set label 'random (median of 20 seeds)' at 11, graph 0.5 rotate by 90 right tc rgb 'blue'
set terminal pngcairo size 1000,600 noenhanced
set output 'capsule-hist.png'
set termoption noenhanced
plot '../reorder-capsule-hist.csv' using 1:2 with boxes notitle
set terminal pdfcairo size 7in,4.2in noenhanced
set output 'capsule-hist.pdf'
set termoption noenhanced
replot
unset output
