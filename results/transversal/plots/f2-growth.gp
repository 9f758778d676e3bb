# f2-growth: lcpbench figure; data in f2-growth.csv (series,x,y; one block per series).
# Redraw with `gnuplot f2-growth.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "step"
set ylabel "E_T (J)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [1:120]
set xtics 20
set format x '%g'
set yrange [1e-33:100]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f2-growth.png'
set title "towed N = 20: transversal energy per step"
plot \
  'f2-growth.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 16 title "VTS at 0.95 h_crit", \
  'f2-growth.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 17 title "VTS at 1.05 h_crit", \
  'f2-growth.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 18 title "VTS at 1.25 h_crit", \
  'f2-growth.csv' index 3 using 2:3 with linespoints lw 1.5 dt 5 lc rgb '#009E73' pt 12 ps 0.8 pi 8 title "predicted |mu|^2k, |mu| = 1.8773", \
  'f2-growth.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 7 title "predicted |mu|^2k, |mu| = 4.0000"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f2-growth.pdf'
replot
unset output
