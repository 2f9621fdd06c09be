"""Differential testing at every size: an implementation against the oracle on generated inputs.

The fixed vectors hold at most a few distinct scores at large sizes, so a defect that appears
only above some size (scores binned into 1000 bins above 10^4 items, quantile bins above 1000
items, ties broken by input order only on long inputs, a special case for the vectors' own
sizes) passes them. Here the implementation is compared with the correctly rounded exact value
on inputs drawn by :mod:`prtheory.conformance.sampling` (many distinct scores, long tie blocks
with mixed labels, signed zeros, ±inf next to ±MAX, and weights of every kind), for the metrics
of :data:`METRICS`: average precision, the trapezoid PR area, the ROC area and its partial
area (the bound ``max_fpr`` of an input is 1, 0.5, 0.1 or 0.01 by its seed, :func:`bound`), the
PR curve, and the ranking metrics P@k, AP@k and R-precision (unweighted; the cutoff ``k`` of an
input is 1, 10, ``n // 3 + 1`` or ``n`` by its seed, :func:`cutoff`).

The plan (deterministic: a function of the seed alone, never of the machine's speed):

* *round 0* (:func:`round_specs`): every family at each size of :data:`SIZES` up to 1000, two
  families at 3162 and 10^4, one at each size above (31623: distinct scores, 10^5: tie blocks,
  316228: extreme scores, 10^6: rare positives), so that every structural defect (binning, tie
  order, special sizes) and the largest size are met at once;
* *the bulk* (:func:`bulk_specs`): :data:`PER_DECADE` inputs in each decade of sizes of
  :data:`DECADES`, the families in turn; sizes run over the whole decade where inputs are cheap
  (10 to 999 items) and sit at the decade's lowest size above (1000, 10^4, 10^5), where the
  cost is in the item count. The decades are interleaved, one input each in turn, so that a
  defect at any size is met early and the run stops there.

**The guarantee.** Whatever a defect is, if it makes the result wrong on at least a fraction
:data:`DEFECT_RATE` (1 %) of the inputs the generator draws at each size of a decade, each of
the decade's :data:`PER_DECADE` inputs meets it independently with probability at least 1 %, so
the full plan misses it with probability at most ``0.99^1375 = exp(1375 ln 0.99) = exp(-13.819)
= 9.96e-7 < 10^-6`` (:data:`MISS`); :data:`PER_DECADE` is the least count with that property,
``ceil(ln 10^-6 / ln 0.99) = ceil(1374.6)``. A ``budget`` (CPU seconds) cuts the bulk short; the
summary then states the bound each decade reached (:meth:`Outcome.bounds`). A defect confined to
sizes of one decade that the plan does not draw (say only at n = 537,211) is not covered; the
bulk's sizes are fixed so that the plan is reproducible.

The run stops at the first ``wrong`` input: the verdict cannot get worse, and the larger inputs
would only cost time.

A result *diverges* when it is farther from the exact value than rounding explains: more than
``ulps + 2n`` ulps of the precision the implementation declares (float64 unless it declares
float32; ``ulps`` the caller's tolerance; every coordinate of a curve): an implementation may
accumulate n counts or weights one by one, as a ``cumsum`` does, erring by up to about n ulps of
the sum. A different definition moves the value by far more: binning 10^5 distinct scores into
1000 bins moves AP by about 10^-4, some 10^12 float64 ulps. Each divergent input is shrunk
(:func:`shrink`): blocks of items are removed while the result still diverges, down to the
smallest failing input found within :data:`SHRINK_CALLS` calls. A shown divergence names the
conventions whose value it returned (:func:`conventions_giving`) and the mechanisms given to
:func:`run` whose prediction it is on both the drawn and the shrunk input
(:func:`mechanisms_giving`; a library's emulation is asked only on inputs of at most
:data:`NAMING_MAX` items, so past that size it is named on the shrunk input alone, and says so).
Two inputs, one of them a few items, cannot tell a cause from a rule that coincides there, so
each such mechanism, and each such convention (as the mechanism predicting its value,
:func:`convention_mechanisms`), is then asked on the further inputs of
:func:`confirmation_specs` (24 of 10 to 100 items, from the run's seed): where its prediction
differs from the expected value, the implementation must give it. A contradiction removes the
name and the divergence says which input contradicted it; a name that no further input confirms
or contradicts is *unconfirmed* (:mod:`prtheory.conformance.confirmation`). Only the divergent
implementation's calls on discriminating inputs cost, one per input at most for all the names
together, until each is contradicted or confirmed 3 times.

The reference is the correctly rounded float64 of the oracle's exact value, computed by
:mod:`prtheory`'s float metrics (``average_precision``, ``pr_auc(method="trapezoid")``,
``roc_auc`` (with ``max_fpr`` for the partial area, the oracle's exact
:func:`~prtheory.oracle.areas.partial_roc_auc` rounded), ``precision_recall_curve``), each equal
to the oracle's value rounded for every input (their tests compare them with the oracle, up to 10^6 items:
``tests/test_float_metrics_large.py``); the exact ``Fraction`` of 10^6 weighted items would cost
most of the run. The ranking metrics' references are the oracle's own ``Fraction``
(:mod:`prtheory.oracle.retrieval`, a count over ``k``, or a sum of at most ``k`` terms) rounded
by ``float``. The expected value under declared conventions comes from the same reference on
the input as the convention transforms it (:data:`TRANSFORMS`); a declared convention with no
transform here leaves the differential test not run, and says why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.conformance.classify import ulp_distance
from prtheory.conformance.confirmation import Confirmation, Probe, confirm
from prtheory.conformance.encoding import Value
from prtheory.conformance.external_mechanisms import AT_ANY_SIZE
from prtheory.conformance.metrics import METRICS as SPECS
from prtheory.conformance.metrics import (
    Alternative,
    Inputs,
    evaluate,
    scores_float32,
    sigmoid_on_logits,
    split_infinite_ties,
)
from prtheory.conformance.predictions import ANY, Mechanism, Raised, fits, marker_text, scalar
from prtheory.conformance.sampling import FAMILIES, Family, Sample, sample
from prtheory.conformance.vectors_io import Vector
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "BOUNDS",
    "CONFIRM_DRAWS",
    "CONFIRM_SEED",
    "CONFIRM_SIZES",
    "CUT_METRICS",
    "DECADES",
    "DEFAULT_SEED",
    "DEFECT_RATE",
    "KINDS",
    "METRICS",
    "MISS",
    "NAMING_MAX",
    "PER_DECADE",
    "SIZES",
    "Divergence",
    "Outcome",
    "Spec",
    "bound",
    "bulk_specs",
    "confirmation_specs",
    "convention_mechanisms",
    "conventions_giving",
    "cutoff",
    "describe",
    "diverges",
    "float32_valued",
    "kind_of",
    "mechanisms_giving",
    "reference",
    "round_specs",
    "run",
    "shrink",
    "unsupported_conventions",
]

#: the sizes of round 0, about 10^(1 + c/2) for c = 0..10
SIZES = (10, 32, 100, 316, 1000, 3162, 10_000, 31_623, 100_000, 316_228, 1_000_000)
#: the decades of sizes of the bulk, (lowest, highest) item count
DECADES = ((10, 99), (100, 999), (1000, 9999), (10_000, 99_999), (100_000, 1_000_000))
#: the bulk's sizes run over the whole decade up to this size, else sit at its lowest
SPREAD_UP_TO = 999
#: the guarantee: a defect on at least this fraction of a decade's inputs ...
DEFECT_RATE = 0.01
#: ... is missed with at most this probability
MISS = 1e-6
#: inputs per decade that give it: the least m with (1 - DEFECT_RATE)^m <= MISS (1375)
PER_DECADE = math.ceil(math.log(MISS) / math.log1p(-DEFECT_RATE))
DEFAULT_SEED = 20260
#: calls to the implementation a shrink may make
SHRINK_CALLS = 80
#: further inputs drawn to confirm the mechanisms a divergence names (:func:`confirmation_specs`)
CONFIRM_DRAWS = 24
#: their sizes, in turn: small, so that the implementation's calls cost little
CONFIRM_SIZES = (10, 32, 100)
#: their seeds follow ``seed + CONFIRM_SEED`` (the bulk's stay below ``seed + 6 * 10^6``)
CONFIRM_SEED = 10**7
#: the kinds of divergence, most severe first; the first input of each kind is shrunk and shown
KINDS = ("wrong", "crashed", "rejected-valid", "float32")
#: metrics with a correctly rounded reference fast enough for 10^6 items
METRICS = (
    "average_precision",
    "auc_trapezoid",
    "roc_auc",
    "partial_roc_auc",
    "pr_curve",
    "precision_at_k",
    "ap_at_k",
    "r_precision",
)
#: the metrics of :data:`METRICS` with a cutoff ``k`` (:func:`cutoff`)
CUT_METRICS = ("precision_at_k", "ap_at_k")
#: the partial ROC AUC's bounds ``max_fpr`` of the generated inputs, in turn by seed
#: (:func:`bound`): the whole area, a cut at a half, and cuts through the first steps
BOUNDS = (1.0, 0.5, 0.1, 0.01)


@dataclass(frozen=True)
class Spec:
    """One generated input: its seed, family and size (``sample(seed, family, n)``).

    Examples
    --------
    >>> from prtheory.conformance.differential import Spec
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> Spec(5, FAMILIES[1], 100).text()
    'sample(5, blocks, 100)'
    """

    seed: int
    family: Family
    n: int

    def text(self) -> str:
        """How to draw the input again: ``sample(seed, family, n)``."""
        return f"sample({self.seed}, {self.family.name}, {self.n})"


@dataclass(frozen=True)
class Divergence:
    """A divergent input (as drawn, and shrunk), with the expected and returned values.

    Examples
    --------
    A positive and a negative tied: the ROC area is 1/2; an implementation that counts a tie
    as 0 returns 0.0, 1022 * 2**52 = 4.60268e18 float64 ulps below 0.5 (0.0 is the integer 0,
    0.5 has the exponent field 1022 and a zero mantissa):

    >>> import numpy as np
    >>> from prtheory.conformance.differential import Divergence, Spec, describe
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> x = Inputs(np.array([0, 1]), np.array([0.25, 0.25]))
    >>> ulps = float(1022 * 2**52)
    >>> d = Divergence(Spec(1, FAMILIES[1], 2), 0.5, 0.0, ulps, x, 0.5, 0.0, ulps)
    >>> d.kind, d.shrunk_distance == int(np.float64(0.5).view(np.int64))
    ('wrong', True)
    >>> d.mechanisms, d.unconfirmed, d.confirmation.dropped
    ((), (), ())
    """

    spec: Spec
    expected: Any
    got: Any
    distance: float
    shrunk: Inputs
    shrunk_expected: Any
    shrunk_got: Any
    shrunk_distance: float
    kind: str = "wrong"
    #: the named conventions whose exact value, rounded, is the returned one on the inputs
    #: shown (:func:`conventions_giving`), and on which of them (``"both inputs"`` or ``"the
    #: shrunk input"``), less those a further input contradicted (``conventions_confirmation``)
    conventions: tuple[str, ...] = ()
    named_on: str = ""
    #: the mechanisms whose prediction is the returned result on both inputs
    #: (:func:`mechanisms_giving`)
    mechanisms: tuple[str, ...] = ()
    #: those whose prediction is the returned result on the shrunk input, not evaluated on the
    #: drawn one (more than :data:`NAMING_MAX` items, and not of
    #: :data:`~prtheory.conformance.external_mechanisms.AT_ANY_SIZE`)
    mechanisms_shrunk: tuple[str, ...] = ()
    #: the mechanisms fit only in float32 precision (a float64 implementation's wrong result:
    #: the mechanism computed in float32 arithmetic)
    mechanisms_float32: bool = False
    #: the named mechanisms asked on further inputs (:func:`confirmation_specs`): the inputs
    #: confirming each, and those contradicted, which ``mechanisms`` and ``mechanisms_shrunk``
    #: no longer hold
    confirmation: Confirmation = field(default_factory=Confirmation)
    #: the named conventions asked on the same further inputs, each as the mechanism whose
    #: prediction is its value (:func:`convention_mechanisms`): those contradicted are no longer
    #: in ``conventions``
    conventions_confirmation: Confirmation = field(default_factory=Confirmation)

    @property
    def unconfirmed(self) -> tuple[str, ...]:
        """The named mechanisms that no further input drawn confirmed or contradicted (their
        prediction was the expected value on each, or the implementation raised where it
        predicts a value)."""
        return self.confirmation.unconfirmed(self.mechanisms + self.mechanisms_shrunk)


@dataclass
class Outcome:
    """What a differential run did: the seed, the inputs per size, the bulk's inputs per decade,
    the CPU seconds, and every divergence (or why it could not run).

    Examples
    --------
    1375 inputs in the first decade bound the escape of a 1 % defect by 0.99**1375 =
    exp(1375 ln 0.99) = 9.96e-7:

    >>> from prtheory.conformance.differential import Outcome
    >>> out = Outcome("roc_auc", 1, samples={10: 8}, bulk={0: 1375})
    >>> out.ok, out.worst, out.bounds()[0][:3]
    (True, None, (10, 99, 1375))
    >>> out.guarantee()
    "a defect on 1 % of a decade's inputs escapes with probability <= 10-99: 1e-06"
    >>> Outcome("ap_at_k", 1, not_run="no reference").ok
    False
    """

    metric: str
    seed: int
    samples: dict[int, int] = field(default_factory=dict)
    #: inputs of the bulk run in each decade (index into :data:`DECADES`)
    bulk: dict[int, int] = field(default_factory=dict)
    #: the bulk was cut short by the CPU-time budget
    cut_short: bool = False
    #: round 0 was cut short by its CPU-time budget: the size of the first input not run
    round_cut: int | None = None
    cpu_seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)
    #: divergent inputs by kind (:data:`KINDS`)
    kinds: dict[str, int] = field(default_factory=dict)
    not_run: str | None = None
    float32: bool = False

    @property
    def diverging(self) -> int:
        """How many generated inputs diverged, of every kind."""
        return sum(self.kinds.values())

    @property
    def worst(self) -> str | None:
        """The most severe kind of divergence found (:data:`KINDS` order), or None."""
        return next((k for k in KINDS if self.kinds.get(k)), None)

    @property
    def ok(self) -> bool:
        """Whether the test ran, round 0 to its end, and no input diverged."""
        return self.not_run is None and self.round_cut is None and not self.diverging

    def bounds(self) -> list[tuple[int, int, int, float]]:
        """(lowest size, highest size, bulk inputs m, 0.99^m) per decade: the probability that
        a defect on 1 % of the decade's inputs escaped the inputs run (module docstring)."""
        return [
            (lo, hi, self.bulk.get(d, 0), (1 - DEFECT_RATE) ** self.bulk.get(d, 0))
            for d, (lo, hi) in enumerate(DECADES)
        ]

    def guarantee(self) -> str:
        """The bounds as text: 'a defect on 1 % of a decade's inputs escapes with probability
        at most ...' per decade run."""
        if self.round_cut is not None:
            return (
                f"round 0 cut short by its CPU budget: no input of {self.round_cut} items or more"
            )
        parts = [f"{lo}-{hi}: {p:.2g}" for lo, hi, m, p in self.bounds() if m]
        if not parts:
            return "no bulk inputs (round 0 only)"
        cut = " (cut short by the budget)" if self.cut_short else ""
        return f"a defect on 1 % of a decade's inputs escapes with probability <= {', '.join(parts)}{cut}"

    def summary(self) -> str:
        """One line: seed, samples per size, CPU time, verdict, guarantee; then each
        divergence."""
        if self.not_run is not None:
            return f"differential ({self.metric}): NOT RUN: {self.not_run}"
        head = (
            f"differential ({self.metric}, seed {self.seed}): {sum(self.samples.values())} "
            f"inputs of {min(self.samples, default=0)} to {max(self.samples, default=0)} items, "
            f"{self.cpu_seconds:.1f} s CPU: "
            f"{'OK' if self.ok else f'FAIL: {self.diverging} diverge ({self._kinds()})'}; "
            f"{self.guarantee()}"
        )
        return "\n".join([head, *(describe(d, self.float32) for d in self.divergences)])

    def _kinds(self) -> str:
        return ", ".join(f"{k} {self.kinds[k]}" for k in KINDS if self.kinds.get(k))


