# stack-time: lcpbench figure; data in stack-time.csv (series,x,y; one block per series).
# Redraw with `gnuplot stack-time.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "time (s): sweeps x median seconds per sweep of the timing runs"
set ylabel "||r||_2"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:0.0202814522]
set xtics 0.005
set format x '%g'
set yrange [1e-16:0.001]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'stack-time.png'
set title "stack, seed 1, step 100 (suite variant)"
plot \
  'stack-time.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 32 title "PGS", \
  'stack-time.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "Method 2.2 [beta D] (amgs-D-explicit)", \
  'stack-time.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "Method 3.1 [beta I] (amgs-I)", \
  'stack-time.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 35 title "Method 3.1 [beta D] (amgs-D)", \
  'stack-time.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 36 title "PSOR omega = 2/(1 + gamma beta)", \
  1.000000e-06 with lines lw 1 dt 3 lc rgb '#606060' title "1e-6"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'stack-time.pdf'
replot
unset output
