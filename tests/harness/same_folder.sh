# same_folder.sh: sourced by the tests that compare run folders (shards, mpi), after tap.sh.
#   grid_suite MK DIR   the grid both run (at the end)
#   strip FILE          runs.csv or a history without its time columns, as one canonical text
#   same_folder A B     every file but provenance.json equal, time columns stripped from CSV
strip() { python3 "$COMMON/checks.py" strip_time_columns "$1"; }
same_folder() {
  local a=$1 b=$2
  [ -s "$a/runs.csv" ] && [ -s "$b/runs.csv" ] || return 1
  [ "$( (cd "$a" && find . -type f ! -name provenance.json | sort) )" = \
    "$( (cd "$b" && find . -type f ! -name provenance.json | sort) )" ] || return 1
  (cd "$a" && find . -type f ! -name provenance.json) | while read -r f; do
    case $f in
      ./runs.csv|./history/*) [ "$(strip "$a/$f")" = "$(strip "$b/$f")" ] || { echo "# differs: $f"; exit 1; } ;;
      *) cmp -s "$a/$f" "$b/$f" || { echo "# differs: $f"; exit 1; } ;;
    esac
  done
}

# grid_suite MKINST DIR: the grid the shards and mpi tests run: instances DIR/i1 (7 rows) and
# DIR/i2 (8 rows, friction) and the suite DIR/s.txt (those two and a captured capsule x five
# solver lines, one of them cut by its timeout)
grid_suite() {
  "$1" "$2/i1" 7 && "$1" "$2/i2" 8 1 || return 1
  cat >"$2/s.txt" <<EOS
suite shards
set reps=1 tol=1e-8 maxit=300
instance $2/i1
instance $2/i2
scene capsule step=2 name=cap
solver pgs
solver pgs omega=1.3
solver jacobi maxit=50
solver pgs tol=-1 maxit=2000000000 timeout=0.1 label=slow
solver ldlt-ref
EOS
}
