# pool-graded-iter: lcpbench figure; data in pool-graded-iter.csv (series,x,y; one block per series).
# Redraw with `gnuplot pool-graded-iter.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "sweep"
set ylabel "||r||_2 (natural-map residual)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:10000]
set xtics 2000
set format x '%g'
set yrange [1e-19:1]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'pool-graded-iter.png'
set title "pool-graded: residual against sweep"
plot \
  'pool-graded-iter.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 32 title "pgs", \
  'pool-graded-iter.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "amgs-3.1-I", \
  'pool-graded-iter.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "amgs-3.1-D", \
  'pool-graded-iter.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 35 title "amgs-3.1-D-b0.25", \
  'pool-graded-iter.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 36 title "amgs-3.1-D-b0.75", \
  1.000000e-08 with lines lw 1 dt 3 lc rgb '#606060' title "tolerance 1e-08"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'pool-graded-iter.pdf'
replot
unset output
