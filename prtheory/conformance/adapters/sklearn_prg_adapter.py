"""sklearn-prg (PyPI ``sklearn-prg``, module ``sklearn_prg``): ``average_precision_recall_gain``
and ``precision_recall_gain_curve``.

Both are built on scikit-learn's ``precision_recall_curve``: the prevalence is ``mean(y_true)``,
the gains ``(x - pi) / ((1 - pi) x)``, with NaN and ±inf replaced by 0 (``nan_to_num``),
negative gains clipped to 0 and the recall gain set to 1 where recall is 1; the area is
scikit-learn's ``auc`` over the points ordered by ``np.argsort(recall_gain)``. On a perfect
ranking of two positives and two negatives the points at recall 1 (precision 1, 2/3 and 1/2:
gains 1, 1/2 and 0) all have recall gain 1, the appended point at recall 0 has recall gain 0
(``-inf`` replaced by 0) and precision gain 1, and the trapezoid runs from (0, 1) to whichever
point at recall gain 1 the (unstable) argsort puts first: 0.75 where AUPRG is 1.

No sample weights; no conventions claimed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, labels_int, no_weights

LIBRARY = "sklearn-prg"
DISTRIBUTION = "sklearn-prg"
MODULE = "sklearn_prg"
SHIMS: tuple[str, ...] = ()


def implementations() -> list[Implementation]:
    """sklearn-prg's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 1 with the last two tied: prevalence pi = 2/3 and the operating points
    (R, P) = (1/2, 1), (1, 2/3), whose gains (x - pi) / ((1 - pi) x) (F5) are (RG, PG) =
    (-1, 1), (1, 0). The library clips the recall gain -1 to 0, so its area runs from (0, 1) to
    (1, 0): 1/2. The PRG curve enters the unit square where the segment from (-1, 1) to (1, 0)
    crosses RG = 0, at PG = 1/2: AUPRG = (1/2 + 0) / 2 = 1/4. (An input with ties between
    points of equal recall gain but different precision gains is avoided here: the library's
    ``np.argsort`` is not stable, and which of them it puts first decides its area.)

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.sklearn_prg_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs, evaluate
    >>> impl = {i.metric: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5, 0.5]))
    >>> {k: v.tolist() for k, v in impl["prg_curve"].run(x).items()}
    {'recall_gain': [0.0, 1.0], 'precision_gain': [1.0, 0.0]}
    >>> impl["auprg"].run(x), evaluate("auprg", x)
    (0.5, Fraction(1, 4))
    """
    from sklearn_prg import average_precision_recall_gain, precision_recall_gain_curve

    def auprg(x: Any) -> float:
        return float(average_precision_recall_gain(labels_int(x.y_true), x.y_score))

    def curve(x: Any) -> dict[str, np.ndarray]:
        # increasing threshold, then the appended point at recall 0: reversed and dropped
        pg, rg = precision_recall_gain_curve(labels_int(x.y_true), x.y_score)
        return {"recall_gain": rg[::-1][1:].copy(), "precision_gain": pg[::-1][1:].copy()}

    return [
        Implementation(LIBRARY, "average_precision_recall_gain", "auprg", no_weights(auprg)),
        Implementation(LIBRARY, "precision_recall_gain_curve", "prg_curve", no_weights(curve)),
    ]
