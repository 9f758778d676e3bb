# boxes-tower-5-step10-time: lcpbench figure; data in boxes-tower-5-step10-time.csv (series,x,y; one block per series).
# Redraw with `gnuplot boxes-tower-5-step10-time.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "time (s; iteration k at k / K of the median solve)"
set ylabel "||r||_2"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [7.80900351e-07:0.070294268]
set yrange [1e-44:1]
set logscale y
set format y '1e%L'
set logscale x
set format x '1e%L'
set label "ldlt-ref" at 0.000106723417, 1.03769549e-15 left offset character 1.5, 0 front
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'boxes-tower-5-step10-time.png'
set title "boxes-tower-5-step10: residual against time"
plot \
  'boxes-tower-5-step10-time.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 32 title "pgs", \
  'boxes-tower-5-step10-time.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "jacobi", \
  'boxes-tower-5-step10-time.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "nncg", \
  'boxes-tower-5-step10-time.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 35 title "pgs-sm", \
  'boxes-tower-5-step10-time.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 35 title "apgd", \
  'boxes-tower-5-step10-time.csv' index 5 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#E69F00' pt 10 ps 0.8 pi 37 title "spg", \
  'boxes-tower-5-step10-time.csv' index 6 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#56B4E9' pt 14 ps 0.8 pi 18 title "admm", \
  'boxes-tower-5-step10-time.csv' index 7 using 2:3 with points lc rgb '#000000' pt 5 ps 0.9 notitle, \
  1.000000e-08 with lines lw 1 dt 3 lc rgb '#606060' title "tol 1e-8"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'boxes-tower-5-step10-time.pdf'
replot
unset output
