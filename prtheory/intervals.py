"""Confidence intervals for average precision and the area under the PR curve.

Following Boyd, Eng & Page (2013), *Area under the precision-recall curve: point estimates and
confidence intervals* (ECML PKDD; ``references.bib``: ``boyd2013area``), who compare the
estimators of AUCPR (average precision, the lower trapezoid, Davis-Goadrich interpolation) and
recommend two simple intervals that treat the estimate ``t`` (the exact oracle value) as a
proportion over the ``n`` positive examples, the items the estimators average over:

* **binomial**: ``t ± z sqrt(t (1 - t)/n)``, cut to [0, 1] (the true area lies in [0, 1], so
  the cut never removes a covered value);
* **logit**: with ``eta = ln(t/(1 - t))`` and ``tau = (n t (1 - t))**(-1/2)``, the interval
  ``[expit(eta - z tau), expit(eta + z tau)]``, ``expit(x) = 1/(1 + e**-x)``; it stays inside
  (0, 1) and is asymmetric near the ends. At ``t = 1`` (a perfect ranking) ``eta`` is infinite
  and the interval is undefined (:class:`~prtheory.errors.UndefinedMetricError`);

where ``z = Phi^-1((1 + level)/2)`` is the standard normal quantile. With sample weights ``n``
is Kish's effective number of positives ``(sum w)**2 / sum w**2`` over the positives (the
number of positives for unit weights), computed exactly. The endpoints are evaluated with
mpmath at 50 significant digits and rounded once to float64.

* **bootstrap** (percentile): the data are resampled ``n_resamples`` times and the interval is
  the ``(1 - level)/2`` and ``(1 + level)/2`` quantiles (numpy's linear rule) of the estimator
  over the resamples. Resampling is done on *counts*, never on items: the items are grouped
  into cells of equal (score, label, weight) with multiplicities ``m_c``, a resample draws new
  multiplicities for all cells at once, and the estimator is evaluated for every resample in
  one vectorised float64 pass over the cells (cumulative weights read at the ends of the tie
  blocks). No resample is sorted: the cost is ``O(n_resamples x items)`` array operations, not
  ``n_resamples`` sorts. ``resampling``:

  - ``"stratified"`` (default): positives and negatives are resampled separately, each a
    multinomial over its cells with its own total (drawn as uniform picks of items, counted
    per cell), so every resample keeps the skew (AP and
    AUCPR depend on it) and has positives;
  - ``"multinomial"``: the classical bootstrap, one multinomial over all cells (a resample can
    lose every positive; its estimate is then undefined and left out, see ``n_undefined``);
  - ``"poisson"``: each cell's multiplicity is Poisson(``m_c``), the Poisson bootstrap, whose
    cells are independent (so it splits across machines).

  ``random_state`` (an int seed, a :class:`numpy.random.Generator`, or None for fresh entropy)
  makes the draw reproducible. The bootstrap quantiles are Monte Carlo estimates in float64;
  only the point estimate is exact.

The estimator is :func:`prtheory.oracle.pr_auc` with a named ``method`` and ``first_point``
(``"step"`` is average precision with tied scores grouped, claim N2). The bootstrap evaluates
``"step"``, ``"trapezoid"``, ``"lower-trapezoid"`` (equal to ``"trapezoid"`` on the points of
one ranking, see :mod:`prtheory.oracle.areas`) and ``"davis-goadrich"`` over the whole recall
range. Empirical coverage against the nominal level, on simulated binormal data, is measured by
``benchmarks/bench_intervals.py`` (``reports/intervals.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from prtheory._input import as_labels, as_scores, as_weights, check_count, check_option
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.areas import pr_auc
from prtheory.oracle.rounding import exact_rational, to_float

__all__ = [
    "INTERVALS",
    "RESAMPLING",
    "ConfidenceInterval",
    "average_precision_interval",
    "pr_auc_interval",
]

INTERVALS = ("logit", "binomial", "bootstrap")
RESAMPLING = ("stratified", "multinomial", "poisson")
_BOOTSTRAP_METHODS = ("step", "trapezoid", "lower-trapezoid", "davis-goadrich")
_DPS = 50
_CHUNK = 1 << 18  # resample x item entries per vectorised pass (about 2 MB per array)


@dataclass(frozen=True)
class ConfidenceInterval:
    """An interval ``[low, high]`` at ``level`` around the exact point ``estimate``.

    ``interval`` names the construction; ``n`` is the (effective) number of positives used by
    the binomial and logit intervals; ``n_resamples`` and ``n_undefined`` (resamples without
    positive weight, left out) describe a bootstrap. Unpacks as ``low, high``.

    Parameters
    ----------
    estimate : Fraction or mpmath.mpf
        The exact point estimate.
    low, high : float
        The interval's ends.
    level : float
        The nominal coverage.
    interval : str
        The construction: ``"logit"``, ``"binomial"`` or ``"bootstrap"``.
    n : Fraction
        The (effective) number of positives.
    n_resamples, n_undefined : int
        The bootstrap's resamples and those without positive weight.

    See Also
    --------
    average_precision_interval, pr_auc_interval

    Examples
    --------
    It unpacks as its ends (see :func:`average_precision_interval`):

    >>> from prtheory.intervals import average_precision_interval
    >>> low, high = average_precision_interval([1, 0, 1, 0, 1, 0, 1, 0], [1] * 8)
    >>> low < 0.5 < high
    True
    """

    estimate: Fraction | mpmath.mpf
    low: float
    high: float
    level: float
    interval: str
    n: Fraction
    n_resamples: int = 0
    n_undefined: int = 0

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high


def _check_level(level: Any) -> float:
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, (int, float, Fraction)):
        raise InvalidInputError("level", f"must be a number in (0, 1), got {level!r}")
    if not (0 < level < 1):
        raise InvalidInputError("level", f"must lie strictly between 0 and 1, got {level!r}")
    return float(level)


def _effective_positives(y_true, sample_weight) -> Fraction:
    """Kish's ``(sum w)^2 / sum w^2`` over the positives (their count for unit weights)."""
    labels = as_labels(y_true)
    w = as_weights(sample_weight, labels.size)
    if w is None:
        return Fraction(int(labels.sum()))
    nums = [int(v) for v in w.numerators[labels].tolist()]
    squares = sum(v * v for v in nums)
    return Fraction(sum(nums) ** 2, squares) if squares else Fraction(0)


