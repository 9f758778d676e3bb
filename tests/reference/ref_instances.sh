#!/usr/bin/env bash
# ref_instances.sh LCPBENCH INSTANCES_DIR: the reference solves every committed instance
# exactly: status `converged' means ||r||_inf <= 1e-10 max(1, ||q||_inf), checked by
# ldlt-ref itself with the library's residual; the harness's own ||r||_2 is checked here too.
LB=$1
DIR=$2
n=0
fails=0
out=$("$LB" solve "$DIR"/*/ --solver ldlt-ref --reps 0 2>&1)
rc=$?
n=$((n + 1))
if [ $rc = 0 ]; then echo "ok $n - ref-instances/exit-0"; else echo "not ok $n - ref-instances/exit-0"; fails=1; fi
while IFS=, read -r inst solver status it res rest; do
  [ "$inst" = instance ] && continue
  n=$((n + 1))
  if [ "$status" = converged ] && awk -v r="$res" 'BEGIN { exit !(r != "" && r + 0 <= 1e-9) }'; then
    echo "ok $n - ref-instances/$inst-exact"
  else
    echo "not ok $n - ref-instances/$inst-exact # $status $res"
    fails=1
  fi
done <<<"$out"
echo "1..$n"
exit $fails
