# spook-pgs-residual: lcpbench figure; data in spook-pgs-residual.csv (series,x,y; one block per series).
# Redraw with `gnuplot spook-pgs-residual.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweeps k"
set ylabel "||r||_2 (absolute)"
set key inside at graph 0.99, graph 0.99 right top opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:100]
set xtics 20
set format x '%g'
set yrange [0.0001:10]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'spook-pgs-residual.png'
set title "spheres: residual of the natural map"
plot \
  'spook-pgs-residual.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 13 title "cold start", \
  'spook-pgs-residual.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 14 title "warm start"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'spook-pgs-residual.pdf'
replot
unset output