def _mpf(x: Fraction | mpmath.mpf) -> mpmath.mpf:
    if isinstance(x, mpmath.mpf):
        return +x
    q = exact_rational(x)
    return mpmath.mpf(q.numerator) / q.denominator


def _analytic(estimate, n: Fraction, level: float, interval: str) -> tuple[float, float]:
    """Binomial or logit endpoints at 50 digits, each rounded once to float64."""
    with mpmath.workdps(_DPS):
        t = _mpf(estimate)
        z = mpmath.sqrt(2) * mpmath.erfinv(_mpf(Fraction(level)))
        nn = _mpf(n)
        if interval == "binomial":
            half = z * mpmath.sqrt(t * (1 - t) / nn)
            low, high = max(t - half, mpmath.mpf(0)), min(t + half, mpmath.mpf(1))
        else:
            if t >= 1:
                raise UndefinedMetricError(
                    "logit interval",
                    "the estimate is 1 (a perfect ranking), so ln(t/(1-t)) is infinite",
                )
            eta = mpmath.log(t / (1 - t))
            delta = z / mpmath.sqrt(nn * t * (1 - t))
            low = 1 / (1 + mpmath.exp(-(eta - delta)))
            high = 1 / (1 + mpmath.exp(-(eta + delta)))
        return to_float(low), to_float(high)


