#!/usr/bin/env bash
# report.sh LCPBENCH MKINST: the report side of the harness end to end, as TAP: a fresh
# table output (reorder, a few seconds) whose every CSV reads with pandas.read_csv and
# csv.DictReader without options, its claims in two lists with verdicts, its figures redrawn
# by gnuplot from a copy of plots/, single-column PDFs, --style mono in black, coincident
# curves named together, and the refusals of --variant and --style.
set -u
LB=$1
MK=$2
. "$(dirname "$0")/../common/tap.sh"
rc_and_line() { rc_is "$1" && one_line_err "$2"; }

PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import pandas' 2>/dev/null; then PY=$p; break; fi
done

run "$LB" table reorder --out "$T/ro"
ok "table/reorder-exit-0" rc_is 0
ok "table/provenance-json-once" bash -c "[ -s '$T/ro/provenance.json' ] && grep -q '\"lcpbench\"' '$T/ro/provenance.json' && [ \$(find '$T/ro' -name provenance.json | wc -l) = 1 ]"
ok "table/claims-two-lists" bash -c "grep -q '^## Claims of the source' '$T/ro/reorder.md' && grep -q '^## Findings of this suite' '$T/ro/reorder.md'"
ok "table/variant-named" grep -q '^Variant `suite`' "$T/ro/reorder.md"
ok "table/claims-csv-verdicts" bash -c "awk -F, 'NR>1 { n++ } END { exit n != 6 }' '$T/ro/claims.csv' && grep -q ',held,' '$T/ro/claims.csv' && grep -q ',did not hold,' '$T/ro/claims.csv'"
# the verdicts follow from the numbers: capsule's worst ordering takes 12 sweeps (not > 25)
ok "table/verdict-from-numbers" bash -c "grep -q '^reorder-worst-capsule,.*,did not hold,worst 12 (no),' '$T/ro/claims.csv' && grep -q '^reorder-best-capsule,.*,held,best 6,' '$T/ro/claims.csv'"

# every CSV of the table's own files is plain; run-side files (histories) are listed too
for f in $(cd "$T/ro" && find . -name '*.csv' | sort); do
  name="table/plain-csv ${f#./}"
  todo=
  case "$f" in ./history/*) todo=" # TODO plain histories come with the run side of the harness";; esac
  if [ -z "$PY" ]; then
    ok "$name # SKIP python3 with pandas not found" true
  elif [ -n "$todo" ] && head -c1 "$T/ro/$f" | grep -q '#'; then
    n=$((n + 1)); echo "not ok $n - $name$todo"   # an expected failure, named
  else
    ok "$name" "$PY" "$COMMON/checks.py" csv_readers_agree "$T/ro/$f" 1
  fi
done
ok "table/hist-counts-all-orderings" bash -c "awk -F, 'NR>1 { s += \$2 } END { exit s != 720 }' '$T/ro/reorder-capsule-hist.csv'"

# figures: the .gp files read only their own folder and redraw from a copy of it
ok "figures/gp-reads-own-folder" bash -c "! grep -l \"'\\.\\./\" '$T/ro/plots/'*.gp"
if command -v gnuplot >/dev/null; then
  cp -r "$T/ro/plots" "$T/copy" && rm -f "$T/copy/"*.png "$T/copy/"*.pdf
  ok "figures/redraw-from-copy" bash -c "cd '$T/copy' && for g in *.gp; do gnuplot \"\$g\" || exit 1; done; for g in *.gp; do b=\${g%.gp}; [ -s \$b.png ] && [ -s \$b.pdf ] || exit 1; done"
  if command -v pdfinfo >/dev/null; then
    ok "figures/pdf-single-column-3.4in" bash -c "pdfinfo '$T/ro/plots/capsule-hist.pdf' | grep -Eq 'Page size: +24[45](\\.[0-9]+)? x'"
  else
    ok "figures/pdf-single-column-3.4in # SKIP pdfinfo (poppler-utils) not found" true
  fi
else
  ok "figures/redraw-from-copy # SKIP no gnuplot" true
  ok "figures/pdf-single-column-3.4in # SKIP no gnuplot" true
fi
ok "figures/text-8pt-pdf" grep -q "pdfcairo size 3.4in,2.5in font 'Helvetica,8'" "$T/ro/plots/capsule-orderings.gp"
ok "figures/tolerance-line" grep -q "1.000000e-04 with lines" "$T/ro/plots/capsule-orderings.gp"
ok "figures/histogram-x-fitted" grep -q '^set xrange \[1:13\]' "$T/ro/plots/capsule-hist.gp"
ok "figures/dashes-and-markers" bash -c "grep -q 'dt 2 ' '$T/ro/plots/three-spheres-orderings.gp' && grep -q ' pi ' '$T/ro/plots/three-spheres-orderings.gp'"

# a run folder: coincident curves named together; --style mono draws in black
"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
printf 'instance i1\nset tol=1e-8 maxit=5000 reps=0\nsolver pgs\nsolver pgs omega=1 label=sor1\nsolver jacobi omega=auto label=jac\n' >"$T/s.txt"
run "$LB" run "$T/s.txt" --out "$T/r"
ok "plot/run-exit-0" rc_is 0
ok "plot/coincident-named-together" grep -q 'title "pgs = sor1"' "$T/r/plots/i1-iter.gp"
ok "plot/tolerance-in-key" grep -q 'title "tolerance 1e-08"' "$T/r/plots/i1-iter.gp"
run "$LB" plot "$T/r" --style mono
ok "plot/style-mono-exit-0" rc_is 0
ok "plot/style-mono-black" bash -c "! grep -o \"lc rgb '#[0-9A-Fa-f]*'\" '$T/r/plots/i1-iter.gp' | grep -vqE \"#(000000|606060|808080|c0c0c0)'\""
run "$LB" plot "$T/r" --style frob
ok "bad/plot-unknown-style" rc_and_line 2 "unknown style 'frob'"
run "$LB" table reorder --out "$T/x" --variant frob
ok "bad/table-unknown-variant" rc_and_line 2 "no variant 'frob'"
run "$LB" table reorder --out "$T/x" --style frob
ok "bad/table-unknown-style" rc_and_line 2 "unknown style 'frob'"
run "$LB" table reorder --out "$T/x" --timeout -1
ok "bad/table-negative-timeout" rc_and_line 2 "timeout"

# --timeout limits every run of a table's grid: each row says timeout, the table still ends
run "$LB" table amgs-figures --quick --out "$T/limited" --timeout 0.001
ok "table/timeout-every-run-limited" bash -c "[ \$(cat '$T/rc') = 0 ] &&
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
    { n++; if (\$c[\"status\"] == \"timeout\" && \$c[\"timeout\"] == 0.001) t++ }
    END { exit !(n > 0 && t == n) }' '$T/limited/runs.csv' && [ -s '$T/limited/figures.md' ]"

tap_done
