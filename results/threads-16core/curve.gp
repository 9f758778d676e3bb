# the thread curve: gnuplot curve.gp (in this folder) redraws curve.pdf and curve.png
set datafile separator ','
set key top left font ',7' spacing 0.9
set xlabel 'threads'
set ylabel 'speed-up over 1 thread (median, range)'
set xrange [0.5:16.5]
set yrange [0:*]
set grid ytics lc rgb '#e0e0e0'
set label 1 "Intel(R) Xeon(R) Processor (16 online)" at graph 0.98, graph 0.04 right font ',6' noenhanced
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'curve.pdf'
plot 'curve.csv' using (strcol(1) eq 'pgs-color' && $2 == 100002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 1 pt 4 ps 0.7 title 'pgs-color, 1e+05 rows', 'curve.csv' using (strcol(1) eq 'pgs-color-contact' && $2 == 100002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 2 pt 6 ps 0.7 title 'pgs-color-contact, 1e+05 rows', 'curve.csv' using (strcol(1) eq 'jacobi' && $2 == 100002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 3 pt 8 ps 0.7 title 'jacobi, 1e+05 rows', 'curve.csv' using (strcol(1) eq 'pgs-color' && $2 == 1000002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 1 pt 5 ps 0.7 title 'pgs-color, 1e+06 rows', 'curve.csv' using (strcol(1) eq 'pgs-color-contact' && $2 == 1000002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 2 pt 7 ps 0.7 title 'pgs-color-contact, 1e+06 rows', 'curve.csv' using (strcol(1) eq 'jacobi' && $2 == 1000002 ? $3 : 1/0):9:10:11 with yerrorlines lc rgb '#000000' dt 3 pt 9 ps 0.7 title 'jacobi, 1e+06 rows', 'curve.csv' using (strcol(1) eq 'kernel-chains' ? $3 : 1/0):9 with lines lc rgb '#808080' dt 3 lw 1.5 title 'no-sharing kernel', 'curve.csv' using (strcol(1) eq 'triad' ? $3 : 1/0):9 with lines lc rgb '#808080' dt 2 title 'triad (bandwidth)', x with lines lc rgb '#c0c0c0' notitle
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set key font ',14'
set label 1 font ',12'
set output 'curve.png'
replot
unset output
