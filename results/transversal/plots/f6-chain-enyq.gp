# f6-chain-enyq: lcpbench figure; data in f6-chain-enyq.csv (series,x,y; one block per series).
# Redraw with `gnuplot f6-chain-enyq.gp' in this folder.  Style: paper.
set datafile separator ','
set grid lc rgb '#c0c0c0' lw 0.5
set border lw 0.8
set tics nomirror out scale 0.5
set mxtics default
set xlabel "t (s)"
set ylabel "E_nyq / E_ref"
set key inside at graph 0.99, graph 0.01 right bottom opaque box lc rgb '#808080' samplen 2.5 spacing 1.1
set xrange [0.01:3]
set xtics 0.5
set format x '%g'
set yrange [1e-14:1]
set logscale y
set format y '1e%L'
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set output 'f6-chain-enyq.png'
set title "chain released level: Nyquist energy E_nyq / E_ref"
plot \
  'f6-chain-enyq.csv' index 0 using 2:3 with linespoints lw 1.5 dt 1 lc rgb '#000000' pt 6 ps 0.8 pi 23 title "h = 1/60", \
  'f6-chain-enyq.csv' index 1 using 2:3 with linespoints lw 1.5 dt 2 lc rgb '#0072B2' pt 4 ps 0.8 pi 33 title "h = 1/100", \
  'f6-chain-enyq.csv' index 2 using 2:3 with linespoints lw 1.5 dt 4 lc rgb '#D55E00' pt 8 ps 0.8 pi 34 title "h = 1/200", \
  1.000000e-06 with lines lw 1 dt 3 lc rgb '#606060' title "onset level 1e-6"
unset title
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'f6-chain-enyq.pdf'
replot
unset output
