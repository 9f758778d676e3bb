# f3-spectrum: lcpbench figure; data in f3-spectrum.csv (series,x,y; one block per series).
# Redraw with `gnuplot f3-spectrum.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "mode i"
set ylabel "omega_i (rad/s)"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [1:20]
set xtics 5
set format x '%g'
set yrange [0.01:1e+03]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f3-spectrum.png'
set title "restricted spectrum omega_i"
plot \
  'f3-spectrum.csv' index 0 using 2:3 with points lc rgb '#000000' pt 7 ps 0.9 title "towed N = 20, F = 10 N = towed, analytic fixed-free string", \
  'f3-spectrum.csv' index 2 using 2:3 with points lc rgb '#0072B2' pt 5 ps 0.9 title "hang N = 20, end mass 100 m", \
  1.200000e+02 with lines lw 1 dt 3 lc rgb '#606060' title "2/h at h = 1/60"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f3-spectrum.pdf'
replot
unset output
