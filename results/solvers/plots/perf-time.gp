# perf-time: lcpbench figure; data in perf-time.csv (series,x,y; one block per series).
# Redraw with `gnuplot perf-time.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "log2(tau), tau = time / best time"
set ylabel "fraction of instances"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:16.5837618]
set xtics 5
set format x '%g'
set format y '%g'
set yrange [0:1.05]
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'perf-time.png'
set title "performance profile: time to ||r||_2 <= 1e-8"
plot \
  'perf-time.csv' index 0 using 2:3 with steps lw 1.5 dt 1 lc rgb '#000000' title "pgs", \
  'perf-time.csv' index 1 using 2:3 with steps lw 1.5 dt 2 lc rgb '#0072B2' title "jacobi", \
  'perf-time.csv' index 2 using 2:3 with steps lw 1.5 dt 4 lc rgb '#D55E00' title "nncg", \
  'perf-time.csv' index 3 using 2:3 with steps lw 1.5 dt 5 lc rgb '#009E73' title "pgs-sm", \
  'perf-time.csv' index 4 using 2:3 with steps lw 1.5 dt 3 lc rgb '#CC79A7' title "apgd", \
  'perf-time.csv' index 5 using 2:3 with steps lw 1.5 dt 1 lc rgb '#E69F00' title "spg", \
  'perf-time.csv' index 6 using 2:3 with steps lw 1.5 dt 2 lc rgb '#56B4E9' title "newton-min", \
  'perf-time.csv' index 7 using 2:3 with steps lw 1.5 dt 2 lc rgb '#000000' title "newton-fb", \
  'perf-time.csv' index 8 using 2:3 with steps lw 1.5 dt 4 lc rgb '#0072B2' title "admm", \
  'perf-time.csv' index 9 using 2:3 with steps lw 1.5 dt 5 lc rgb '#D55E00' title "ldlt-ref"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'perf-time.pdf'
replot
unset output
