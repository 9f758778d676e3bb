# regime-null: lcpbench figure; data in regime-null.csv (series,x,y; one block per series).
# Redraw with `gnuplot regime-null.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "self-stress states dim null(J_F^T) on the active rows"
set ylabel "measured amgs-D/PGS sweeps"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0:81]
set xtics 20
set format x '%g'
set format y '%g'
set yrange [0.23:1.05]
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'regime-null.png'
set title "amgs-D/PGS sweeps to 1e-6 against the self-stress states"
plot \
  'regime-null.csv' index 0 using 2:3 with points lc rgb '#000000' pt 7 ps 0.9 title "rigid (E = 0, q in range(J))", \
  'regime-null.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 title "compliant, with self-stress states", \
  'regime-null.csv' index 2 using 2:3 with points lc rgb '#D55E00' pt 9 ps 0.9 title "compliant, no self-stress state"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'regime-null.pdf'
replot
unset output
