# f8-kmin: lcpbench figure; data in f8-kmin.csv (series,x,y; one block per series).
# Redraw with `gnuplot f8-kmin.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "h / h_crit"
set ylabel "k_min (PGS sweeps per step)"
set key inside at graph 0.99, graph 0.50 right center opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0.5:0.95]
set xtics 0.1
set format x '%g'
set yrange [1:100]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f8-kmin.png'
set title "fewest PGS sweeps that keep VTS quiet"
plot \
  'f8-kmin.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "towed, warm start = hang 100, warm start", \
  'f8-kmin.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 1 title "towed, cold start", \
  'f8-kmin.csv' index 3 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 1 title "hang 100, cold start"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f8-kmin.pdf'
replot
unset output
