"""Causes that explain rather than coincide: a named mechanism (or convention) confirmed on
further inputs.

A divergence found by differential testing (:mod:`prtheory.conformance.differential`) names the
mechanisms whose prediction is the returned result on the drawn and on the shrunk input. The
shrunk input is small, often two items, where many rules give one value: torch's ``topk`` order
and input order rank a tie of two alike, and an exception is what both "weights beyond float32
are rejected" and "scores whose ``1 - s`` and ``s`` do not sum to 1 are rejected" predict on an
input holding both. Fitting two inputs does not make a mechanism the cause.

So each named mechanism is asked again on further inputs drawn by the same generator, and so
is each named convention, as the mechanism whose prediction is the exact value under it
(:func:`~prtheory.conformance.differential.convention_mechanisms`): on a shrunk input of two
tied items, input order and optimistic ties give one value. The names of a divergence are asked
together (one call per input); :meth:`Confirmation.restricted` gives each kind its part. An input
*discriminates* a mechanism when its prediction there differs from the expected value (the
expected value taken as a result does not :func:`~prtheory.conformance.predictions.fits` the
prediction, at the compared precision): only there does the implementation's result tell the
mechanism apart from a correct implementation. On a discriminating input the implementation is
called (once, whichever mechanisms the input discriminates) and each mechanism is

* *confirmed* there when the result fits its prediction (the rule that named it), else
* *contradicted*: the mechanism coincided on the shown inputs but is not what the
  implementation does, and its name is removed;
* neither, where the implementation raised (or could not be called) and the mechanism predicts
  a value: nothing was computed to compare (Keras cannot be given a score outside [0, 1], a
  library may reject infinite scores before it ranks anything). Such an input never confirms,
  so it cannot make a name pass.

The precision compared is the result's: where a float64 implementation returns a float32 value
(float32 arithmetic, which composes with every mechanism), the prediction is matched within the
float32 tolerance, and an input whose expected value is within that tolerance of the
prediction tells nothing (it neither confirms nor contradicts).

A mechanism confirmed on :data:`CONFIRMATIONS` inputs is asked no more. One that no input drawn
confirms or contradicts keeps its name, marked *unconfirmed*: nothing drawn could refute it.

The cost is bounded: the expected value and the pending mechanisms' predictions are computed on
each input drawn (the caller draws a fixed number, of a few dozen items), and the
implementation is called only on discriminating ones, once at most per input, and no more once
each mechanism is contradicted or confirmed :data:`CONFIRMATIONS` times. Nothing depends on
time: the same inputs give the same names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from prtheory.conformance.encoding import Value
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import Raised, fits

__all__ = ["CONFIRMATIONS", "Confirmation", "Contradiction", "Probe", "confirm"]

#: discriminating inputs on which a mechanism must give its prediction (fewer where the inputs
#: drawn hold fewer)
CONFIRMATIONS = 3


@dataclass(frozen=True)
class Contradiction:
    """A named mechanism's (or convention's) prediction on a discriminating input, and the
    result that differs from it.

    Examples
    --------
    >>> from prtheory.conformance.confirmation import Contradiction
    >>> from prtheory.conformance.predictions import scalar
    >>> Contradiction("ties=input-order", "sample(7, blocks, 32)", scalar(0.5), 0.25).input
    'sample(7, blocks, 32)'
    """

    mechanism: str
    #: how to draw the input again
    input: str
    predicted: Any
    returned: Any


@dataclass(frozen=True)
class Confirmation:
    """What asking the named mechanisms on further inputs found: the inputs confirming each,
    the contradictions, and how many inputs were drawn and how many calls made.

    Examples
    --------
    >>> from prtheory.conformance.confirmation import Confirmation, Contradiction
    >>> c = Confirmation(
    ...     (("a", ("sample(1, blocks, 10)",)), ("b", ())),
    ...     (Contradiction("c", "sample(2, blocks, 32)", None, 0.5),),
    ...     drawn=24,
    ...     calls=2,
    ... )
    >>> c.on("a"), c.unconfirmed(("a", "b")), c.dropped
    (('sample(1, blocks, 10)',), ('b',), ('c',))
    """

    #: (mechanism, the inputs on which the result fitted its prediction), for each not
    #: contradicted
    confirmed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    contradicted: tuple[Contradiction, ...] = ()
    drawn: int = 0
    calls: int = 0

    def on(self, name: str) -> tuple[str, ...]:
        """The inputs confirming ``name`` (none where it was not confirmed)."""
        return dict(self.confirmed).get(name, ())

    def unconfirmed(self, names: Iterable[str]) -> tuple[str, ...]:
        """Those of ``names`` that no input drawn confirmed or contradicted."""
        dropped = self.dropped
        return tuple(n for n in names if n not in dropped and not self.on(n))

    @property
    def dropped(self) -> tuple[str, ...]:
        """The contradicted mechanisms."""
        return tuple(c.mechanism for c in self.contradicted)

    def restricted(self, names: Iterable[str]) -> Confirmation:
        """What was found for ``names`` alone, from the same inputs and calls (those asked
        together, as a divergence's conventions and mechanisms are, share the calls).

        Examples
        --------
        >>> from prtheory.conformance.confirmation import Confirmation, Contradiction
        >>> c = Confirmation((("a", ("s1",)),), (Contradiction("b", "s2", None, 0.5),), 9, 2)
        >>> c.restricted(["b"]).dropped, c.restricted(["a"]).on("a"), c.restricted(["a"]).calls
        (('b',), ('s1',), 2)
        """
        keep = set(names)
        return Confirmation(
            tuple(c for c in self.confirmed if c[0] in keep),
            tuple(c for c in self.contradicted if c.mechanism in keep),
            self.drawn,
            self.calls,
        )


@dataclass(frozen=True)
class Probe:
    """How :func:`confirm` asks an input: the expected value (``None`` where it is undefined),
    the implementation's result (a value or a
    :class:`~prtheory.conformance.predictions.Raised`), the predictions of the named mechanisms
    asked there (``(name, prediction)``, leaving out those that say nothing), and the tolerance
    ``(dtype, ulps)`` of a match at ``n`` items for a result (``None`` before the call: the
    declared precision; a result may call for a coarser one, module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.conformance.confirmation import Probe
    >>> probe = Probe(lambda x: 0.5, lambda x: 0.5, lambda x, names: [],
    ...               lambda n, got: (np.float64, n))
    >>> probe.tolerance(10, None)[1]
    10
    """

    expected: Callable[[Inputs], Any]
    call: Callable[[Inputs], Any]
    predictions: Callable[[Inputs, Sequence[str]], list[tuple[str, Any]]]
    tolerance: Callable[[int, Any], tuple[Any, int]]


def confirm(
    names: Sequence[str], inputs: Iterable[tuple[str, Inputs]], probe: Probe
) -> Confirmation:
    """Ask the mechanisms ``names`` on ``inputs`` (``(how to draw it, input)``, in order) until
    each is contradicted or confirmed :data:`CONFIRMATIONS` times (module docstring).

    Parameters
    ----------
    names : sequence of str
        The mechanisms named on the shown inputs.
    inputs : iterable of (str, Inputs)
        The further inputs, drawn lazily.
    probe : Probe
        The expected value, the implementation, the predictions and the tolerance.

    Returns
    -------
    Confirmation
        The inputs confirming each mechanism, the contradictions, and the cost.

    Examples
    --------
    Labels 1, 0, 0, 1 tied two by two (scores 1, 1, 0, 0): AP with ties grouped is
    (1/2 + 1/2) / 2 = 1/2; ranked in input order (1 + 2/4) / 2 = 3/4. An implementation ranking
    ties in input order returns 3/4 there, and 1 on labels 1, 0 tied (AP 1/2). A mechanism
    predicting 3/4 on every input is contradicted at once on labels 1, 0 scored 1, 0 (AP 1,
    returned 1), where the input-order mechanism is not asked (its prediction is the expected
    value); the input-order mechanism is confirmed on the two tied inputs:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.confirmation import Probe, confirm
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.predictions import scalar
    >>> def ap(y, s):  # ties grouped: precision at each positive's score, counting its ties
    ...     return float(sum(Fraction(int(sum(y[s >= t])), int(sum(s >= t)))
    ...                      for t in s[y == 1]) / int(sum(y)))
    >>> def in_order(x):
    ...     return ap(x.labels, -np.arange(len(x.labels), dtype=float))
    >>> def predictions(x, names):
    ...     table = {"input-order": in_order(x), "three-quarters": 0.75}
    ...     return [(n, scalar(table[n])) for n in names]
    >>> probe = Probe(lambda x: ap(x.labels, x.scores), in_order, predictions,
    ...               lambda n, got: (np.float64, 8))
    >>> four = Inputs(np.array([1, 0, 0, 1]), np.array([1.0, 1.0, 0.0, 0.0]))
    >>> two = Inputs(np.array([1, 0]), np.array([1.0, 1.0]))
    >>> distinct = Inputs(np.array([1, 0]), np.array([1.0, 0.0]))
    >>> ap(four.labels, four.scores), in_order(four), in_order(two)
    (0.5, 0.75, 1.0)
    >>> inputs = [("distinct", distinct), ("four", four), ("two", two)]
    >>> c = confirm(("input-order", "three-quarters"), inputs, probe)
    >>> c.on("input-order"), c.dropped, c.contradicted[0].input, c.drawn, c.calls
    (('four', 'two'), ('three-quarters',), 'distinct', 3, 3)
    """
    found: dict[str, list[str]] = {n: [] for n in names}
    contradicted: dict[str, Contradiction] = {}
    drawn = calls = 0
    for label, x in inputs:
        pending = [n for n in names if n not in contradicted and len(found[n]) < CONFIRMATIONS]
        if not pending:
            break
        drawn += 1
        asked = _ask(x, pending, probe)
        if asked is None:
            continue
        calls += 1
        got, discriminated, tol = asked
        for name, want in discriminated:
            if fits(got, want, tol, False):
                found[name].append(label)
            else:
                contradicted[name] = Contradiction(name, label, want, got)
    return Confirmation(
        tuple((n, tuple(found[n])) for n in names if n not in contradicted),
        tuple(contradicted[n] for n in names if n in contradicted),
        drawn,
        calls,
    )


def _ask(
    x: Inputs, pending: Sequence[str], probe: Probe
) -> tuple[Any, list[tuple[str, Any]], tuple[Any, int]] | None:
    """The implementation's result at ``x``, the pending mechanisms ``x`` discriminates at that
    result's precision and the result speaks to (their predictions), and that precision;
    ``None`` without a call where ``x`` discriminates none in the declared precision (or its
    expected value is undefined)."""
    expected = probe.expected(x)
    if expected is None:
        return None
    n = len(x.labels)
    asked = _differing(expected, probe.predictions(x, pending), probe.tolerance(n, None))
    if not asked:
        return None
    got = probe.call(x)
    tol = probe.tolerance(n, got)
    computed = not isinstance(got, Raised)  # else a predicted value or curve is not observed
    told = [(m, p) for m, p in _differing(expected, asked, tol) if computed or _marker(p)]
    return got, told, tol


def _marker(predicted: Any) -> bool:
    """Whether a prediction is a marker (an exception, 0/0, NaN), not a value or a curve."""
    return not isinstance(predicted, Value | dict)


def _differing(
    expected: Any, predictions: list[tuple[str, Any]], tolerance: tuple[Any, int]
) -> list[tuple[str, Any]]:
    """The ``(name, prediction)`` whose prediction differs from ``expected`` by more than
    ``tolerance``: those the input discriminates."""
    return [(n, p) for n, p in predictions if not fits(expected, p, tolerance, False)]
