# capsule-orderings: lcpbench figure; data in capsule-orderings.csv (series,x,y; one block per series).
# Redraw with `gnuplot capsule-orderings.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweep"
set ylabel "||r||_2"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:26]
set xtics 5
set format x '%g'
set yrange [1e-16:10]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'capsule-orderings.png'
set title "capsule: default, best, worst ordering"
plot \
  'capsule-orderings.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 3 title "default (natural) = best ordering", \
  'capsule-orderings.csv' index 2 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 5 title "worst ordering", \
  1.000000e-04 with lines lw 1 dt 3 lc rgb '#606060' title "1e-4"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'capsule-orderings.pdf'
replot
unset output
