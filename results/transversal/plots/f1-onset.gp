# f1-onset: lcpbench figure; data in f1-onset.csv (series,x,y; one block per series).
# Redraw with `gnuplot f1-onset.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "omega_max (rad/s)"
set ylabel "time step h (s)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [3.13155712:1975.40967]
set yrange [0.0001:1]
set logscale y
set format y '1e%L'
set logscale x
set format x '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f1-onset.png'
set title "T1: VTS onset against the modal prediction"
plot \
  'f1-onset.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 3 title "predicted h_crit = 2 / omega_max", \
  'f1-onset.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 title "measured VTS onset (bisection)"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f1-onset.pdf'
replot
unset output
