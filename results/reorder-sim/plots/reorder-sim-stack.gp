# reorder-sim-stack: lcpbench figure; data in reorder-sim-stack.csv (series,x,y; one block per series).
# Redraw with `gnuplot reorder-sim-stack.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "simulation step"
set ylabel "relative z error after 15 sweeps"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [10:200]
set xtics 50
set format x '%g'
set yrange [1e-12:100]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'reorder-sim-stack.png'
set title "stack"
plot \
  'reorder-sim-stack.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "natural = mass = height = pgs-block", \
  'reorder-sim-stack.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 1 title "reverse", \
  'reorder-sim-stack.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 1 title "random", \
  'reorder-sim-stack.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 1 title "error"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'reorder-sim-stack.pdf'
replot
unset output