def average_precision_interval(
    y_true,
    y_score,
    sample_weight=None,
    *,
    interval: str = "logit",
    level: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
    resampling: str = "stratified",
) -> ConfidenceInterval:
    """Confidence interval for average precision (ties grouped, N2); see the module docstring.

    ``interval`` is ``"logit"`` (default), ``"binomial"`` or ``"bootstrap"``; ``level`` the
    nominal coverage in (0, 1). The bootstrap takes ``n_resamples``, ``random_state`` and
    ``resampling``. The estimate is the exact AP (a Fraction).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    interval : {"logit", "binomial", "bootstrap"}
        The construction (default ``"logit"``).
    level : float
        The nominal coverage in (0, 1) (default 0.95), taken at its binary value.
    n_resamples : int
        The bootstrap's resamples (default 1000).
    random_state : int, numpy.random.Generator or None
        The bootstrap's seed.
    resampling : {"stratified", "multinomial", "poisson"}
        The bootstrap's resampling (default ``"stratified"``).

    Returns
    -------
    ConfidenceInterval
        The interval around the exact AP.

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown option, naming the argument.
    UndefinedMetricError
        No positive weight, or a logit interval at AP = 1.

    See Also
    --------
    pr_auc_interval : for the other area methods.
    prtheory.oracle.average_precision : the estimate.

    Examples
    --------
    Four positives among eight items all tied: AP = 4/8 = 1/2, n = 4. With z the normal
    quantile of level 0.95, the binomial interval is 1/2 ± z sqrt((1/4)/4) = 1/2 ± z/4 and the
    logit one ``[expit(-z), expit(z)]`` (eta = 0, tau = 1). Evaluated apart in mpmath at 30 digits
    (``z = sqrt(2) erfinv(mpf(0.95))``, the binary value of 0.95) and rounded to float64 these are
    0.010009003864986536, 0.9899909961350135, 0.12347094531688807 and 0.8765290546831119:

    >>> from prtheory.intervals import average_precision_interval
    >>> y, s = [1, 0, 1, 0, 1, 0, 1, 0], [1] * 8
    >>> ci = average_precision_interval(y, s)
    >>> ci.estimate, ci.n, ci.low, ci.high
    (Fraction(1, 2), Fraction(4, 1), 0.12347094531688807, 0.8765290546831119)
    >>> list(average_precision_interval(y, s, interval="binomial"))
    [0.010009003864986536, 0.9899909961350135]
    """
    return pr_auc_interval(
        y_true,
        y_score,
        sample_weight,
        method="step",
        interval=interval,
        level=level,
        n_resamples=n_resamples,
        random_state=random_state,
        resampling=resampling,
    )


