# regime-predicted: lcpbench figure; data in regime-predicted.csv (series,x,y; one block per series).
# Redraw with `gnuplot regime-predicted.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "predicted ratio: log(rho_GS)/log(rho_SOR) on A_FF, or from the start"
set ylabel "measured amgs-D/PGS sweeps"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0.3:1.3]
set xtics 0.2
set format x '%g'
set format y '%g'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'regime-predicted.png'
set title "amgs-D/PGS sweeps to 1e-6: measured against the predictions"
plot \
  'regime-predicted.csv' index 0 using 2:3 with points lc rgb '#000000' pt 7 ps 0.9 title "rigid (E = 0, q in range(J))", \
  'regime-predicted.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 title "compliant, with self-stress states", \
  'regime-predicted.csv' index 2 using 2:3 with points lc rgb '#D55E00' pt 9 ps 0.9 title "compliant, no self-stress state", \
  'regime-predicted.csv' index 3 using 2:3 with points lc rgb '#009E73' pt 13 ps 0.9 title "all, predicted from the start (linear model)", \
  'regime-predicted.csv' index 4 using 2:3 with linespoints lw 1.5 dt 3 lc rgb '#CC79A7' pt 2 ps 0.8 pi 5 title "measured = predicted"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'regime-predicted.pdf'
replot
unset output
