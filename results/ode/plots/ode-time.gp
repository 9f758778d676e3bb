# ode-time: lcpbench figure; data in ode-time.csv (series,x,y; one block per series).
# Redraw with `gnuplot ode-time.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "rows m"
set ylabel "time (s)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [96:868]
set yrange [1e-13:0.1]
set logscale y
set format y '1e%L'
set logscale x
set format x '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'ode-time.png'
set title "ode D3: time against m"
plot \
  'ode-time.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "dantzig, pool", \
  'ode-time.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 1 title "dantzig, spheres", \
  'ode-time.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 1 title "ldlt-ref, pool", \
  'ode-time.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 1 title "ldlt-ref, spheres", \
  'ode-time.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 1 title "qs20-cold, pool", \
  'ode-time.csv' index 5 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#E69F00' pt 10 ps 0.8 pi 1 title "qs20-cold, spheres", \
  'ode-time.csv' index 6 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#56B4E9' pt 14 ps 0.8 pi 1 title "qs20-warm1, pool", \
  'ode-time.csv' index 7 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#000000' pt 4 ps 0.8 pi 1 title "qs20-warm1, spheres"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'ode-time.pdf'
replot
unset output