def pr_auc_interval(
    y_true,
    y_score,
    sample_weight=None,
    *,
    method: str,
    first_point: str | None = None,
    interval: str = "logit",
    level: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
    resampling: str = "stratified",
) -> ConfidenceInterval:
    """Confidence interval for the area under the PR curve by ``method`` (module docstring).

    ``method`` and ``first_point`` are those of :func:`prtheory.oracle.pr_auc` (the estimate is
    its exact value; ``"davis-goadrich"`` an mpf at 50 digits). The bootstrap supports
    ``"step"``, ``"trapezoid"``, ``"lower-trapezoid"`` and ``"davis-goadrich"``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    method : str
        An area method of :func:`prtheory.oracle.pr_auc`.
    first_point : str or None
        Its first point.
    interval : {"logit", "binomial", "bootstrap"}
        The construction (default ``"logit"``).
    level : float
        The nominal coverage in (0, 1) (default 0.95), taken at its binary value.
    n_resamples : int
        The bootstrap's resamples (default 1000).
    random_state : int, numpy.random.Generator or None
        The bootstrap's seed.
    resampling : {"stratified", "multinomial", "poisson"}
        The bootstrap's resampling (default ``"stratified"``).

    Returns
    -------
    ConfidenceInterval
        The interval around the exact area.

    Raises
    ------
    InvalidInputError
        Malformed input, an unknown option, or a method the bootstrap does not support.
    UndefinedMetricError
        No positive weight, or a logit interval at an area of 1.

    See Also
    --------
    average_precision_interval

    Examples
    --------
    The tied data above: the trapezoid from scikit-learn's (0, 1) to (1, 1/2) has area 3/4, so
    the binomial interval is 3/4 ± z sqrt((3/16)/4), its top cut at 1:

    >>> from prtheory.intervals import pr_auc_interval
    >>> y, s = [1, 0, 1, 0, 1, 0, 1, 0], [1] * 8
    >>> ci = pr_auc_interval(y, s, method="trapezoid", first_point="sklearn", interval="binomial")
    >>> ci.estimate, ci.high
    (Fraction(3, 4), 1.0)
    """
    interval = check_option(interval, "interval", INTERVALS)
    level = _check_level(level)
    if interval == "bootstrap":
        resampling = check_option(resampling, "resampling", RESAMPLING)
        n_resamples = check_count(n_resamples, "n_resamples")
        if n_resamples < 1:
            raise InvalidInputError("n_resamples", "must be >= 1, got 0")
        if method not in _BOOTSTRAP_METHODS:
            known = ", ".join(repr(m) for m in _BOOTSTRAP_METHODS)
            raise InvalidInputError("method", f"the bootstrap evaluates {known}; got {method!r}")
    estimate = pr_auc(y_true, y_score, sample_weight, method=method, first_point=first_point)
    n = _effective_positives(y_true, sample_weight)
    if interval != "bootstrap":
        low, high = _analytic(estimate, n, level, interval)
        return ConfidenceInterval(estimate, low, high, level, interval, n)
    first_point = "none" if first_point is None else first_point
    cells = _Cells(y_true, y_score, sample_weight)
    rng = np.random.default_rng(random_state)
    values = np.concatenate(
        [
            _estimates(cells, cells.resample(rng, size, resampling), method, first_point)
            for size in _chunks(n_resamples, cells.items)
        ]
    )
    ok = values[~np.isnan(values)]
    if ok.size == 0:
        raise UndefinedMetricError(
            "bootstrap interval", "no resample has positive weight (try resampling='stratified')"
        )
    alpha = (1 - level) / 2
    low, high = np.quantile(ok, [alpha, 1 - alpha])
    return ConfidenceInterval(
        estimate,
        float(low),
        float(high),
        level,
        interval,
        n,
        n_resamples,
        int(values.size - ok.size),
    )


