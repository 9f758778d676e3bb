# f5-beta: lcpbench figure; data in f5-beta.csv (series,x,y; one block per series).
# Redraw with `gnuplot f5-beta.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "beta"
set ylabel "stretch, cos"
set key inside at graph 0.99, graph 0.50 right center opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0.1:1]
set xtics 0.2
set format x '%g'
set format y '%g'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f5-beta.png'
set title "thread: ivts (K = 20) against beta"
plot \
  'f5-beta.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "max stretch |l - L| / L (exploded: > 10)", \
  'f5-beta.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 1 title "cos_min (after step 1; exploded: up to the failing step)"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f5-beta.pdf'
replot
unset output
