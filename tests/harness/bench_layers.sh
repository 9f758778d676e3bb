#!/usr/bin/env bash
# bench_layers.sh SRCROOT OBJDIR (the lcpbench target's objects, FOLDER_FILE.c.o): the layers of bench/ hold (README of bench/, "Layout").
#   kit < grid < formats, tables < cmd: a folder's files include only their own folder's
#   header and those of the layers below (and no other folder's header by path), and take
#   symbols (nm: undefined in one object, defined in another) only from their own layer or
#   those below; a table takes none from another table; and the objects' own graph has no
#   cycle between two files; and one argv loop (kit/args.c) parses every subcommand.
set -u
SRC=$1 OBJ=$2
. "$(dirname "$0")/../common/tap.sh"
command -v nm >/dev/null || { echo "1..0 # SKIP nm not installed"; exit 0; }
rank() { case $1 in kit) echo 0 ;; grid) echo 1 ;; formats|tables) echo 2 ;; cmd) echo 3 ;; *) echo 9 ;; esac; }
hdr_layer() { case $1 in kit.h) echo kit ;; grid.h) echo grid ;; formats.h) echo formats ;; tables.h) echo tables ;; cmd.h) echo cmd ;; esac; }
# includes
bad=""
for f in "$SRC"/bench/*/*.[ch]; do
  layer=$(basename "$(dirname "$f")")
  for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
    case $h in */*) [ "$h" = ../lcp/dantzig.h ] || bad="$bad ${f#$SRC/}:$h"; continue ;; esac
    hl=$(hdr_layer "$h")
    [ -z "$hl" ] && continue
    if [ "$(rank "$hl")" -gt "$(rank "$layer")" ] ||
       { [ "$hl" != "$layer" ] && [ "$(rank "$hl")" = "$(rank "$layer")" ]; }; then
      bad="$bad ${f#$SRC/}:$h"
    fi
  done
done
ok "every file of bench/ includes only its layer's header and those below${bad:+ (not:$bad)}" test -z "$bad"
# one argument parser: kit/args.c walks every subcommand's argv (a table of its flags);
# no other file loops over argv or looks for --help (lcpbench.c's dispatch reads argv[1] only)
loops=""
for f in "$SRC"/bench/*/*.c; do
  case ${f#$SRC/} in bench/kit/args.c|bench/cmd/lcpbench.c) continue ;; esac
  grep -qE 'for \(int [a-z]+ = 1; [a-z]+ < argc|"--help"' "$f" && loops="$loops ${f#$SRC/}"
done
ok "one argv loop: only kit/args.c parses a subcommand's arguments${loops:+ (not:$loops)}" test -z "$loops"
# symbols
objs=$(ls "$OBJ"/*.c.o 2>/dev/null)
ok "the harness's objects are built ($(echo "$objs" | wc -w) files)" test "$(echo "$objs" | wc -w)" -ge 30
: >"$T/defs"; : >"$T/uses"
for o in $objs; do
  name=$(basename "$o" .c.o); layer=${name%%_*}; file=${name#*_}
  nm -g --defined-only "$o" | awk -v f="$layer/$file" '{print $3, f}' >>"$T/defs"
  nm -u "$o" | awk -v f="$layer/$file" '{print $2, f}' >>"$T/uses"
done
sort -u "$T/defs" -o "$T/defs"
sort "$T/uses" -o "$T/uses"
join "$T/uses" "$T/defs" | awk '$2 != $3 {print $2, $3, $1}' | sort -u >"$T/edges"
ok "the objects take symbols from one another ($(wc -l <"$T/edges") symbol arrows)" test -s "$T/edges"
up=""
while read -r from to sym; do
  lf=${from%%/*} lt=${to%%/*}
  if [ "$(rank "$lt")" -gt "$(rank "$lf")" ] || { [ "$lf" = tables ] && [ "$lt" = tables ]; } ||
     { [ "$lf" != "$lt" ] && [ "$(rank "$lt")" = "$(rank "$lf")" ]; }; then
    up="$up $from->$to($sym)"
  fi
done <"$T/edges"
ok "no arrow from a lower layer to a higher one, none between tables${up:+ (not:$up)}" test -z "$up"
awk '{print $1, $2}' "$T/edges" | sort -u >"$T/files"
cyc=$(awk '{e[$1" "$2]=1} END {for (k in e) {split(k, a, " "); if (e[a[2]" "a[1]] && a[1] < a[2]) print a[1]"<->"a[2]}}' "$T/files")
ok "no import cycle between two files of bench/${cyc:+ (not: $cyc)}" test -z "$cyc"
tsort "$T/files" >/dev/null 2>"$T/loops"
ok "no import cycle through more files (tsort)$([ -s "$T/loops" ] && echo " (not: $(tr '\n' ' ' <"$T/loops"))")" \
  test ! -s "$T/loops"
tap_done
