# ode-sor-stack: lcpbench figure; data in ode-sor-stack.csv (series,x,y; one block per series).
# Redraw with `gnuplot ode-sor-stack.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "omega (PSOR relaxation)"
set ylabel "PSOR sweeps to ||r||_2 <= 1e-6 (cap 2000)"
set key inside top left opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [1.3:1.9]
set xtics 0.2
set format x '%g'
set format y '%g'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'ode-sor-stack.png'
set title "stack: relaxation and ordering"
plot \
  'ode-sor-stack.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 1 title "natural", \
  'ode-sor-stack.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 1 title "random8 (reshuffled every 8)"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'ode-sor-stack.pdf'
replot
unset output
