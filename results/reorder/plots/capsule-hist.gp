# capsule-hist: lcpbench figure; data in capsule-hist.csv (series,x,y; one block per series).
# Redraw with `gnuplot capsule-hist.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweeps to ||r||_2 <= 1e-4 (101 = not reached)"
set ylabel "orderings"
unset key
set xrange [1:13]
set xtics 2
set format x '%g'
set format y '%g'
set yrange [0:711.245]
set label "natural (default): 6" at 6, 376.32 left offset character 1.5, 0 front
set label "reverse: 12" at 12, 423.36 right offset character -1.5, 0 front
set label "symmetric: 11" at 11, 470.4 right offset character -1.5, 0 front
set label "error: 8" at 8, 517.44 right offset character -1.5, 0 front
set label "mass: 8" at 8, 564.48 right offset character -1.5, 0 front
set label "pgs-block: 2" at 2, 611.52 left offset character 1.5, 0 front
set label "random (median of 20 seeds): 11" at 11, 658.56 right offset character -1.5, 0 front
set boxwidth 0.9
set grid noxtics ytics
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'capsule-hist.png'
set title "capsule: 720 orderings"
plot \
  'capsule-hist.csv' index 0 using 2:3 with boxes fs solid 0.5 border lc rgb '#000000' lc rgb '#0072B2' notitle, \
  'capsule-hist.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 notitle, \
  'capsule-hist.csv' index 2 using 2:3 with points lc rgb '#D55E00' pt 9 ps 0.9 notitle, \
  'capsule-hist.csv' index 3 using 2:3 with points lc rgb '#009E73' pt 13 ps 0.9 notitle, \
  'capsule-hist.csv' index 4 using 2:3 with points lc rgb '#CC79A7' pt 3 ps 0.9 notitle, \
  'capsule-hist.csv' index 5 using 2:3 with points lc rgb '#E69F00' pt 11 ps 0.9 notitle, \
  'capsule-hist.csv' index 6 using 2:3 with points lc rgb '#56B4E9' pt 15 ps 0.9 notitle, \
  'capsule-hist.csv' index 7 using 2:3 with points lc rgb '#000000' pt 5 ps 0.9 notitle
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'capsule-hist.pdf'
replot
unset output
