#!/usr/bin/env bash
# thread_curve.sh OUTDIR [BENCH_COLOR]: the thread curve of the parallel solvers on this
# machine, in one command (tests/README.md, "The thread curve").
#
# Runs `bench_color --curve N --rows 1e5,1e6 --rounds R --csv OUTDIR/curve.csv' (N: the
# cores this process may use, or $THREADS; R: $ROUNDS, default 5; $ROWS for other
# sizes), with its report in
# OUTDIR/curve.txt, and draws the speed-up against threads of pgs-color,
# pgs-color-contact and jacobi at both sizes, with the no-sharing kernel and the triad
# (what T threads could gain at all on the machine), into OUTDIR/curve.pdf (3.4 in, one
# journal column, grey-scale safe: dash types and markers) and OUTDIR/curve.png;
# OUTDIR/curve.gp redraws them from the CSV.  4 to 5 minutes on 16 cores by an estimate
# (not yet run on such a machine; the wall time is the report's last line); run it on an
# otherwise idle machine.  BENCH_COLOR defaults to build/tests/bench/bench_color (release
# build: bash bench/build.sh).  Exit status: bench_color's, or 2 on a usage error.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: thread_curve.sh OUTDIR [BENCH_COLOR]" >&2
  exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
bc=${2:-$root/build/tests/bench/bench_color}
if [ ! -x "$bc" ]; then
  echo "thread_curve.sh: $bc: no such program (build first: bash bench/build.sh)" >&2
  exit 2
fi
threads=${THREADS:-$(nproc)}
rounds=${ROUNDS:-5}
rows=${ROWS:-1e5,1e6}     # a quick look: ROWS=3000 ROUNDS=1
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
start=$(date +%s)
"$bc" --curve "$threads" --rows "$rows" --rounds "$rounds" --csv "$out/curve.csv" \
  | tee "$out/curve.txt"
echo "# thread_curve.sh: $(($(date +%s) - start)) s wall" | tee -a "$out/curve.txt"

# the figure: one series per solver and size (speed-up median, range as error bars), the
# kernel and the triad as references, y = x for the ideal
maxt=$(awk -F, '!/^#/ && $1 != "solver" && $3 + 0 > m { m = $3 + 0 } END { print m + 0 }' \
  "$out/curve.csv")   # the largest thread count measured
cpu=$(sed -n 's/^# cpu: //p' "$out/curve.csv" | head -1 | tr -d "'\"")
sizes=$(awk -F, '!/^#/ && $1 != "solver" && $2 + 0 > 0 { print $2 + 0 }' "$out/curve.csv" |
  sort -n | uniq)
plot=""
k=0
for m in $sizes; do
  for s in pgs-color pgs-color-contact jacobi; do
    k=$((k + 1))
    plot+="'curve.csv' using (strcol(1) eq '$s' && \$2 == $m ? \$3 : 1/0):9:10:11 "
    # dash type by solver, marker by size (open at the first, filled at the second)
    plot+="with yerrorlines lc rgb '#000000' dt $(( (k - 1) % 3 + 1 )) "
    plot+="pt $(( k <= 3 ? 2 * k + 2 : 2 * (k - 3) + 3 )) ps 0.7 "
    plot+="title '$s, $(awk -v r="$m" 'BEGIN { printf "%.0e", r }') rows', "
  done
done
plot+="'curve.csv' using (strcol(1) eq 'kernel-chains' ? \$3 : 1/0):9 with lines lc rgb '#808080' "
plot+="dt 3 lw 1.5 title 'no-sharing kernel', "
plot+="'curve.csv' using (strcol(1) eq 'triad' ? \$3 : 1/0):9 with lines lc rgb '#808080' "
plot+="dt 2 title 'triad (bandwidth)', x with lines lc rgb '#c0c0c0' notitle"
cat > "$out/curve.gp" <<EOF
# the thread curve: gnuplot curve.gp (in this folder) redraws curve.pdf and curve.png
set datafile separator ','
set key top left font ',7' spacing 0.9
set xlabel 'threads'
set ylabel 'speed-up over 1 thread (median, range)'
set xrange [0.5:$maxt.5]
set yrange [0:*]
set grid ytics lc rgb '#e0e0e0'
set label 1 "$cpu" at graph 0.98, graph 0.04 right font ',6' noenhanced
set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 noenhanced
set output 'curve.pdf'
plot $plot
set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 noenhanced
set key font ',14'
set label 1 font ',12'
set output 'curve.png'
replot
unset output
EOF
if command -v gnuplot > /dev/null; then
  (cd "$out" && gnuplot curve.gp) || echo "thread_curve.sh: gnuplot failed (curve.gp kept)" >&2
else
  echo "thread_curve.sh: no gnuplot: the figure's script is $out/curve.gp" >&2
fi
ls "$out"
