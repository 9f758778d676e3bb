# f7-mode: lcpbench figure; data in f7-mode.csv (series,x,y; one block per series).
# Redraw with `gnuplot f7-mode.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "bead"
set ylabel "transversal velocity (scaled to max 1)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [1:20]
set xtics 5
set format x '%g'
set format y '%g'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f7-mode.png'
set title "towed N = 20 at 1.25 h_crit: the growing pattern, end of the linear phase"
plot \
  'f7-mode.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 3 title "predicted top mode psi_max", \
  'f7-mode.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 title "measured, 1e-9 rad random offset (MAC 0.531)", \
  'f7-mode.csv' index 2 using 2:3 with points lc rgb '#D55E00' pt 9 ps 0.9 title "measured, 1e-22 rad random offset (MAC 0.974)"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f7-mode.pdf'
replot
unset output