def kind_of(got: Any, want: Any, n: int, f32_ulps: int) -> str:
    """What a divergent result is: an exception (``rejected-valid`` for a ``ValueError``,
    ``crashed`` otherwise); ``float32`` for float32 values (as float32 arithmetic returns)
    within ``f32_ulps + 2n`` float32 ulps of the exact value; else ``wrong``. A float64 value is
    never excused as float32 rounding: on 31623 distinct scores, 1000 bins move AP by about
    1e-5, which float32 rounding of 31623 terms could also explain.

    Parameters
    ----------
    got : Any
        The divergent result: a number, a curve or
        :class:`~prtheory.conformance.predictions.Raised`.
    want : Any
        The expected value.
    n : int
        The input's item count.
    f32_ulps : int
        The float32 tolerance.

    Returns
    -------
    str
        One of :data:`KINDS`.

    Examples
    --------
    1/3 rounded to float32 is within float32 rounding of 1/3; 1/2 is not:

    >>> import numpy as np
    >>> from prtheory.conformance.differential import kind_of
    >>> from prtheory.conformance.predictions import Raised
    >>> kind_of(float(np.float32(1 / 3)), 1 / 3, 10, 16), kind_of(0.5, 1 / 3, 10, 16)
    ('float32', 'wrong')
    >>> kind_of(Raised("raised ValueError: one class"), 0.5, 10, 16)
    'rejected-valid'
    >>> kind_of(Raised("raised IndexError: index 0", deliberate=False), 0.5, 10, 16)
    'crashed'
    """
    if isinstance(got, Raised):
        return "rejected-valid" if got.deliberate else "crashed"
    if float32_valued(got) and distance(got, want, True) <= tolerance(n, 0, f32_ulps, True):
        return "float32"
    return "wrong"


