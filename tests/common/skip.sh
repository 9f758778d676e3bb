#!/bin/sh
# skip.sh REASON: the TAP plan of a test whose optional dependency is absent.
echo "1..0 # SKIP $*"
