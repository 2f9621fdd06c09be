"""Per-group metrics (one ranking per query) for any engine: checks, the per-group evaluation
of Arrow batches, and the exact mean.

An engine packs each group's labels, scores (and document ids) into Arrow lists, one row per
group (columns ``k``, ``y``, ``s`` and ``d``), and maps :func:`evaluate_batches` over the
batches where they live; each group's value is the single-machine oracle's
(:mod:`prtheory.oracle`), exact, under its named conventions. A group the oracle rejects
(duplicate document ids under ``ties="trec_eval"``) is marked with the oracle's message rather
than raised in a worker, and the driver raises :func:`group_error`, which names the group key
and its value. Groups without positives are found before the evaluation by a native aggregate
(:func:`check_groups`). The mean over groups is the exact sum of the groups' values
(:func:`exact_mean`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory import oracle
from prtheory.distributed.blocks import encode_fraction
from prtheory.distributed.metrics import no_relevant
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.ap import no_positives
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum

__all__ = [
    "METRICS",
    "OUTPUT",
    "check_arguments",
    "check_groups",
    "evaluate_batches",
    "evaluator",
    "exact_mean",
    "group_error",
]

METRICS = ("average_precision", "precision_at_k", "r_precision")

#: The per-group result's own columns (beside the group key); ``error`` is internal.
OUTPUT = ("value", "exact")

#: Metrics undefined for a group without positives (``convention="sklearn"``: 0).
_NEEDS_POSITIVES = {"average_precision": "AP", "r_precision": "R-precision"}


def check_arguments(
    metric: str,
    by: str,
    columns: Iterable[str],
    k: int | None,
    ties: str | None,
    doc_id: str | None,
    doc_arg: str,
) -> None:
    """Check the arguments of ``per_group`` before any pass over the data.

    Parameters
    ----------
    metric : str
        The metric's name.
    by : str
        The group column.
    columns : iterable of str
        The source's columns.
    k : int or None
        The cutoff.
    ties : str or None
        The tie policy.
    doc_id : str or None
        The document id column.
    doc_arg : str
        The engine's name of the document id argument.

    Returns
    -------
    None

    Raises
    ------
    InvalidInputError
        A column missing, or an argument the metric does not take.

    See Also
    --------
    check_groups

    Examples
    --------
    >>> from prtheory.distributed.grouped import check_arguments
    >>> check_arguments("average_precision", "q", ["query", "y", "s"], None, None, None, "doc_col")
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: by: column 'q' not in ['query', 'y', 's']
    """
    columns = list(columns)
    if metric not in METRICS:
        raise InvalidInputError("metric", f"must be one of {METRICS}, got {metric!r}")
    if metric == "precision_at_k" and k is None:
        raise InvalidInputError("k", "precision_at_k needs a cutoff k >= 1")
    if by not in columns:
        raise InvalidInputError("by", f"column {by!r} not in {columns}")
    if by in OUTPUT:
        raise InvalidInputError(
            "by", f"the result's own columns are 'value' and 'exact', got {by!r}"
        )
    if ties == "trec_eval" and doc_id is None:
        raise InvalidInputError(doc_arg, 'ties="trec_eval" needs a document-id column')
    if doc_id is not None and doc_id not in columns:
        raise InvalidInputError(doc_arg, f"column {doc_id!r} not in {columns}")


def check_groups(
    metric: str,
    by: str,
    convention: str | None,
    null_rows: int,
    without_positives: int,
    example: Any,
) -> None:
    """Raise before the evaluation on null group keys (``null_rows`` rows) and, for AP and
    R-precision without a ``convention``, on groups without positives (``example`` one key).

    Parameters
    ----------
    metric : str
        The metric's name.
    by : str
        The group column.
    convention : str or None
        The convention for groups without positives.
    null_rows : int
        Rows with a null group key.
    without_positives : int
        Groups without positives.
    example : object
        One such group's key.

    Returns
    -------
    None

    Raises
    ------
    InvalidInputError
        Rows with a null group key.
    UndefinedMetricError
        Groups without positives for AP or R-precision, without a convention.

    See Also
    --------
    check_arguments

    Examples
    --------
    >>> from prtheory.distributed.grouped import check_groups
    >>> check_groups("average_precision", "query", "sklearn", 0, 1, "q1")
    >>> check_groups("average_precision", "query", None, 2, 0, None)
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: by: column 'query' has 2 rows with a null group key (no query to join)
    """
    if null_rows:
        raise InvalidInputError(
            "by", f"column {by!r} has {null_rows} rows with a null group key (no query to join)"
        )
    if metric in _NEEDS_POSITIVES and without_positives:
        if convention is None:
            raise UndefinedMetricError(
                metric.replace("_", " "),
                f"{without_positives} groups of {by!r} have no positives (for example "
                f'{example!r}); convention="sklearn" gives {_NEEDS_POSITIVES[metric]} 0 there',
            )
        _value_without_positives(metric, convention)  # a convention that does not apply raises


def _value_without_positives(metric: str, convention: str | None) -> Fraction:
    if metric == "average_precision":
        return no_positives("average precision", convention)
    return no_relevant(convention)


def evaluator(
    metric: str, k: int | None, ties: str | None, convention: str | None
) -> Callable[[np.ndarray, np.ndarray, list | None], Fraction]:
    """The oracle's value of one group from its labels, scores (and document ids).

    Parameters
    ----------
    metric : str
        The metric's name.
    k : int or None
        The cutoff.
    ties : str or None
        The tie policy.
    convention : str or None
        The convention for an undefined value.

    Returns
    -------
    callable
        ``evaluate(y, s, doc_ids) -> Fraction``.

    See Also
    --------
    evaluate_batches

    Examples
    --------
    Positives at ranks 1 and 3: 5/6:

    >>> import numpy as np
    >>> from prtheory.distributed.grouped import evaluator
    >>> evaluator("average_precision", None, None, None)(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7]), None)
    Fraction(5, 6)
    """

    def run(y: np.ndarray, s: np.ndarray, doc_ids: list | None) -> Fraction:
        opts: dict[str, Any] = {} if ties is None else {"ties": ties}
        if ties == "trec_eval":
            opts["doc_ids"] = doc_ids
        if metric == "average_precision":
            return oracle.average_precision(y, s, convention=convention, **opts)
        if metric == "precision_at_k":
            assert k is not None  # check_arguments requires it
            return oracle.precision_at_k(y, s, k, **opts)
        if not np.any(y):
            return _value_without_positives(metric, convention)
        return oracle.r_precision(y, s, **opts)

    return run


def evaluate_batches(
    evaluate: Callable[[np.ndarray, np.ndarray, list | None], Fraction], with_docs: bool
) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """A function over Arrow batches of groups (``k``, and each group's ``y``, ``s`` and ``d``
    as lists) giving batches of ``(k, value, exact, error)``: the correctly rounded value, the
    exact one as hexadecimal text (:func:`~prtheory.distributed.encode_fraction`), and the
    oracle's message where it rejected the group (value and exact null).

    Parameters
    ----------
    evaluate : callable
        The oracle's value of one group (:func:`evaluator`).
    with_docs : bool
        Whether the batches carry document ids.

    Returns
    -------
    callable
        A function from batches of groups to batches of results.

    See Also
    --------
    evaluator

    Examples
    --------
    >>> import pyarrow as pa
    >>> from prtheory.distributed.grouped import evaluate_batches, evaluator
    >>> batch = pa.RecordBatch.from_pydict({"k": ["q1"], "y": [[1, 0, 1]], "s": [[0.9, 0.8, 0.7]]})
    >>> out = list(evaluate_batches(evaluator("average_precision", None, None, None), False)([batch]))
    >>> out[0].to_pydict()["exact"]
    ['0x5/0x6']
    """

    def batches(inputs: Iterable[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in inputs:
            keys = batch.column("k")
            # each list column's flat values, and where each row's list starts and ends in them
            lists = {c: batch.column(c) for c in ("y", "s")}
            flat = {c: a.values.to_numpy(zero_copy_only=False) for c, a in lists.items()}
            at = {c: a.offsets.to_numpy() for c, a in lists.items()}
            docs = batch.column("d").to_pylist() if with_docs else None
            values: list[float | None] = []
            exact: list[str | None] = []
            errors: list[str | None] = []
            for i in range(batch.num_rows):
                y, s = (flat[c][at[c][i] : at[c][i + 1]] for c in ("y", "s"))
                try:
                    v = Fraction(evaluate(y, s, docs[i] if docs else None))
                except (InvalidInputError, UndefinedMetricError) as e:
                    values.append(None)
                    exact.append(None)
                    errors.append(str(e))
                    continue
                values.append(to_float(v))
                exact.append(encode_fraction(v))
                errors.append(None)
            yield pa.RecordBatch.from_arrays(
                [
                    keys,
                    pa.array(values, pa.float64()),
                    pa.array(exact, pa.string()),
                    pa.array(errors, pa.string()),
                ],
                names=["k", *OUTPUT, "error"],
            )

    return batches


def group_error(by: str, key: str, message: str) -> InvalidInputError:
    """The error of a group the oracle rejected, naming the group column and its key (as
    ``repr`` text).

    Parameters
    ----------
    by : str
        The group column.
    key : str
        The group's key as ``repr`` text.
    message : str
        The oracle's message.

    Returns
    -------
    InvalidInputError
        The error, to raise.

    See Also
    --------
    check_groups

    Examples
    --------
    >>> from prtheory.distributed.grouped import group_error
    >>> str(group_error("query", "'q1'", "no positives"))
    "query: the group query='q1' is rejected: no positives"
    """
    return InvalidInputError(by, f"the group {by}={key} is rejected: {message}")


def exact_mean(values: Iterable[Fraction], groups: int) -> Fraction:
    """``(1/G) sum_g value_g``, exactly (:func:`prtheory.oracle.summation.rational_sum`).

    Parameters
    ----------
    values : iterable of Fraction
        The groups' values.
    groups : int
        Their number.

    Returns
    -------
    Fraction
        The mean.

    Raises
    ------
    InvalidInputError
        No group.

    See Also
    --------
    evaluator

    Examples
    --------
    (1/2 + 1/3)/2 = 5/12:

    >>> from fractions import Fraction
    >>> from prtheory.distributed.grouped import exact_mean
    >>> exact_mean([Fraction(1, 2), Fraction(1, 3)], 2)
    Fraction(5, 12)
    """
    if groups == 0:
        raise InvalidInputError("source", "has no rows (no group to average over)")
    vs = list(values)
    return rational_sum([v.numerator for v in vs], [v.denominator for v in vs]) / groups