def float32_valued(value: Any) -> bool:
    """Whether every number of a scalar or a curve is a float32 value (NaN included), as float32
    arithmetic returns; ``False`` for what is no number.

    Parameters
    ----------
    value : Any
        A result: a number, a curve (a dict of arrays) or
        :class:`~prtheory.conformance.predictions.Raised`.

    Returns
    -------
    bool
        Whether rounding each number to float32 leaves it unchanged.

    Examples
    --------
    0.5 and 2**-149 (float32's least subnormal) are float32 values, 0.1 is not (its float32
    is 0.100000001490116...):

    >>> import numpy as np
    >>> from prtheory.conformance.differential import float32_valued
    >>> float32_valued(0.5), float32_valued({"recall": np.array([0.5, 2.0**-149])})
    (True, True)
    >>> float32_valued(0.1), float32_valued(float(np.float32(0.1)))
    (False, True)
    """
    values = _coordinates(value)
    if values is None:
        return False
    with np.errstate(over="ignore"):
        return bool(np.all(np.isnan(values) | (values.astype(np.float32) == values)))


def _coordinates(value: Any) -> np.ndarray | None:
    """Every number of a scalar or a curve (a dict of arrays) as one float64 array, or None for
    something that is neither."""
    try:
        if isinstance(value, dict):
            parts = [np.asarray(value[k], dtype=np.float64).reshape(-1) for k in sorted(value)]
            return np.concatenate(parts) if parts else np.empty(0)
        return np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError, KeyError):
        return None


def describe(d: Divergence, float32: bool = False) -> str:
    """A divergence as text: the input drawn, the values, and the shrunk input.

    Parameters
    ----------
    d : Divergence
        The divergence.
    float32 : bool, default False
        Count float32 ulps (a float32 implementation).

    Returns
    -------
    str
        Two lines.

    Examples
    --------
    A positive and a negative tied (ROC area 1/2) on which 0.0 was returned, 1022 * 2**52
    = 4.60268e18 float64 ulps away (0.5 has the exponent field 1022 and a zero mantissa):

    >>> import numpy as np
    >>> from prtheory.conformance.differential import Divergence, Spec, describe
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> x = Inputs(np.array([0, 1]), np.array([0.25, 0.25]))
    >>> ulps = float(1022 * 2**52)
    >>> print(describe(Divergence(Spec(1, FAMILIES[1], 2), 0.5, 0.0, ulps, x, 0.5, 0.0, ulps)))
        wrong: sample(1, blocks, 2): expected 0.5, returned 0.0 (4.60268e+18 ulps)
          shrunk to 2 items: y_true=[0, 1], y_score=[0.25, 0.25]: expected 0.5, returned 0.0
          (4.60268e+18 ulps)
    """
    unit = "float32 ulps" if float32 else "ulps"
    x = d.shrunk
    inline = len(x.labels) <= 12
    shown = (
        f"y_true={x.labels.tolist()}, y_score={x.scores.tolist()}"
        + ("" if x.sample_weight is None else f", sample_weight={x.sample_weight.tolist()}")
        if inline
        else f"{len(x.labels)} items"
    )
    lines = _named_lines(
        ("named convention", "give"), ((d.conventions, d.named_on),), d.conventions_confirmation
    )
    mechanisms = (
        (d.mechanisms, "both inputs"),
        (d.mechanisms_shrunk, f"the shrunk input (the drawn one has over {NAMING_MAX} items)"),
    )
    f32 = " to float32 precision" if d.mechanisms_float32 else ""
    lines += _named_lines(("mechanism", "predict"), mechanisms, d.confirmation, f32)
    named = "".join(f"\n      {line}" for line in lines)
    return (
        f"    {d.kind}: {d.spec.text()}: expected {_text(d.expected)}, returned {_text(d.got)} "
        f"({d.distance:.6g} {unit})\n"
        f"      shrunk to {len(x.labels)} items: {shown}: expected {_text(d.shrunk_expected)}, "
        f"returned {_text(d.shrunk_got)} ({d.shrunk_distance:.6g} {unit}){named}"
    )


def _named_lines(
    words: tuple[str, str],
    named: tuple[tuple[tuple[str, ...], str], ...],
    c: Confirmation,
    precision: str = "",
) -> list[str]:
    """The names of one kind (``words``: the noun and the verb, "mechanism" and "predict")
    as text: for each ``(names, the inputs they were named on)`` those confirmed on further
    inputs and those unconfirmed (``c``), then each contradicted one; ``precision`` says where
    they fit in float32 alone."""
    (noun, verb), lines = words, []
    for found, on in named:
        for group in ([m for m in found if c.on(m)], [m for m in found if not c.on(m)]):
            if not group:
                continue
            one = len(group) == 1
            lo, hi = min(len(c.on(m)) for m in group), max(len(c.on(m)) for m in group)
            confirmed = (
                f"confirmed on {lo if lo == hi else f'{lo}-{hi}'} further "
                f"input{'' if hi == 1 else 's'} where {'it differs' if one else 'they differ'}"
                " from the expected value"
            )
            unconfirmed = (
                f"unconfirmed: none of the {c.drawn} further inputs drawn confirms or "
                f"contradicts {'it' if one else 'them'}"
            )
            lines.append(
                f"returned what the {noun}{'' if one else 's'} "
                + ", ".join(f"`{m}`" for m in group)
                + f" {verb}{'s' if one else ''}{precision}"
                + f", on {on}; {confirmed if lo else unconfirmed}"
            )
    return lines + [
        f"coincided with the {noun} `{x.mechanism}` on the shown inputs, but {x.input} "
        f"contradicts it: predicted {_prediction_text(x.predicted)}, returned {_text(x.returned)}"
        for x in c.contradicted
    ]


def _prediction_text(predicted: Any) -> str:
    """A prediction as text: a marker's meaning, a value's float64, a curve's coordinates."""
    marker = marker_text(predicted)
    if marker is not None:
        return marker
    if isinstance(predicted, dict):
        return _text({k: [v.float64 for v in values] for k, values in predicted.items()})
    return repr(predicted.float64 if isinstance(predicted, Value) else predicted)


