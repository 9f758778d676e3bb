# three-spheres-hist: lcpbench figure; data in three-spheres-hist.csv (series,x,y; one block per series).
# Redraw with `gnuplot three-spheres-hist.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "PGS sweeps to ||r||_2 <= 1e-4 (101 = not reached)"
set ylabel "orderings"
unset key
set xrange [4:78]
set xtics 20
set format x '%g'
set format y '%g'
set yrange [0:95908]
set label "natural (default): 9" at 9, 50744.96 left offset character 1.5, 0 front
set label "reverse: 14" at 14, 57088.08 left offset character 1.5, 0 front
set label "symmetric: 15" at 15, 63431.2 left offset character 1.5, 0 front
set label "error: 10" at 10, 69774.32 left offset character 1.5, 0 front
set label "mass: 12" at 12, 76117.44 left offset character 1.5, 0 front
set label "pgs-block: 6" at 6, 82460.56 left offset character 1.5, 0 front
set label "random (median of 20 seeds): 15" at 15, 88803.68 left offset character 1.5, 0 front
set boxwidth 0.9
set grid noxtics ytics
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'three-spheres-hist.png'
set title "three-spheres: 362880 orderings"
plot \
  'three-spheres-hist.csv' index 0 using 2:3 with boxes fs solid 0.5 border lc rgb '#000000' lc rgb '#0072B2' notitle, \
  'three-spheres-hist.csv' index 1 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 2 using 2:3 with points lc rgb '#D55E00' pt 9 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 3 using 2:3 with points lc rgb '#009E73' pt 13 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 4 using 2:3 with points lc rgb '#CC79A7' pt 3 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 5 using 2:3 with points lc rgb '#E69F00' pt 11 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 6 using 2:3 with points lc rgb '#56B4E9' pt 15 ps 0.9 notitle, \
  'three-spheres-hist.csv' index 7 using 2:3 with points lc rgb '#000000' pt 5 ps 0.9 notitle
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'three-spheres-hist.pdf'
replot
unset output
