"""ranking.stats keeps scipy and numba out of start-up (the ``rank`` command pays for it).

Importing the package (as Django's start-up does, through the pages and the API) costs
numpy only: scipy (about 0.3 s) is imported by the functions that use it, and numba (about
0.4 s, plus the kernel's first-use checks) only when the WMT14 method runs. A fresh
interpreter checks this, since the test process has imported everything already.
"""

from __future__ import annotations

from tests.fresh_interpreter import fresh_interpreter_json

SCRIPT = """
import json, sys
import numpy as np
import ranking.stats
from ranking.stats._pairwise import judgements_to_comparisons
seen = {"import": sorted({m.split(".")[0] for m in sys.modules} & {"scipy", "numba"})}
judgement = np.repeat(np.arange(12), 3)
system = np.tile([0, 1, 2], 12)
score = np.tile([3.0, 2.0, 1.0], 12)
c = judgements_to_comparisons(judgement, system, score, n_systems=3)
from ranking.stats._methods import rank
for method in ("expected_wins", "bradley_terry", "wmt14"):
    rank(method, c, rng=np.random.default_rng(0), runs=8)
    seen[method] = sorted({m.split(".")[0] for m in sys.modules} & {"scipy", "numba"})
print(json.dumps(seen))
"""


def test_scipy_and_numba_are_imported_only_when_used():
    seen = fresh_interpreter_json(SCRIPT)
    assert seen["import"] == []
    assert "numba" not in seen["expected_wins"]
    # Bradley-Terry needs scipy (expit, sparse), still not numba
    assert seen["bradley_terry"] == ["scipy"]
    assert "numba" in seen["wmt14"]


EVIDENCE = """
import json, sys
import numpy as np
from ranking.stats import system_evidence
found = system_evidence(
    n_systems=3,
    judgement=np.repeat(np.arange(4), 3),
    system=np.tile([0, 1, 2], 4),
    score=np.tile([3.0, 2.0, 1.0], 4),
    ranked=[0, 1, 2],
)
print(json.dumps({"groups": found.separation.groups,
                  "modules": sorted({m.split(".")[0] for m in sys.modules} & {"scipy", "numba"})}))
"""


def test_the_separation_check_every_run_makes_imports_neither():
    """Every finished run checks its data's separation (ranking.services.compute); scipy's
    graph module would add about 0.15 s to the ``rank`` command's start-up."""
    seen = fresh_interpreter_json(EVIDENCE)
    assert seen["groups"] == [[0], [1], [2]]  # 0 beat 1 beat 2, every time
    assert seen["modules"] == []