def _text(value: Any) -> str:
    """A value as text: an exception's detail, a curve's coordinates (the first 6 of each),
    or the number."""
    if isinstance(value, Raised):
        return value.detail
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_head(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _head(values: Any) -> str:
    a = np.asarray(values, dtype=np.float64).reshape(-1)
    more = f", ... ({a.size} values)" if a.size > 6 else ""
    return "[" + ", ".join(repr(float(v)) for v in a[:6]) + more + "]"


# ------------------------------------------------------------------------------------------
# the plan


def round_specs(seed: int, families: tuple[Family, ...], max_n: int | None) -> list[Spec]:
    """The inputs of round 0 (module docstring), at most ``max_n`` items each; the seed of the
    ``i``-th input is ``seed + i``.

    Parameters
    ----------
    seed : int
        The seed of the first input.
    families : tuple of Family
        The families drawn.
    max_n : int or None
        The largest size (``None``: every size of :data:`SIZES`).

    Returns
    -------
    list of Spec
        The inputs in order.

    Examples
    --------
    Up to 32 items: sizes 10 and 32, every one of the 8 families at each, 16 inputs with seeds
    100 to 115:

    >>> from prtheory.conformance.differential import round_specs
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> specs = round_specs(100, FAMILIES, 32)
    >>> len(specs), specs[-1].seed, [s.n for s in specs].count(32)
    (16, 115, 8)
    """
    out: list[Spec] = []
    for c, n in enumerate(SIZES):
        if max_n is not None and n > max_n:
            break
        for f in _families_at(c, n, families):
            out.append(Spec(seed + len(out), f, n))
    return out


def _families_at(c: int, n: int, families: tuple[Family, ...]) -> list[Family]:
    """Every family up to 1000 items, two at 3162 and 10^4, one above (the ``c - 7``-th)."""
    count = len(families) if n <= 1000 else (2 if n <= 10_000 else 1)
    first = 0 if n <= 10_000 else c - 7
    return [families[(first + j) % len(families)] for j in range(min(count, len(families)))]


def bulk_specs(
    seed: int, families: tuple[Family, ...], per_decade: int, max_n: int | None
) -> list[Spec]:
    """The bulk (module docstring): ``per_decade`` inputs in each decade of :data:`DECADES`
    that ``max_n`` reaches, interleaved (one per decade in turn). The ``i``-th input of decade
    ``d`` has seed ``seed + 10^6 (d + 1) + i``, the family ``(i + d) mod len(families)`` and
    ``lo + 37 i mod (hi - lo + 1)`` items up to :data:`SPREAD_UP_TO` (37 is prime to 90 and
    900: every size of the decade in turn), else ``lo``.

    Parameters
    ----------
    seed : int
        The run's seed.
    families : tuple of Family
        The families, in turn.
    per_decade : int
        Inputs per decade.
    max_n : int or None
        The largest size: a decade whose lowest size is above it is left out.

    Returns
    -------
    list of Spec
        The inputs, one per decade in turn.

    Examples
    --------
    Two inputs in each of the decades 10-99 and 100-999 (both reach ``max_n = 150``): sizes
    10 and 10 + 37 = 47, then 100 and 137; the families alternate, shifted by the decade:

    >>> from prtheory.conformance.differential import bulk_specs
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> [(s.seed, s.family.name, s.n) for s in bulk_specs(0, FAMILIES[:2], 2, 150)]
    [(1000000, 'distinct', 10), (2000000, 'blocks', 100), (1000001, 'blocks', 47),
     (2000001, 'distinct', 137)]
    """
    decades = [(d, lo, hi) for d, (lo, hi) in enumerate(DECADES) if max_n is None or lo <= max_n]
    out: list[Spec] = []
    for i in range(per_decade):
        for d, lo, hi in decades:
            n = lo + (37 * i) % (hi - lo + 1) if hi <= SPREAD_UP_TO else lo
            out.append(Spec(seed + 10**6 * (d + 1) + i, families[(i + d) % len(families)], n))
    return out


def confirmation_specs(
    seed: int, families: tuple[Family, ...], large: int | None = None
) -> list[Spec]:
    """The further inputs on which the mechanisms a divergence names are confirmed or
    contradicted (:mod:`prtheory.conformance.confirmation`): :data:`CONFIRM_DRAWS` inputs, the
    ``j``-th with seed ``seed + CONFIRM_SEED + j``, the family ``j mod len(families)`` and
    ``CONFIRM_SIZES[j mod 3]`` items, so that both change from one input to the next (3 is
    prime to the 8 families of a weighted run and the 4 of an unweighted one: every pair comes
    up); then, for a mechanism asked at any size, one input of each family at ``large`` items
    (their seeds following).

    Parameters
    ----------
    seed : int
        The run's seed.
    families : tuple of Family
        The run's families.
    large : int or None, default None
        The size of the further large inputs (``None``: none).

    Returns
    -------
    list of Spec
        The inputs in order.

    Examples
    --------
    >>> from prtheory.conformance.differential import confirmation_specs
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> specs = confirmation_specs(5, FAMILIES[:2], large=5000)
    >>> [s.text() for s in specs[:4]]
    ['sample(10000005, distinct, 10)', 'sample(10000006, blocks, 32)',
     'sample(10000007, distinct, 100)', 'sample(10000008, blocks, 10)']
    >>> len(specs), [s.text() for s in specs[24:]]
    (26, ['sample(10000029, distinct, 5000)', 'sample(10000030, blocks, 5000)'])
    """
    base = seed + CONFIRM_SEED
    specs = [
        Spec(base + j, families[j % len(families)], CONFIRM_SIZES[j % len(CONFIRM_SIZES)])
        for j in range(CONFIRM_DRAWS)
    ]
    if large is not None:
        specs += [Spec(base + CONFIRM_DRAWS + i, f, large) for i, f in enumerate(families)]
    return specs


def decade_of(n: int) -> int:
    """The index in :data:`DECADES` of the decade holding ``n`` items."""
    return next(d for d, (lo, hi) in enumerate(DECADES) if lo <= n <= hi)


# ------------------------------------------------------------------------------------------
# the reference under declared conventions


def _rank_scores(order: np.ndarray) -> np.ndarray:
    """Distinct scores giving ``order`` (item indices, best first): -(position)."""
    s = np.empty(order.size, dtype=np.float64)
    s[order] = -np.arange(order.size, dtype=np.float64)
    return s


def _break_ties(key: Callable[[Inputs], np.ndarray]) -> Callable[[Inputs], Inputs]:
    """Ties broken item by item: by score (descending), then by ``key`` (ascending)."""

    def transform(x: Inputs) -> Inputs:
        s = np.asarray(x.scores, dtype=np.float64)
        order = np.lexsort((key(x), -s))
        return replace(x, y_score=_rank_scores(order))

    return transform


#: declared conventions the reference can follow, as transformations of the input
TRANSFORMS: dict[str, Callable[[Inputs], Inputs]] = {
    "ties=input-order": _break_ties(lambda x: np.arange(len(x.scores))),
    "ties=trec_eval": _break_ties(lambda x: -np.arange(len(x.scores))),
    "ties=optimistic": _break_ties(lambda x: -np.asarray(x.labels)),
    "ties=pessimistic": _break_ties(lambda x: np.asarray(x.labels)),
    "scores=float32": scores_float32,
    "sigmoid-on-logits": sigmoid_on_logits,
    "inf-ties=input-order": split_infinite_ties,
}
#: conventions that change no value of a valid input with both classes (the generated ones)
IRRELEVANT_PREFIXES = ("undefined=",)
#: the first points the reference can add (pr_curve, auc_trapezoid); the others have none
FIRST_POINTS = ("none", "sklearn", "spark")
#: applied in this order: score transforms before the tie rule that ranks the scores
_ORDER = ("sigmoid-on-logits", "scores=float32", "inf-ties=input-order")


def unsupported_conventions(metric: str, conventions: tuple[str, ...]) -> list[str]:
    """The declared conventions the reference cannot follow for ``metric``.

    Parameters
    ----------
    metric : str
        One of :data:`METRICS`.
    conventions : tuple of str
        The declared conventions.

    Returns
    -------
    list of str
        Those with no transform in :data:`TRANSFORMS`, not irrelevant to the generated inputs
        (``undefined=...``) and not a first point the curve references add.

    Examples
    --------
    >>> from prtheory.conformance.differential import unsupported_conventions
    >>> declared = ("ties=input-order", "undefined=sklearn", "first-point=sklearn")
    >>> unsupported_conventions("average_precision", declared)
    ['first-point=sklearn']
    >>> unsupported_conventions("pr_curve", declared)
    []
    """
    curve = metric in ("pr_curve", "auc_trapezoid")
    return [
        c
        for c in conventions
        if c not in TRANSFORMS
        and not c.startswith(IRRELEVANT_PREFIXES)
        and not (curve and c.removeprefix("first-point=") in FIRST_POINTS)
    ]


def reference(metric: str, x: Inputs, conventions: tuple[str, ...] = ()) -> Any:
    """The correctly rounded value of ``metric`` at ``x`` under ``conventions``: a float, or
    for ``pr_curve`` a dict of ``recall`` and ``precision`` arrays in decreasing-threshold order
    (raises :class:`~prtheory.errors.UndefinedMetricError` where it is 0/0).

    Parameters
    ----------
    metric : str
        One of :data:`METRICS`.
    x : Inputs
        The input.
    conventions : tuple of str
        The declared conventions (those of :data:`TRANSFORMS` and the first points are
        followed).

    Returns
    -------
    float or dict
        The correctly rounded value, or the curve.

    Raises
    ------
    InvalidInputError
        A metric outside :data:`METRICS`.
    UndefinedMetricError
        Where the metric is 0/0.

    Examples
    --------
    Labels 1, 0, 1 with the first two tied: AP with the tie grouped is
    1/2 * 1/2 + 1/2 * 2/3 = 7/12, with ties in input order (1 + 2/3)/2 = 5/6 (Python's
    division of two integers is correctly rounded):

    >>> import numpy as np
    >>> from prtheory.conformance.differential import reference
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.2]))
    >>> reference("average_precision", x) == 7 / 12
    True
    >>> reference("average_precision", x, ("ties=input-order",)) == 5 / 6
    True
    >>> reference("auprg", x)
    Traceback (most recent call last):
    prtheory.errors.InvalidInputError: metric: no differential reference for 'auprg'
    """
    if metric not in METRICS:
        raise InvalidInputError("metric", f"no differential reference for {metric!r}")
    ordered = sorted(
        (c for c in conventions if c in TRANSFORMS),
        key=lambda c: _ORDER.index(c) if c in _ORDER else len(_ORDER),
    )
    for c in ordered:
        x = TRANSFORMS[c](x)
    first = next(
        (c.removeprefix("first-point=") for c in conventions if c.startswith("first-point=")),
        "none",
    )
    return _REFERENCES[metric](x, first)


def _ap(x: Inputs, first: str) -> float:
    """AP (step area, ties grouped), ``prtheory.average_precision``."""
    from prtheory import average_precision

    return float(average_precision(x.labels, x.scores, sample_weight=x.sample_weight))


def _trapezoid(x: Inputs, first: str) -> float:
    """Trapezoids through every operating point from the first point ``first``."""
    from prtheory import pr_auc

    area = pr_auc(
        x.labels, x.scores, sample_weight=x.sample_weight, method="trapezoid", first_point=first
    )
    return float(area)  # a binary input: one area, not an array of them


def _roc(x: Inputs, first: str) -> float:
    """The ROC area, ties counting one half, ``prtheory.roc_auc``."""
    from prtheory import roc_auc

    return float(roc_auc(x.labels, x.scores, sample_weight=x.sample_weight))


def _partial_roc(x: Inputs, first: str) -> float:
    """McClish's standardised partial ROC area up to ``params["max_fpr"]``,
    ``prtheory.roc_auc(max_fpr=...)``."""
    from prtheory import roc_auc

    m = float(x.params["max_fpr"])
    return float(roc_auc(x.labels, x.scores, sample_weight=x.sample_weight, max_fpr=m))


def _curve(x: Inputs, first: str) -> dict[str, np.ndarray]:
    """(recall, precision) at every distinct score, decreasing: ``prtheory.precision_recall_
    curve`` reversed without its appended (0, 1); ``first`` = sklearn prepends (0, 1), spark
    (0, the first point's precision)."""
    from prtheory import precision_recall_curve

    p, r, _ = precision_recall_curve(x.labels, x.scores, sample_weight=x.sample_weight)
    recall, precision = r[-2::-1], p[-2::-1]
    if first != "none":
        start = 1.0 if first == "sklearn" else precision[0]
        recall, precision = np.r_[0.0, recall], np.r_[start, precision]
    return {"recall": recall, "precision": precision}


def _retrieval(name: str) -> Callable[[Inputs, str], float]:
    """The oracle's ``name`` (:mod:`prtheory.oracle.retrieval`, ties at the cutoff counted as
    expected), its exact ``Fraction`` rounded by ``float`` (correctly, in CPython)."""

    def reference(x: Inputs, first: str) -> float:
        from prtheory.oracle import retrieval

        args = () if name == "r_precision" else (int(x.params["k"]),)
        return float(getattr(retrieval, name)(x.labels, x.scores, *args))

    return reference


_REFERENCES: dict[str, Callable[[Inputs, str], Any]] = {
    "average_precision": _ap,
    "auc_trapezoid": _trapezoid,
    "roc_auc": _roc,
    "partial_roc_auc": _partial_roc,
    "pr_curve": _curve,
    "precision_at_k": _retrieval("precision_at_k"),
    "ap_at_k": _retrieval("ap_at_k"),
    "r_precision": _retrieval("r_precision"),
}


# ------------------------------------------------------------------------------------------
# comparing and shrinking


def tolerance(n: int, ulps: int, f32_ulps: int, float32: bool) -> int:
    """Ulps of rounding error allowed at ``n`` items, in the declared precision (module
    docstring)."""
    return (f32_ulps if float32 else ulps) + 2 * n


def distance(got: Any, want: Any, float32: bool) -> float:
    """ulps between a returned value and the expected one, the largest over a curve's
    coordinates (``inf`` for a non-number, a curve of another shape, or
    :class:`~prtheory.conformance.predictions.Raised`)."""
    if isinstance(got, Raised):
        return math.inf
    dtype = np.float32 if float32 else np.float64
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return math.inf
        worst = 0.0
        for key, values in want.items():
            g, w = _coordinates(got[key]), np.asarray(values, dtype=np.float64)
            if g is None or g.size != w.size:
                return math.inf
            differ = np.flatnonzero(g != w)  # NaN differs from everything, as in ulp_distance
            if differ.size and not float32:
                worst = max(worst, float(np.max(_ulps(g[differ], w[differ]))))
            for i in differ.tolist() if float32 else ():
                worst = max(worst, ulp_distance(float(g[i]), float(w[i]), dtype))
        return worst
    try:
        value = float(got)
    except (TypeError, ValueError):
        return math.inf
    return ulp_distance(value, want, dtype)


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float64 ulps between ``a`` and ``b`` element by element, as :func:`ulp_distance` counts
    them (the integer representations, negatives mirrored; ``inf`` where either is NaN): exact
    in int64 where both have one sign, in float64 (about 10^18 ulps or more) across 0."""
    mask = np.int64(0x7FFFFFFFFFFFFFFF)
    ia, ib = a.view(np.int64), b.view(np.int64)
    oa, ob = np.where(ia < 0, -(ia & mask), ia), np.where(ib < 0, -(ib & mask), ib)
    same = (oa < 0) == (ob < 0)
    with np.errstate(over="ignore"):
        exact = np.abs(np.where(same, oa - ob, 0)).astype(np.float64)
    across = np.abs(oa.astype(np.float64)) + np.abs(ob.astype(np.float64))
    return np.where(np.isnan(a) | np.isnan(b), np.inf, np.where(same, exact, across))


def diverges(distance_: float, n: int, ulps: int, f32_ulps: int, float32: bool) -> bool:
    """Farther from the exact value than rounding at ``n`` items explains.

    Parameters
    ----------
    distance_ : float
        The result's distance in ulps.
    n : int
        The input's item count.
    ulps, f32_ulps : int
        The float64 and float32 tolerances.
    float32 : bool
        A float32 implementation (``distance_`` in float32 ulps).

    Returns
    -------
    bool
        ``distance_ > ulps + 2 n`` (``f32_ulps`` for float32).

    Examples
    --------
    At 5 items the float64 tolerance 8 allows 8 + 2 * 5 = 18 ulps:

    >>> from prtheory.conformance.differential import diverges
    >>> diverges(18, 5, 8, 16, False), diverges(19, 5, 8, 16, False), diverges(19, 5, 8, 16, True)
    (False, True, False)
    """
    return distance_ > tolerance(n, ulps, f32_ulps, float32)


def _subset(x: Inputs, keep: np.ndarray) -> Inputs:
    """The items ``keep``; a cutoff ``k`` stays within them (a shrunk input never reaches
    past its last item, where the libraries differ for another reason)."""
    w = None if x.sample_weight is None else x.sample_weight[keep]
    params = x.params
    if "k" in params:
        params = {**params, "k": min(int(params["k"]), int(np.count_nonzero(keep)))}
    return replace(x, y_true=x.labels[keep], y_score=x.scores[keep], sample_weight=w, params=params)


def shrink(x: Inputs, failing: Callable[[Inputs], bool], calls: int = SHRINK_CALLS) -> Inputs:
    """A smaller input that is still ``failing``: blocks of items (halves, then quarters, ...)
    are removed while the result still fails, within ``calls`` calls of ``failing``; at least
    two items are kept.

    Parameters
    ----------
    x : Inputs
        A failing input.
    failing : callable
        ``Inputs -> bool``.
    calls : int
        The most calls of ``failing``.

    Returns
    -------
    Inputs
        The smallest failing input found (``x`` itself when no block can go).

    Examples
    --------
    Failing while the score 5 is there, from scores 0 to 7: the first half goes (4 to 7 left),
    then 6 and 7; a single item is never tried as an input:

    >>> import numpy as np
    >>> from prtheory.conformance.differential import shrink
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.zeros(8, dtype=int), np.arange(8.0))
    >>> shrink(x, lambda y: 5.0 in y.scores).scores.tolist()
    [4.0, 5.0]
    """
    chunk = len(x.labels) // 2
    while chunk >= 1 and calls > 0:
        start = 0
        while start < len(x.labels) and calls > 0:
            keep = np.full(len(x.labels), True)
            keep[start : start + chunk] = False
            candidate = _subset(x, keep)
            calls -= 1
            if len(candidate.labels) >= 2 and failing(candidate):
                x = candidate
            else:
                start += chunk
        chunk = min(chunk // 2, len(x.labels) // 2)
    return x


# ------------------------------------------------------------------------------------------
# the run


@dataclass(frozen=True)
class _Judge:
    """Calls the implementation on an input and compares with the reference."""

    metric: str
    call: Callable[[Inputs], Any]
    conventions: tuple[str, ...]
    ulps: int
    f32_ulps: int
    float32: bool
    mechanisms: tuple[Mechanism, ...] = ()
    #: the run's seed and families, from which the confirming inputs are drawn
    seed: int = DEFAULT_SEED
    families: tuple[Family, ...] = FAMILIES

    def expected(self, x: Inputs) -> Any:
        """The reference at ``x`` under the declared conventions, ``None`` where undefined."""
        try:
            return reference(self.metric, x, self.conventions)
        except (UndefinedMetricError, InvalidInputError):
            return None

    def compare(self, x: Inputs) -> tuple[float, Any, float] | None:
        """(expected, returned, distance), or ``None`` where the reference is undefined."""
        want = self.expected(x)
        if want is None:
            return None
        got = self.call(x)
        return want, got, distance(got, want, self.float32)

    def failing(self, x: Inputs, kind: str | None = None) -> bool:
        """Whether ``x`` diverges (with a result of ``kind``, when given)."""
        found = self.compare(x)
        if found is None or not self._diverges(found[2], len(x.labels)):
            return False
        return kind is None or kind_of(found[1], found[0], len(x.labels), self.f32_ulps) == kind

    def _diverges(self, d: float, n: int) -> bool:
        return diverges(d, n, self.ulps, self.f32_ulps, self.float32)

    def check(self, spec: Spec, shown: set[str]) -> tuple[str, Divergence | None] | None:
        """``None`` where ``spec``'s input agrees; else its kind (:func:`kind_of`) and, for the
        first input of a kind not in ``shown``, the shrunk :class:`Divergence`."""
        x = _inputs(sample(spec.seed, spec.family, spec.n), self.metric)
        found = self.compare(x)
        if found is None or not self._diverges(found[2], spec.n):
            return None
        kind = kind_of(found[1], found[0], spec.n, self.f32_ulps)
        if kind in shown:
            return kind, None
        small = shrink(x, lambda y: self.failing(y, kind))  # a wrong input stays wrong
        again = self.compare(small)
        assert again is not None  # shrink keeps only failing inputs
        names, on = self.named(x, found[1], small, again[1])
        both, unseen, f32 = self._fitting(kind, (x, found[1]), (small, again[1]))
        held, confirmation = self._confirm(names, both + unseen, spec.n, f32 or self.float32)
        names = tuple(c for c in names if c not in held.dropped)
        both, unseen = (
            tuple(m for m in g if m not in confirmation.dropped) for g in (both, unseen)
        )
        return kind, Divergence(
            spec,
            *found,
            small,
            *again,
            kind,
            names,
            on if names else "",
            both,
            unseen,
            f32,
            confirmation,
            held,
        )

    def _fitting(
        self, kind: str, drawn: tuple[Inputs, Any], shrunk: tuple[Inputs, Any]
    ) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
        """The mechanisms fitting the results on both inputs and on the shrunk one alone
        (:meth:`_matches`), and whether in float32 precision only: each input's predictions
        once, matched in the declared precision, then (a wrong result of a float64
        implementation may be a mechanism in float32 arithmetic) in float32."""
        both_inputs = tuple((x, got, self._predicted(x)) for x, got in (drawn, shrunk))
        both, unseen = self._matches(both_inputs, self.float32)
        loose = kind == "wrong" and not self.float32 and not (both or unseen)
        if loose:
            both, unseen = self._matches(both_inputs, True)
        return both, unseen, loose and bool(both or unseen)

    def _confirm(
        self, conventions: tuple[str, ...], mechanisms: tuple[str, ...], n: int, float32: bool
    ) -> tuple[Confirmation, Confirmation]:
        """The named ``conventions`` and ``mechanisms`` asked together (one call per input) on
        the inputs of :func:`confirmation_specs` (drawn at ``n`` items too, past
        :data:`NAMING_MAX`, for a mechanism of ``AT_ANY_SIZE``), in float32 precision where
        ``float32``, and so is a float32 value that a float64 implementation returns
        (:func:`~prtheory.conformance.confirmation.confirm`): what was found for each."""
        names = tuple(dict.fromkeys(conventions + mechanisms))
        if not names:
            return Confirmation(), Confirmation()
        large = n if n > NAMING_MAX and AT_ANY_SIZE.intersection(mechanisms) else None
        specs = confirmation_specs(self.seed, self.families, large)
        inputs = ((s.text(), _inputs(sample(s.seed, s.family, s.n), self.metric)) for s in specs)

        def within(m: int, got: Any) -> tuple[Any, int]:
            coarse = float32 or (got is not None and float32_valued(got))
            dtype = np.float32 if coarse else np.float64
            return dtype, tolerance(m, self.ulps, self.f32_ulps, coarse)

        probe = Probe(self.expected, self.call, self._asking(conventions), within)
        found = confirm(names, inputs, probe)
        return found.restricted(conventions), found.restricted(mechanisms)

    def _asking(
        self, conventions: tuple[str, ...]
    ) -> Callable[[Inputs, Sequence[str]], list[tuple[str, Any]]]:
        """The predictions at an input of the names asked there: a named convention's (its
        value, :func:`convention_mechanisms`, up to :data:`NAMING_MAX` items, as it was named),
        else the mechanism's (:meth:`_predicted`). A mechanism of a convention's name is that
        convention (:func:`~prtheory.conformance.mechanisms.mechanisms` lists each stored
        convention so), asked once."""
        pool = [m for m in convention_mechanisms(self.metric) if m.name in conventions]

        def predicted(x: Inputs, names: Sequence[str]) -> list[tuple[str, Any]]:
            small = len(x.labels) <= NAMING_MAX
            asked = [m for m in pool if small and m.name in names]
            others = [m for m in names if m not in conventions]
            return _predictions(self.metric, asked, x) + self._predicted(x, others)

        return predicted

    def _predicted(self, x: Inputs, names: Sequence[str] | None = None) -> list[tuple[str, Any]]:
        """The predictions at ``x`` of the mechanisms asked there (of ``names`` alone, where
        given): those of :data:`~prtheory.conformance.external_mechanisms.AT_ANY_SIZE` at
        every size, the others (emulations, oracle values of transformed inputs) up to
        :data:`NAMING_MAX` items."""
        small = len(x.labels) <= NAMING_MAX
        usable = [
            m
            for m in self.mechanisms
            if (small or m.name in AT_ANY_SIZE) and (names is None or m.name in names)
        ]
        return _predictions(self.metric, usable, x)

    def _matches(
        self, inputs: tuple[tuple[Inputs, Any, list[tuple[str, Any]]], ...], float32: bool
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Of the drawn and the shrunk input's ``(input, result, predictions)``: the mechanisms
        predicting the result on both, and those predicting it on the shrunk one, not asked on a
        drawn one of more than :data:`NAMING_MAX` items (only ``AT_ANY_SIZE``'s are); matched
        in float32 precision where ``float32``."""
        dtype = np.float32 if float32 else np.float64
        drawn, shrunk = (
            _matching(
                predicted, got, (dtype, tolerance(len(x.labels), self.ulps, self.f32_ulps, float32))
            )
            for x, got, predicted in inputs
        )
        both = tuple(m for m in shrunk if m in drawn)
        if len(inputs[0][0].labels) <= NAMING_MAX:
            return both, ()
        return both, tuple(m for m in shrunk if m not in AT_ANY_SIZE)

    def named(
        self, x: Inputs, got: Any, small: Inputs, small_got: Any
    ) -> tuple[tuple[str, ...], str]:
        """The conventions giving the returned values on the drawn and the shrunk input (on
        the shrunk one alone where the drawn one has more than :data:`NAMING_MAX` items), and
        which inputs that is; none on an input of more than :data:`NAMING_MAX` items."""
        if len(small.labels) > NAMING_MAX:
            return (), ""
        names = conventions_giving(self.metric, small, small_got, self._tolerance(small))
        if len(x.labels) > NAMING_MAX:
            return names, "the shrunk input" if names else ""
        both = conventions_giving(self.metric, x, got, self._tolerance(x))
        names = tuple(n for n in names if n in both)
        return names, "both inputs" if names else ""

    def _tolerance(self, x: Inputs) -> Callable[[float], bool]:
        return lambda d: not self._diverges(d, len(x.labels))


