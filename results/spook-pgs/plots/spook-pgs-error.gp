# spook-pgs-error: lcpbench figure; data in spook-pgs-error.csv (series,x,y; one block per series).
# Redraw with `gnuplot spook-pgs-error.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweeps k"
set ylabel "relative error of z and w (inf-norm)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:100]
set xtics 20
set format x '%g'
set yrange [1e-07:1]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'spook-pgs-error.png'
set title "spheres: error against the reference"
plot \
  'spook-pgs-error.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 13 title "z, cold start", \
  'spook-pgs-error.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 14 title "w, cold start", \
  'spook-pgs-error.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 15 title "z, warm start", \
  'spook-pgs-error.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 16 title "w, warm start", \
  1.000000e-01 with lines lw 1 dt 3 lc rgb '#606060' title "10%"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'spook-pgs-error.pdf'
replot
unset output
