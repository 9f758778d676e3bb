# precision-residual: lcpbench figure; data in precision-residual.csv (series,x,y; one block per series).
# Redraw with `gnuplot precision-residual.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweeps"
set ylabel "||r||_2 (double, on the float64 problem)"
set key inside at graph 0.50, graph 0.01 center bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:20000]
set xtics 5000
set format x '%g'
set yrange [1e-15:10]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'precision-residual.png'
set title "pgs, float64 and float32 storage of J and B: residual per sweep"
plot \
  'precision-residual.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 32 title "pool-graded-mu0-step100, float64", \
  'precision-residual.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "pool-graded-mu0-step100, float32", \
  'precision-residual.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "chain-step300, float64", \
  'precision-residual.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 35 title "chain-step300, float32"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'precision-residual.pdf'
replot
unset output
