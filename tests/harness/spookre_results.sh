#!/bin/sh
# spookre_results.sh RESULTS: the committed results of spook-pgs and reorder-sim, read with
# pandas without options (plain CSV), as TAP: the claims lists (ids, kinds, verdicts computed
# from the numbers), the slide's box-against-cone errors (0 at 0 degrees, direction 0 and
# vector sqrt(2) - 1 at 45), the seeds x steps spread (12 instances, z error above w error),
# and the reorder-sim summary (7 orderings x 3 scenes, stack's fall step present).
# /usr/bin/python3 is used (the pyenv python3 on PATH has no pandas); SKIP without pandas.
set -u
R=$1
PY=/usr/bin/python3
if ! $PY -c 'import pandas' 2>/dev/null; then
  echo "1..0 # SKIP /usr/bin/python3 has no pandas"
  exit 0
fi
PYTHONPATH=$(cd "$(dirname "$0")/../common" && pwd)
export PYTHONPATH
exec $PY - "$R" <<'PYEOF'
import math, sys
import pandas as pd
from checks import Tap
R = sys.argv[1]
tap = Tap()
ok = tap.ok
c = pd.read_csv(R + "/spook-pgs/claims.csv")
ids = list(c["id"])
ok(ids == ["spook-10pct", "spook-stall", "spook-linear", "spook-gain-arith",
           "spook-gain-near1", "spook-eps", "spook-tau", "spook-box", "spook-10pct-warm"],
   "spook-pgs/claims: the eight claims of the notes, in order, then the finding")
ok(set(c["verdict"]) <= {"held", "held, qualified", "did not hold", "not decidable",
                         "not tested"}, "spook-pgs/claims: verdicts")
ok(list(c["kind"]) == ["source"] * 8 + ["finding"], "spook-pgs/claims: kinds")
ok(c.set_index("id").loc["spook-gain-arith", "verdict"] == "held",
   "spook-pgs/claims: 0.99^10 and 0.99^450 arithmetic held")
ok("z" in c.set_index("id").loc["spook-10pct", "metric"] and
   "cold start" in c.set_index("id").loc["spook-10pct", "metric"],
   "spook-pgs/claims: the 10% claim is checked on z from a cold start (the notes name no warm "
   "start; the warm start is the finding spook-10pct-warm)")
import re
def spread(row):   # "label median M [MIN, MAX] (N)" -> (M, MIN, MAX)
    m = re.search(r"median ([0-9.e+-]+) \[([0-9.e+-]+), ([0-9.e+-]+)\]", row["numbers"])
    return tuple(map(float, m.groups()))
for cid, lo, hi in (("spook-stall", 0.1 + 1e-12, 1e9), ("spook-10pct", 0, 0.1),
                    ("spook-10pct-warm", 0, 0.1), ("spook-gain-near1", 0.95, 1 - 1e-12)):
    row = c.set_index("id").loc[cid]
    md, mn, mx = spread(row)
    want = ("did not hold" if not lo <= md <= hi else
            "held, qualified" if mn < lo or mx > hi else "held")
    ok(row["verdict"] == want, "spook-pgs/claims: %s %s from median %g [%g, %g]"
       % (cid, want, md, mn, mx))
s = pd.read_csv(R + "/spook-pgs/spook-pgs-slide.csv")
s1 = s[s["step"] == 1].set_index("angle_deg")
ok(abs(s1.loc[0, "dir_err_deg"]) < 1e-3 and abs(s1.loc[0, "vec_err"]) < 1e-5,
   "spook-pgs/slide: box = cone at 0 degrees")
ok(abs(s1.loc[45, "dir_err_deg"]) < 1e-3 and abs(s1.loc[45, "vec_err"] - (math.sqrt(2) - 1)) < 1e-4,
   "spook-pgs/slide: at 45 degrees direction error 0, vector error sqrt(2) - 1")
ok(abs(s1.loc[30, "dir_err_deg"] - 15) < 1e-2, "spook-pgs/slide: at 30 degrees box points at 45 (15 deg off)")
i = pd.read_csv(R + "/spook-pgs/spook-pgs-instances.csv")
ok(len(i) == 12 and i["seed"].nunique() == 4 and i["step"].nunique() == 3,
   "spook-pgs/instances: 4 seeds x 3 steps")
m = i.dropna(subset=["warm_z30"])
ok(len(m) >= 4 and (m["warm_z30"] > m["warm_w30"]).all(),
   "spook-pgs/instances: z error above w error on every measured instance")
ok(((m["cold_rate"] > 0.9) & (m["cold_rate"] < 1)).all(), "spook-pgs/instances: rates in (0.9, 1)")
g = pd.read_csv(R + "/spook-pgs/spook-pgs-grid.csv")
ok(len(g) >= 9 and set(g["d"]) >= {1, 4, 8} and set(g["eps"]) >= {0, 1e-6, 1e-4},
   "spook-pgs/grid: eps {0, 1e-6, 1e-4} x d {1, 4, 8} at least")
c = pd.read_csv(R + "/reorder-sim/claims.csv")
ok(list(c["id"]) == ["order-matters", "pgs-stacking", "heuristics-help", "bottom-up-stack",
                     "random-no-worse"],
   "reorder-sim/claims: three of the source, two findings")
ok(list(c["kind"]) == ["source", "source", "source", "finding", "finding"],
   "reorder-sim/claims: kinds")
u = pd.read_csv(R + "/reorder-sim/reorder-sim-summary.csv")
ok(len(u) == 21 and set(u["ordering"]) == {"natural", "reverse", "random", "error", "mass",
                                           "height", "pgs-block"},
   "reorder-sim/summary: 7 orderings x 3 scenes")
st = u[u["scene"] == "stack"].set_index("ordering")
ok(st.loc["height", "stack_sink_m"] == st.loc["natural", "stack_sink_m"],
   "reorder-sim/summary: on the column bottom-up = natural (contacts listed bottom-up)")
fell = not pd.isna(st.loc["natural", "stack_fell_step"])
ok(c.set_index("id").loc["pgs-stacking", "verdict"] == ("held" if fell else "did not hold"),
   "reorder-sim/claims: pgs-stacking (standard PGS cannot stack) follows the natural order's "
   "fall")
sys.exit(tap.done())
PYEOF