#: the largest input on which :func:`conventions_giving` evaluates the named conventions (each
#: an exact value: a weighted input of 10^4 items can take a second)
NAMING_MAX = 1000


def conventions_giving(
    metric: str, x: Inputs, got: Any, close: Callable[[float], bool]
) -> tuple[str, ...]:
    """The named conventions of a scalar ``metric`` (its alternatives in
    :data:`prtheory.conformance.metrics.METRICS`, as the stored vectors name them) whose exact
    value at ``x``, correctly rounded, is ``close`` to ``got`` (``close(ulps)``: within the
    tolerance); none for a curve or a result that is no number.

    Parameters
    ----------
    metric : str
        A metric of :data:`METRICS`.
    x : Inputs
        The input.
    got : Any
        What the implementation returned.
    close : callable
        ``float -> bool``: whether a distance in ulps is within the tolerance.

    Returns
    -------
    tuple of str
        The names, in the metric's order.

    Examples
    --------
    Labels 1, 0 tied: AP 1/2 with the tie grouped; 1.0 is what ranking the tie in input order
    (or optimistically) gives:

    >>> import numpy as np
    >>> from prtheory.conformance.differential import conventions_giving
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([1, 0]), np.array([0.5, 0.5]))
    >>> names = conventions_giving("average_precision", x, 1.0, lambda d: d <= 8)
    >>> "ties=input-order" in names, "ties=pessimistic" in names
    (True, False)
    """
    if SPECS[metric].kind != "scalar" or isinstance(got, Raised | dict):
        return ()
    values = ((a.name, _convention_value(metric, x, a)) for a in SPECS[metric].alternatives)
    return tuple(n for n, want in values if want is not None and close(distance(got, want, False)))


