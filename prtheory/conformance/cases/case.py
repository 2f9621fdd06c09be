"""One conformance case (:class:`Case`) and the constants the cases are written with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prtheory.conformance.encoding import encode_inputs
from prtheory.conformance.metrics import Inputs

__all__ = ["INF", "LABELS_8", "MAX", "SCORES_8", "SEED", "Case", "Group"]

SEED = 20150
INF = float("inf")
MAX = 1.7976931348623157e308  # the largest finite float64

#: eight labels and scores with a tie at 0.5 (the threshold, cutoff and beta cases)
LABELS_8 = [1, 0, 1, 1, 0, 0, 1, 0]
SCORES_8 = [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3]


@dataclass
class Case:
    """One test's inputs and what it is meant to test.

    Parameters
    ----------
    comment : str
        What the case tests, in a few words (the test's ``comment``).
    flags : list of str
        Keys of :data:`~prtheory.conformance.cases.notes.NOTES`.
    y_true, y_score, sample_weight : array_like or None
        The inputs (``None`` for the closed forms, whose inputs are ``params``).
    params : dict
        The metric's other arguments (threshold, beta, k, pi, ...), as the vector writes them.
    runs : bool
        Whether the inputs are written run-length encoded (the 10^6-item cases).
    intent : str or None
        ``"invalid"``, ``"undefined"`` or ``"acceptable"`` when the case is meant to be one
        (the generator checks the oracle agrees).
    reason : str
        For ``"acceptable"``: why refusing the input is defensible.

    Examples
    --------
    >>> from prtheory.conformance.cases.case import Case
    >>> case = Case("one positive item", ["single-item"], [1], [0.5])
    >>> case.encoded_inputs()["y_score"]
    ['0.5']
    """

    comment: str
    flags: list[str]
    y_true: Any = None
    y_score: Any = None
    sample_weight: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    runs: bool = False
    intent: str | None = None  # "invalid" / "undefined" / "acceptable" when meant to be
    reason: str = ""  # for "acceptable": why refusing the input is defensible

    def inputs(self) -> Inputs:
        """The inputs as the metric table evaluates them (scores as float64 arrays).

        Returns
        -------
        Inputs
            ``y_true``, ``y_score`` (float64), ``sample_weight`` and ``params``.

        Raises
        ------
        AssertionError
            When ``params["dtype"]`` is set and a score is not exact in that dtype.
        """

        def arr(v: Any, dtype: Any = None) -> Any:
            return None if v is None else np.asarray(v, dtype=dtype)

        params = dict(self.params)
        if "dtype" in params:  # the scores must be exact in the dtype they are passed in
            s = np.asarray(self.y_score, dtype=np.float64)
            if not np.array_equal(s.astype(params["dtype"]).astype(np.float64), s):
                raise AssertionError(f"{self.comment}: scores not exact in {params['dtype']}")
        return Inputs(
            arr(self.y_true), arr(self.y_score, np.float64), arr(self.sample_weight), params
        )

    def encoded_inputs(self) -> dict[str, Any]:
        """The inputs as the vector file writes them (:func:`~prtheory.conformance.encoding.encode_inputs`).

        Returns
        -------
        dict
            ``y_true``, ``y_score`` and ``sample_weight`` (or ``runs``), and ``params``.
        """
        out = (
            {}
            if self.y_true is None
            else encode_inputs(self.y_true, self.y_score, self.sample_weight, runs=self.runs)
        )
        if self.params:
            out["params"] = dict(self.params)
        return out


#: a named group of cases, as a vector file's ``testGroups`` entry holds them
Group = tuple[str, list[Case]]