def _chunks(total: int, width: int) -> Iterator[int]:
    """Resample counts per pass, so that a pass holds about ``_CHUNK`` entries."""
    step = max(1, _CHUNK // max(width, 1))
    for start in range(0, total, step):
        yield min(step, total - start)


class _Cells:
    """Items grouped into cells of equal (score, label, weight), decreasing score.

    ``ends`` are the last cell indices of the runs of equal score (tie blocks); ``pools`` the
    cell index of every positive and of every negative item, from which the multinomial
    resamples draw items uniformly.
    """

    def __init__(self, y_true, y_score, sample_weight) -> None:
        labels = as_labels(y_true)
        scores = as_scores(y_score, labels.size)
        w = as_weights(sample_weight, labels.size)
        self.unit = w is None
        weights = (
            np.ones(labels.size)
            if w is None
            else np.array([int(v) / w.denominator for v in w.numerators.tolist()])
        )
        keys = np.stack([-scores, labels.astype(np.float64), weights])
        order = np.lexsort(keys[::-1])
        k = keys[:, order]
        new = np.concatenate(([True], np.any(k[:, 1:] != k[:, :-1], axis=0)))
        starts = np.flatnonzero(new)
        item_cell = np.empty(labels.size, dtype=np.int64)
        item_cell[order] = np.cumsum(new) - 1
        self.pools = (item_cell[labels], item_cell[~labels])
        self.multiplicity = np.diff(np.append(starts, labels.size))
        score = -k[0, starts]
        self.label = k[1, starts] == 1
        self.weight = k[2, starts]
        self.ends = np.append(np.flatnonzero(score[1:] != score[:-1]), starts.size - 1)
        self.size = starts.size
        self.items = labels.size

    def resample(self, rng: np.random.Generator, size: int, how: str) -> np.ndarray:
        """New multiplicities of every cell, one row per resample.

        Multinomial draws pick items uniformly with replacement (from one pool for
        ``"multinomial"``, from each class's pool for ``"stratified"``) and count them per cell
        with one ``bincount``; Poisson draws are per cell.
        """
        if how == "poisson":
            return rng.poisson(self.multiplicity, size=(size, self.size))
        pools = self.pools if how == "stratified" else (np.concatenate(self.pools),)
        rows = np.arange(size, dtype=np.int64)[:, None] * self.size
        out = np.zeros(size * self.size, dtype=np.int64)
        for pool in pools:
            if pool.size:
                drawn = pool[rng.integers(0, pool.size, size=(size, pool.size))] + rows
                out += np.bincount(drawn.ravel(), minlength=out.size)
        return out.reshape(size, self.size)


def _estimates(cells: _Cells, counts: np.ndarray, method: str, first_point: str) -> np.ndarray:
    """The estimator for every resample (rows of ``counts``); NaN where pos = 0.

    Cumulative positive and total weight over the cells, read at the ends of the tie blocks,
    are the operating points of each resample.
    """
    mass = counts.astype(np.float64) if cells.unit else counts * cells.weight
    tp = np.cumsum(np.where(cells.label, mass, 0.0), axis=1)
    seen = np.cumsum(mass, axis=1)
    if cells.ends.size < cells.size:
        tp, seen = tp[:, cells.ends], seen[:, cells.ends]
    total = tp[:, -1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "step":
            gain = np.diff(tp, axis=1, prepend=0.0)
            area = (gain * tp / np.where(gain > 0, seen, 1.0)).sum(axis=1, keepdims=True)
        elif method == "davis-goadrich":
            area = _dg(tp, seen - tp, first_point)
        else:
            area = _trapezoid(tp, seen - tp, first_point)
        out = (area / total)[:, 0]
    out[total[:, 0] == 0] = np.nan
    return out


def _trapezoid(tp: np.ndarray, fp: np.ndarray, first_point: str) -> np.ndarray:
    """``pos *`` trapezoid area through every operating point (TP + FP > 0), with a first point.

    Leading points with TP + FP = 0 (zero weights on top) are no points: they get the first
    point's coordinates, so the segments into them have zero width. A virtual point is put in
    front: (0, 1) for "sklearn", (0, p_first) for "spark", and for "none" the first real point
    itself (so nothing is added before it).
    """
    n = tp + fp
    real = n > 0
    first = np.argmax(real, axis=1)[:, None]
    rows = np.arange(tp.shape[0])[:, None]
    p_first = tp[rows, first] / n[rows, first]
    head_p = np.ones_like(p_first) if first_point == "sklearn" else p_first
    head_x = tp[rows, first] if first_point == "none" else np.zeros_like(p_first)
    p = np.where(real, tp / np.where(real, n, 1.0), head_p)
    x = np.where(real, tp, head_x)
    x = np.concatenate((head_x, x), axis=1)
    p = np.concatenate((head_p, p), axis=1)
    return (np.diff(x, axis=1) * (p[:, 1:] + p[:, :-1]) / 2).sum(axis=1, keepdims=True)


def _dg(tp: np.ndarray, fp: np.ndarray, first_point: str) -> np.ndarray:
    """``pos *`` Davis-Goadrich area (``dT^2/dN - (D dT/dN^2) ln(N1/N0)`` per segment).

    With "spark" the tables start at the empty classifier (0, 0); with "none" segments that
    start from an empty table are left out.
    """
    zero = np.zeros((tp.shape[0], 1))
    t = np.concatenate((zero, tp), axis=1)
    f = np.concatenate((zero, fp), axis=1)
    t0, t1, f0, f1 = t[:, :-1], t[:, 1:], f[:, :-1], f[:, 1:]
    dt, dn = t1 - t0, (t1 - t0) + (f1 - f0)
    n0, n1 = t0 + f0, t1 + f1
    d = f0 * t1 - f1 * t0
    use = (dt > 0) & ((n0 > 0) | (first_point == "spark"))
    safe_dn = np.where(use, dn, 1.0)
    logs = np.where(
        use & (d != 0), np.log(np.where(n0 > 0, n1, 1.0) / np.where(n0 > 0, n0, 1.0)), 0.0
    )
    terms = np.where(use, dt * dt / safe_dn - d * dt / (safe_dn * safe_dn) * logs, 0.0)
    return terms.sum(axis=1, keepdims=True)