def convention_mechanisms(metric: str) -> list[Mechanism]:
    """The named conventions of a scalar ``metric`` (those :func:`conventions_giving` names) as
    mechanisms: each predicts the exact value under it (the oracle's, on the input as the
    convention transforms it, with its options), correctly rounded, and nothing where that
    value is undefined. So a named convention is confirmed on further inputs as a mechanism is
    (:mod:`prtheory.conformance.confirmation`). None for a curve.

    Parameters
    ----------
    metric : str
        A metric of :data:`METRICS`.

    Returns
    -------
    list of Mechanism
        One per alternative of the metric, in its order.

    Examples
    --------
    Labels 1, 0, 1 with the first two tied: optimistic ties put the positive first, AP
    (1 + 2/3)/2 = 5/6; pessimistic ties the negative, (1/2 + 2/3)/2 = 7/12:

    >>> import numpy as np
    >>> from prtheory.conformance.differential import convention_mechanisms
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.2]))
    >>> v = Vector("average_precision", 0, "", (), x, "valid", None, {}, None)
    >>> named = {m.name: m for m in convention_mechanisms("average_precision")}
    >>> [named[c].predict(v).float64 == f for c, f in
    ...  (("ties=optimistic", 5 / 6), ("ties=pessimistic", 7 / 12))]
    [True, True]
    >>> convention_mechanisms("pr_curve")
    []
    """
    spec = SPECS[metric]
    if spec.kind != "scalar":
        return []

    def predictor(alt: Alternative) -> Callable[[Vector], Any]:
        def predict(v: Vector) -> Any:
            value = _convention_value(metric, v.inputs, alt)
            return None if value is None else scalar(value)

        return predict

    return [Mechanism(a.name, f"the {a.name} convention", predictor(a)) for a in spec.alternatives]


