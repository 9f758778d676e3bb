# spook-pgs-scaling: lcpbench figure; data in spook-pgs-scaling.csv (series,x,y; one block per series).
# Redraw with `gnuplot spook-pgs-scaling.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "rows m"
set ylabel "time per PGS sweep (s)"
set key inside top left opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [672:210891]
set yrange [1e-05:0.01]
set logscale y
set format y '1e%L'
set logscale x
set format x '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'spook-pgs-scaling.png'
set title "spheres: cost of a sweep against size"
plot \
  'spook-pgs-scaling.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "PGS sweep"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'spook-pgs-scaling.pdf'
replot
unset output
