# pool-mu0-step100-time: lcpbench figure; data in pool-mu0-step100-time.csv (series,x,y; one block per series).
# Redraw with `gnuplot pool-mu0-step100-time.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "time (s; iteration k at k / K of the median solve)"
set ylabel "||r||_2"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [3.62155935e-06:0.072431187]
set yrange [1e-83:10]
set logscale y
set format y '1e%L'
set logscale x
set format x '1e%L'
set label "ldlt-ref" at 0.001254782, 7.44509694e-15 right offset character -1.5, 0 front
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'pool-mu0-step100-time.png'
set title "pool-mu0-step100: residual against time"
plot \
  'pool-mu0-step100-time.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 32 title "pgs", \
  'pool-mu0-step100-time.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "jacobi", \
  'pool-mu0-step100-time.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "nncg", \
  'pool-mu0-step100-time.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 10 title "pgs-sm", \
  'pool-mu0-step100-time.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 36 title "apgd", \
  'pool-mu0-step100-time.csv' index 5 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#E69F00' pt 10 ps 0.8 pi 37 title "spg", \
  'pool-mu0-step100-time.csv' index 6 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#56B4E9' pt 14 ps 0.8 pi 8 title "newton-min", \
  'pool-mu0-step100-time.csv' index 7 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#000000' pt 4 ps 0.8 pi 13 title "newton-fb", \
  'pool-mu0-step100-time.csv' index 8 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#0072B2' pt 8 ps 0.8 pi 40 title "admm", \
  'pool-mu0-step100-time.csv' index 9 using 2:3 with points lc rgb '#D55E00' pt 13 ps 0.9 notitle, \
  1.000000e-08 with lines lw 1 dt 3 lc rgb '#606060' title "tol 1e-8"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'pool-mu0-step100-time.pdf'
replot
unset output