def _convention_value(metric: str, x: Inputs, alt: Alternative) -> float | None:
    """The exact value of ``metric`` at ``x`` under the convention ``alt``, correctly rounded;
    ``None`` where it is undefined (or the input invalid) under it."""
    try:
        value = evaluate(metric, x, alt)  # exact, or (mpf, correctly rounded float)
    except (UndefinedMetricError, InvalidInputError, ZeroDivisionError):
        return None
    return value[1] if isinstance(value, tuple) else float(Fraction(value))


def mechanisms_giving(
    metric: str,
    mechanisms: Sequence[Mechanism],
    x: Inputs,
    got: Any,
    within: Callable[[int], tuple[Any, int]],
) -> tuple[str, ...]:
    """The ``mechanisms`` whose prediction at the generated input ``x`` (a valid vector of
    ``metric`` holding it) is the result ``got``, within ``within(n)`` (dtype, ulps) at ``n``
    items; a mechanism that says nothing there (``None``) or that predicts any number is not
    named. Each given is evaluated: :func:`run` asks those of
    :data:`~prtheory.conformance.external_mechanisms.AT_ANY_SIZE` (one pass over the items) at
    every size and the others up to :data:`NAMING_MAX` items.

    Parameters
    ----------
    metric : str
        A metric of :data:`METRICS`.
    mechanisms : sequence of Mechanism
        The mechanisms that may name the result.
    x : Inputs
        The input.
    got : Any
        What the implementation returned (or :class:`Raised`).
    within : callable
        ``n -> (dtype, ulps)``: the tolerance of a match at ``n`` items.

    Returns
    -------
    tuple of str
        The names, in the order given.

    Examples
    --------
    A mechanism predicting NaN where there are more negatives than positives names a NaN
    result there, and nothing at one positive and one negative, where it predicts nothing:

    >>> import numpy as np
    >>> from prtheory.conformance.differential import mechanisms_giving
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.predictions import NAN, Mechanism
    >>> def predict(v):
    ...     y = v.inputs.labels
    ...     return NAN if (y == 0).sum() > (y == 1).sum() else None
    >>> skew = Mechanism("nan-when-skewed", "NaN beyond one negative per positive", predict)
    >>> within = lambda n: (np.float64, 8 + 2 * n)
    >>> x = Inputs(np.array([1, 0, 0]), np.array([0.5, 0.25, 0.75]))
    >>> mechanisms_giving("roc_auc", [skew], x, float("nan"), within)
    ('nan-when-skewed',)
    >>> mechanisms_giving("roc_auc", [skew], x, 0.5, within)
    ()
    >>> balanced = Inputs(np.array([1, 0]), np.array([0.5, 0.25]))
    >>> mechanisms_giving("roc_auc", [skew], balanced, float("nan"), within)
    ()
    """
    return _matching(_predictions(metric, mechanisms, x), got, within(len(x.labels)))


