# data-1e-04: lcpbench figure; data in data-1e-04.csv (series,x,y; one block per series).
# Redraw with `gnuplot data-1e-04.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "log10(t / s) to ||r||_2 <= 1e-04"
set ylabel "fraction of instances"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [-6.25662744:8.30246273]
set xtics 5
set format x '%g'
set format y '%g'
set yrange [0:1.05]
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'data-1e-04.png'
set title "data profile: ||r||_2 <= 1e-04 within t seconds"
plot \
  'data-1e-04.csv' index 0 using 2:3 with steps lw 1.5 dt 1 lc rgb '#000000' title "ours (best of 21)", \
  'data-1e-04.csv' index 1 using 2:3 with steps lw 1.5 dt 2 lc rgb '#0072B2' title "Siconos (best of 10)", \
  'data-1e-04.csv' index 2 using 2:3 with steps lw 1.5 dt 4 lc rgb '#D55E00' title "ODE (DART)", \
  'data-1e-04.csv' index 3 using 2:3 with steps lw 1.5 dt 5 lc rgb '#009E73' title "Bullet (best of 3)"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'data-1e-04.pdf'
replot
unset output
