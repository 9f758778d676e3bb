# steps-stack: lcpbench figure; data in steps-stack.csv (series,x,y; one block per series).
# Redraw with `gnuplot steps-stack.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "simulation step"
set ylabel "||r||_2 after 10 sweeps"
set key inside top right opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [60:200]
set xtics 50
set format x '%g'
set yrange [1e-18:10]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'steps-stack.png'
set title "stack: residual after the per-step budget (friction on)"
plot \
  'steps-stack.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 18 title "pgs", \
  'steps-stack.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 19 title "amgs-D-b0.1", \
  'steps-stack.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 19 title "amgs-D-b0.25", \
  'steps-stack.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 21 title "amgs-D-b0.5", \
  'steps-stack.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 22 title "amgs-D-b0.75", \
  'steps-stack.csv' index 5 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#E69F00' pt 10 ps 0.8 pi 23 title "amgs-D-b1"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'steps-stack.pdf'
replot
unset output
