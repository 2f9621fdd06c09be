"""Each library's divergences attributed to the fewest named mechanisms (issue: one cause, one
name).

For every implementation of a run, :func:`diagnose_run` takes all of its divergent results
(every category but ``agrees`` and ``unsupported``) and the results it got right, and asks
:func:`~prtheory.conformance.mechanisms.diagnose` for the smallest set of mechanisms that
explains them, preferring the conventions the implementation declares, then (second pass) the
mechanisms found for the library's other implementations, so that one library's tie order gets
one name. The call-pattern mechanisms of an implementation (``binned(n thresholds)``,
``sigmoid-per-batch(k)``) are predicted by the runner (:attr:`~prtheory.conformance.runner.Row.extra`).

For comparison each result also keeps what the first-fit classifier
(:mod:`prtheory.conformance.classify`) said; :data:`UNNAMED` are its categories that name no cause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory.conformance.classify import DEFAULT_F32_ULPS, DEFAULT_ULPS
from prtheory.conformance.mechanisms import (
    FLOAT32,
    Diagnosis,
    Mechanism,
    Raised,
    contradicted,
    diagnose,
    mechanisms,
)
from prtheory.conformance.runner import Row, Run
from prtheory.conformance.vectors_io import Vector

__all__ = [
    "UNNAMED",
    "ImplementationDiagnosis",
    "attributions",
    "contradicted_attributions",
    "diagnose_run",
    "result",
]

#: categories that are no result to explain: agreement, an input the API cannot express, and a
#: vector not run for want of time
NOT_DIAGNOSED = ("agrees", "unsupported", "timeout")
#: the first-fit classifier's categories that name no cause (no convention, not float32)
UNNAMED = ("wrong", "undefined-value", "accepted-invalid", "rejected-valid", "crashed")


@dataclass(frozen=True)
class ImplementationDiagnosis:
    """One implementation's results (``rows``, in run order) and their diagnosis.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2, ``score >= 1/2``
    selects a positive and a negative (1/2) and ``score > 1/2`` (``threshold=strict``) the
    positive alone (1); scored 0.9, 0.4, 0.2 both give 1. A library that returned 1.0 on both
    compares strictly:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def row(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     v = Vector("precision_at_threshold", tc_id, "", (), x, "valid", encode_value(value),
    ...                alternatives, None)
    ...     return Row("mylib", "precision", v.metric, v, classify(v, Outcome(value=1.0)), 1.0)
    >>> run = Run([], [row(1, 0.5, Fraction(1, 2), 1), row(2, 0.4, 1, 1)], {})
    >>> from prtheory.conformance.attribution import diagnose_run
    >>> d = diagnose_run(run)[0]
    >>> [r.vector.ident for r in d.divergent], d.unexplained, d.unnamed_before
    (['precision_at_threshold#1'], [], 0)
    >>> d.mechanism(d.rows[0])[0], d.mechanism(d.rows[1])
    ('threshold=strict', None)
    """

    library: str
    implementation: str
    metric: str
    claims: tuple[str, ...]
    rows: list[Row]
    diagnosis: Diagnosis

    @property
    def divergent(self) -> list[Row]:
        """The results to explain: every category but agreement, unsupported and timeout."""
        return [r for r in self.rows if r.verdict.category not in NOT_DIAGNOSED]

    @property
    def unexplained(self) -> list[Row]:
        """The divergent results no chosen mechanism explains."""
        ids = {v.ident for v in self.diagnosis.unexplained}
        return [r for r in self.divergent if r.vector.ident in ids]

    @property
    def unnamed_before(self) -> int:
        """Divergent results the first-fit classifier named no cause for."""
        return sum(r.verdict.category in UNNAMED for r in self.rows)

    def mechanism(self, row: Row) -> tuple[str, Any] | None:
        """The mechanism ``row`` is attributed to, with its prediction (``None``: none)."""
        return self.diagnosis.attribution.get(row.vector.ident)


def result(row: Row) -> Any:
    """What ``row``'s implementation gave: its value, or :class:`Raised`.

    Parameters
    ----------
    row : Row
        A result.

    Returns
    -------
    Any
        Its value; else a :class:`Raised` with the verdict's detail, deliberate unless the
        verdict is ``crashed``.

    Examples
    --------
    >>> from prtheory.conformance.attribution import result
    >>> from prtheory.conformance.classify import Verdict
    >>> from prtheory.conformance.runner import Row
    >>> crashed = Verdict("crashed", "raised IndexError: index 0 is out of bounds")
    >>> result(Row("mylib", "ap", "average_precision", None, crashed))
    Raised(detail='raised IndexError: index 0 is out of bounds', deliberate=False)
    >>> result(Row("mylib", "ap", "average_precision", None, Verdict("agrees", ""), 0.25))
    0.25
    """
    if row.value is not None:
        return row.value
    return Raised(row.verdict.detail, row.verdict.category != "crashed")


def _extra(rows: list[Row]) -> list[Mechanism]:
    names = list(dict.fromkeys(n for r in rows for n in r.extra))
    by_ident = {r.vector.ident: r.extra for r in rows}

    def predictor(name: str) -> Callable[[Vector], Any]:
        return lambda v: by_ident.get(v.ident, {}).get(name)

    return [
        Mechanism(n, f"the {n} call pattern of this implementation", predictor(n)) for n in names
    ]


def _split(rows: list[Row]) -> tuple[list[tuple[Vector, Any]], list[tuple[Vector, Any]]]:
    """(divergent, agreeing) (vector, result) pairs of an implementation's rows."""
    divergent: list[tuple[Vector, Any]] = []
    agreeing: list[tuple[Vector, Any]] = []
    for r in rows:
        if r.verdict.category in NOT_DIAGNOSED[1:]:
            continue
        (agreeing if r.verdict.category == "agrees" else divergent).append((r.vector, result(r)))
    return divergent, agreeing


def contradicted_attributions(d: ImplementationDiagnosis) -> int:
    """Results of ``d`` attributed to a mechanism that another result of the same
    implementation contradicts (:func:`~prtheory.conformance.mechanisms.contradicted`, checked
    again here on the diagnosis's output; the diagnosis admits none).

    Parameters
    ----------
    d : ImplementationDiagnosis
        An implementation's diagnosis.

    Returns
    -------
    int
        How many of its attributed results name a contradicted mechanism.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2, ``score >= 1/2``
    selects a positive and a negative (1/2) and ``score > 1/2`` (``threshold=strict``) the
    positive alone (1); scored 0.9, 0.4, 0.2 both give 1. A library that returned 1.0 on both
    compares strictly:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def row(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     v = Vector("precision_at_threshold", tc_id, "", (), x, "valid", encode_value(value),
    ...                alternatives, None)
    ...     return Row("mylib", "precision", v.metric, v, classify(v, Outcome(value=1.0)), 1.0)
    >>> run = Run([], [row(1, 0.5, Fraction(1, 2), 1), row(2, 0.4, 1, 1)], {})
    >>> from prtheory.conformance.attribution import contradicted_attributions, diagnose_run
    >>> contradicted_attributions(diagnose_run(run)[0])
    0
    """
    pool = [*mechanisms(d.metric), *_extra(d.rows)]
    by_name = {m.name: m for m in pool}
    divergent, agreeing = _split(d.rows)
    f32 = FLOAT32 in d.diagnosis.chosen
    tolerance = (np.float32, DEFAULT_F32_ULPS) if f32 else (np.float64, DEFAULT_ULPS)
    cache: dict[tuple[str, str], Any] = {}

    def prediction(m: Mechanism, v: Vector) -> Any:
        return cache.setdefault((m.name, v.ident), m.predict(v))

    names = [name for name, _ in d.diagnosis.attribution.values()]
    bad = {
        name
        for name in set(names)
        if name in by_name
        and contradicted(by_name[name], agreeing, divergent, prediction, pool, tolerance)
    }
    return sum(name in bad for name in names)


def _diagnose(rows: list[Row], consistent: dict[str, int], cache: dict[Any, Any]) -> Diagnosis:
    divergent, agreeing = _split(rows)
    return diagnose(
        rows[0].metric,
        divergent,
        agreeing,
        ulps=DEFAULT_ULPS,
        f32_ulps=DEFAULT_F32_ULPS,
        prefer=rows[0].claims,
        consistent=consistent,
        extra=_extra(rows),
        cache=cache,
    )


_LAST: list[tuple[Run, list[ImplementationDiagnosis]]] = []  # the report and the JSON share it


def diagnose_run(run: Run) -> list[ImplementationDiagnosis]:
    """The diagnosis of every implementation of ``run``, in run order (module docstring).

    Parameters
    ----------
    run : Run
        The run.

    Returns
    -------
    list of ImplementationDiagnosis
        One per (library, implementation, metric) (the last run's diagnosis is kept and
        returned again for the same run).

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2, ``score >= 1/2``
    selects a positive and a negative (1/2) and ``score > 1/2`` (``threshold=strict``) the
    positive alone (1); scored 0.9, 0.4, 0.2 both give 1. A library that returned 1.0 on both
    compares strictly:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def row(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     v = Vector("precision_at_threshold", tc_id, "", (), x, "valid", encode_value(value),
    ...                alternatives, None)
    ...     return Row("mylib", "precision", v.metric, v, classify(v, Outcome(value=1.0)), 1.0)
    >>> run = Run([], [row(1, 0.5, Fraction(1, 2), 1), row(2, 0.4, 1, 1)], {})
    >>> from prtheory.conformance.attribution import diagnose_run
    >>> [(d.implementation, d.diagnosis.chosen) for d in diagnose_run(run)]
    [('precision', ['threshold=strict'])]
    """
    if _LAST and _LAST[0][0] is run:
        return _LAST[0][1]
    groups: dict[tuple[str, str, str], list[Row]] = {}
    for r in run.rows:
        groups.setdefault((r.library, r.implementation, r.metric), []).append(r)
    cache: dict[tuple[str, str], Any] = {}  # predictions, shared by every implementation
    first = {key: _diagnose(rows, {}, cache) for key, rows in groups.items()}
    found: dict[str, dict[str, int]] = {}
    for (library, _, _), d in first.items():
        for part in {p for name in d.chosen for p in name.split("+")}:
            found.setdefault(library, {})[part] = found.get(library, {}).get(part, 0) + 1
    out = [
        ImplementationDiagnosis(
            key[0],
            key[1],
            key[2],
            rows[0].claims,
            rows,
            _diagnose(rows, found.get(key[0], {}), cache),
        )
        for key, rows in groups.items()
    ]
    _LAST[:] = [(run, out)]
    return out


def attributions(run: Run) -> dict[tuple[str, str, str, str], tuple[str, Any]]:
    """``(library, implementation, metric, vector ident) -> (mechanism, predicted value)`` for
    every divergent result of ``run`` that the diagnosis attributes to a mechanism.

    Parameters
    ----------
    run : Run
        The run.

    Returns
    -------
    dict
        ``(library, implementation, metric, vector ident) -> (mechanism, prediction)``.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2, ``score >= 1/2``
    selects a positive and a negative (1/2) and ``score > 1/2`` (``threshold=strict``) the
    positive alone (1); scored 0.9, 0.4, 0.2 both give 1. A library that returned 1.0 on both
    compares strictly:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def row(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     v = Vector("precision_at_threshold", tc_id, "", (), x, "valid", encode_value(value),
    ...                alternatives, None)
    ...     return Row("mylib", "precision", v.metric, v, classify(v, Outcome(value=1.0)), 1.0)
    >>> run = Run([], [row(1, 0.5, Fraction(1, 2), 1), row(2, 0.4, 1, 1)], {})
    >>> from prtheory.conformance.attribution import attributions
    >>> [(key[3], name, predicted.exact) for key, (name, predicted) in attributions(run).items()]
    [('precision_at_threshold#1', 'threshold=strict', Fraction(1, 1))]
    """
    out: dict[tuple[str, str, str, str], tuple[str, Any]] = {}
    for d in diagnose_run(run):
        for r in d.divergent:
            m = d.mechanism(r)
            if m is not None:
                out[(r.library, r.implementation, r.metric, r.vector.ident)] = m
    return out