def _predictions(metric: str, mechanisms: Sequence[Mechanism], x: Inputs) -> list[tuple[str, Any]]:
    """``(name, prediction)`` of each of ``mechanisms`` that predicts a result at ``x`` (a
    valid vector of ``metric`` holding it): not ``None``, not any number."""
    v = Vector(metric, 0, "generated input", (), x, "valid", None, {}, None)
    out = []
    for m in mechanisms:
        want = m.predict(v)
        if want is not None and want is not ANY:
            out.append((m.name, want))
    return out


def _matching(
    predicted: list[tuple[str, Any]], got: Any, tolerance: tuple[Any, int]
) -> tuple[str, ...]:
    """The names whose prediction ``got`` fits within ``tolerance`` (dtype, ulps)."""
    return tuple(name for name, want in predicted if fits(got, want, tolerance, False))


def _inputs(s: Sample, metric: str) -> Inputs:
    params: dict[str, Any] = {}
    if metric in CUT_METRICS:
        params = {"k": cutoff(s.seed, s.n)}
    elif metric == "partial_roc_auc":
        params = {"max_fpr": bound(s.seed)}
    return Inputs(s.y_true, s.y_score, s.sample_weight, params)


def cutoff(seed: int, n: int) -> int:
    """The cutoff ``k`` of a generated input of ``n`` items for the metrics of
    :data:`CUT_METRICS`: 1, 10, ``n // 3 + 1`` or ``n``, by the input's seed (``n >= 10``, so
    ``k <= n``: a cutoff past the last item is the fixed vectors' business).

    Parameters
    ----------
    seed : int
        The input's seed.
    n : int
        Its number of items.

    Returns
    -------
    int
        ``k``.

    Examples
    --------
    >>> from prtheory.conformance.differential import cutoff
    >>> [cutoff(seed, 1000) for seed in range(4)]
    [1, 10, 334, 1000]
    """
    return (1, 10, n // 3 + 1, n)[seed % 4]


def bound(seed: int) -> float:
    """The bound ``max_fpr`` of a generated input of the partial ROC AUC: the ``seed mod 4``-th
    of :data:`BOUNDS`.

    Parameters
    ----------
    seed : int
        The input's seed.

    Returns
    -------
    float
        ``max_fpr``.

    Examples
    --------
    >>> from prtheory.conformance.differential import bound
    >>> [bound(seed) for seed in range(5)]
    [1.0, 0.5, 0.1, 0.01, 1.0]
    """
    return BOUNDS[seed % len(BOUNDS)]


def _check_specs(
    judge: _Judge, specs: list[Spec], out: Outcome, deadline: float | None
) -> Spec | None:
    """Check ``specs`` in order into ``out``, stopping at the first ``wrong`` result (the most
    severe kind: the verdict cannot change, and the larger inputs would only cost time) or once
    ``time.process_time()`` passes ``deadline``. A crash, a rejection or a float32 value does not
    stop the run: an implementation that rejects ±inf (met among the first inputs) and bins
    its scores above 10^4 items is wrong, and only the larger inputs show it. Returns the
    first input not run for want of time, or None."""
    for spec in specs:
        if deadline is not None and time.process_time() > deadline:
            return spec
        out.samples[spec.n] = out.samples.get(spec.n, 0) + 1
        found = judge.check(spec, {d.kind for d in out.divergences})
        if found is not None:
            out.kinds[found[0]] = out.kinds.get(found[0], 0) + 1
            if found[1] is not None:
                out.divergences.append(found[1])
            if found[0] == "wrong":
                return None
    return None


def _not_run(metric: str, conventions: tuple[str, ...]) -> str | None:
    """Why ``metric`` under ``conventions`` has no reference here, or ``None``."""
    if metric not in METRICS:
        return f"no exact reference fast enough for {metric!r} at 10^6 items"
    blocked = unsupported_conventions(metric, conventions)
    return f"no reference under the declared {blocked}" if blocked else None


def run(
    metric: str,
    call: Callable[[Inputs], Any],
    *,
    conventions: tuple[str, ...] = (),
    weighted: bool = True,
    seed: int = DEFAULT_SEED,
    per_decade: int = PER_DECADE,
    budget: float | None = None,
    max_n: int | None = None,
    ulps: int = 8,
    f32_ulps: int = 16,
    float32: bool = False,
    mechanisms: Sequence[Mechanism] = (),
    round_budget: float | None = None,
) -> Outcome:
    """Compare ``call`` (``Inputs -> value``, never raising: it returns
    :class:`~prtheory.conformance.predictions.Raised` instead) with the reference on round 0,
    then on ``per_decade`` inputs of each decade (the bulk; 0: round 0 alone), stopping at the
    first wrong result, once ``round_budget`` CPU seconds are spent in round 0 (the rest of the
    run is then not run: :attr:`Outcome.round_cut`), or once ``budget`` CPU seconds are spent
    in the bulk.

    Parameters
    ----------
    metric : str
        One of :data:`METRICS` (else the outcome says it was not run).
    call : callable
        ``Inputs -> value``.
    conventions, weighted, seed, per_decade, budget, max_n, ulps, f32_ulps, float32, mechanisms
        The declared conventions; whether it takes sample weights (``False`` leaves out the
        weighted families); the plan's seed; bulk inputs per decade; CPU seconds for the bulk;
        the largest input; the float64 and float32 tolerances; a float32 implementation; the
        mechanisms that may name a divergence (:func:`mechanisms_giving`, module docstring).
    round_budget : float, optional
        CPU seconds for round 0 (checked between inputs; ``None``: no limit).

    Returns
    -------
    Outcome
        What the run found.

    Examples
    --------
    The ROC area over the pairs (integer counts, one correctly rounded division) passes round 0
    up to 32 items; counting a tie as 0 fails, shrunk to one tied pair (1/2 expected, 0 given):

    >>> import numpy as np
    >>> def roc_auc(x, tie=0.5):  # the pairs' definition; a tie counts ``tie``
    ...     y, s = np.asarray(x.labels), np.asarray(x.scores)
    ...     p, n = s[y == 1][:, None], s[y == 0][None, :]
    ...     return float(((p > n) + tie * (p == n)).sum() / (p.size * n.size))
    >>> from prtheory.conformance.differential import run
    >>> out = run("roc_auc", roc_auc, weighted=False, per_decade=0, max_n=32)
    >>> out.ok, sum(out.samples.values())
    (True, 8)
    >>> out = run("roc_auc", lambda x: roc_auc(x, tie=0.0), weighted=False, per_decade=0, max_n=32)
    >>> d = out.divergences[0]
    >>> out.ok, d.kind, d.shrunk.labels.size, d.shrunk_expected, d.shrunk_got
    (False, 'wrong', 2, 0.5, 0.0)
    """
    out = Outcome(metric, seed, float32=float32, not_run=_not_run(metric, conventions))
    if out.not_run is not None:
        return out
    families = tuple(f for f in FAMILIES if weighted or f.weights == "none")
    judge = _Judge(
        metric, call, conventions, ulps, f32_ulps, float32, tuple(mechanisms), seed, families
    )
    start = time.process_time()
    round_deadline = None if round_budget is None else start + round_budget
    cut = _check_specs(judge, round_specs(seed, families, max_n), out, round_deadline)
    out.round_cut = None if cut is None else cut.n
    if "wrong" not in out.kinds and cut is None:
        deadline = None if budget is None else start + budget
        _run_bulk(judge, bulk_specs(seed, families, per_decade, max_n), out, deadline)
    out.cpu_seconds = time.process_time() - start
    return out


def _run_bulk(judge: _Judge, bulk: list[Spec], out: Outcome, deadline: float | None) -> None:
    """The bulk's inputs into ``out``, counted per decade, until ``deadline``."""
    before = sum(out.samples.values())
    out.cut_short = _check_specs(judge, bulk, out, deadline) is not None
    for spec in bulk[: sum(out.samples.values()) - before]:
        d = decade_of(spec.n)
        out.bulk[d] = out.bulk.get(d, 0) + 1
