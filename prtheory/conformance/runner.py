"""Run every adapter's implementations over every vector of their metric and classify each result;
then each implementation of a metric with generated inputs (:mod:`prtheory.conformance.differential`)
over one round of them (:func:`run_differential`: a fixed plan, so the verdict does not depend on
the machine's speed).

Besides the alternatives stored in the vectors, the runner asks the oracle for conventions that
depend on how an implementation is called: a sigmoid decided separately for each ``update()``
batch (``sigmoid-per-batch(k)``), and binned thresholds (``binned(n thresholds)``: every score
replaced by the largest threshold not above it, after the sigmoid for a library that applies one).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import traceback
import warnings
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from prtheory.conformance import differential as diff
from prtheory.conformance.adapters import (
    ADAPTERS,
    Implementation,
    LibraryStatus,
    Unsupported,
    implementations,
    status,
)
from prtheory.conformance.classify import (
    AdapterFault,
    Outcome,
    Verdict,
    classify,
    without_machine_details,
)
from prtheory.conformance.external import ExternalCrash, ExternalRejection
from prtheory.conformance.mechanisms import mechanisms
from prtheory.conformance.metrics import Alternative, Inputs, evaluate, sigmoid_on_logits
from prtheory.conformance.predictions import Mechanism, Raised
from prtheory.conformance.vectors_io import Vector, load
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "PLANS",
    "DifferentialRow",
    "Row",
    "Run",
    "call_pattern_mechanisms",
    "error_of",
    "extra_alternatives",
    "from_library",
    "run",
    "run_differential",
    "run_implementation",
]


@dataclass(frozen=True)
class Row:
    """One implementation's verdict on one vector: what it returned (``value``, or ``error``:
    the exception's class name, message and whether it is a ``ValueError``), the warnings it
    gave, the conventions it claims and the oracle's values under its call pattern (``extra``,
    :func:`extra_alternatives`).

    Examples
    --------
    ``ap_min`` with 3 positives and 5 negatives: the worst ranking puts the negatives first,
    AP = (1/6 + 2/7 + 3/8)/3 = (28 + 48 + 63)/168/3 = 139/504:

    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.classify import classify
    >>> from prtheory.conformance.runner import Row, run_implementation
    >>> from prtheory.conformance.vectors_io import load
    >>> vector = next(v for v in load(["ap_min"]) if v.inputs.params == {"pos": 3, "neg": 5})
    >>> impl = Implementation("mine", "worst AP", "ap_min", lambda x: 139 / 504)
    >>> outcome = run_implementation(impl, vector)
    >>> row = Row("mine", impl.name, impl.metric, vector, classify(vector, outcome), outcome.value)
    >>> row.verdict.category, row.error
    ('agrees', None)
    """

    library: str
    implementation: str
    metric: str
    vector: Vector
    verdict: Verdict
    value: Any = None
    warnings: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    #: the oracle's values under the call-pattern conventions of the implementation (batches,
    #: bins), by name: the predictions of those mechanisms
    extra: dict[str, Any] = field(default_factory=dict)
    #: the exception the implementation raised: (class name, message, is a ValueError)
    error: tuple[str, str, bool] | None = None


def error_of(outcome: Outcome) -> tuple[str, str, bool] | None:
    """(class name, message without machine paths, is a ValueError) of the exception in
    ``outcome``, if any.

    Parameters
    ----------
    outcome : Outcome
        What an implementation did.

    Returns
    -------
    tuple of (str, str, bool) or None
        The exception's class name, its message without the directories of this machine (an
        installed package's directory, or an absolute directory under ``/home``, ``/tmp``,
        ``/usr``, ...) and without a logger's time of day, and whether it is a ``ValueError`` (a deliberate rejection); None when
        it raised nothing.

    Examples
    --------
    >>> from prtheory.conformance.classify import Outcome
    >>> from prtheory.conformance.runner import error_of
    >>> error_of(Outcome(error=ValueError("y_true has one class")))
    ('ValueError', 'y_true has one class', True)
    >>> error_of(Outcome(error=OSError("/usr/lib/python3/dist-packages/torch/x.so: bad ELF")))
    ('OSError', 'torch/x.so: bad ELF', False)
    >>> error_of(Outcome(error=RuntimeError("[19:54:47] /workspace/src/data/data.cc:576: w < 0")))
    ('RuntimeError', '/workspace/src/data/data.cc:576: w < 0', False)
    >>> error_of(Outcome(value=0.5)) is None
    True
    """
    err = outcome.error
    if err is None:
        return None
    return (type(err).__name__, without_machine_details(str(err)), isinstance(err, ValueError))


@dataclass(frozen=True)
class DifferentialRow:
    """One implementation's differential test: its verdict (``agrees``, ``wrong``, ``float32``,
    ``rejected-valid``, ``crashed``, ``timeout``, or ``unsupported`` where it could not run) and
    what it did (``None`` when it never finished).

    Examples
    --------
    The isolated runner records a test that ran out of time without an outcome:

    >>> from prtheory.conformance.classify import Verdict
    >>> from prtheory.conformance.runner import DifferentialRow
    >>> row = DifferentialRow("mine", "ap", "average_precision", (),
    ...                       Verdict("timeout", "not run (time)"))
    >>> row.verdict.category, row.outcome is None
    ('timeout', True)
    """

    library: str
    implementation: str
    metric: str
    claims: tuple[str, ...]
    verdict: Verdict
    outcome: diff.Outcome | None = None


@dataclass(frozen=True)
class Run:
    """Every library's status and results; ``cpu`` holds CPU seconds by library (start-up and
    vectors) where the run measured them.

    Examples
    --------
    >>> from prtheory.conformance.runner import Run
    >>> done = Run([], [], {"mylib": "ModuleNotFoundError: No module named 'mylib'"})
    >>> done.differential, done.cpu
    ([], {})
    """

    statuses: list[LibraryStatus]
    rows: list[Row]
    import_errors: dict[str, str]
    differential: list[DifferentialRow] = field(default_factory=list)
    cpu: dict[str, dict[str, float]] = field(default_factory=dict)


def _quantise(grid: tuple[float, ...], x: Inputs) -> Inputs:
    g = np.asarray(grid, dtype=np.float64)
    s = np.asarray(x.y_score, dtype=np.float64)
    idx = np.searchsorted(g, s, side="right") - 1
    q = np.where(idx >= 0, g[np.clip(idx, 0, None)], g[0] - 1.0)
    return replace(x, y_score=q)


def extra_alternatives(impl: Implementation, vector: Vector) -> dict[str, Any]:
    """Oracle values under the call-pattern conventions of ``impl`` (batches, bins).

    A library that applies a sigmoid and is fed in ``impl.batches`` batches gets
    ``sigmoid-per-batch(k)``; one that bins scores on the thresholds ``impl.binned`` gets
    ``binned(n thresholds)`` (every score replaced by the largest threshold not above it, below
    the grid by one less than its lowest), with the sigmoid first where it applies one, and for
    AP the variant where an item below the grid is never predicted positive yet counts among
    the positives.

    Parameters
    ----------
    impl : Implementation
        The implementation, with its conventions, batches and bins.
    vector : Vector
        A test vector.

    Returns
    -------
    dict of str to Value
        Convention name -> the oracle's value; empty for an invalid vector, one without a
        ranking, or an implementation without batches or bins.

    Examples
    --------
    AP of ``1 0 1 1 0 0 1 0`` scored 0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, binned on the one
    threshold 0.5: the first six items tie at 0.5 (3 positives), the last two fall below
    (one positive). Binned, AP = precision 3/6 over recall 3/4 and 4/8 over the last 1/4:
    1/2. With the item below the grid never predicted positive, the recall stops at 3/4:
    1/2 * 3/4 = 3/8.

    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.runner import extra_alternatives
    >>> from prtheory.conformance.vectors_io import load
    >>> vector = next(load(["average_precision"]))
    >>> vector.inputs.y_true.tolist(), vector.inputs.y_score.tolist()
    ([1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3])
    >>> impl = Implementation("mine", "binned AP", "average_precision", None, binned=(0.5,))
    >>> {name: value.exact for name, value in extra_alternatives(impl, vector).items()}
    {'binned(1 thresholds)': Fraction(1, 2), 'binned(1 thresholds)+below-grid-never-positive': Fraction(3, 8)}
    """
    out: dict[str, Any] = {}
    for alt in _call_patterns(impl):
        value = _value_under(alt, vector)
        if value is not None:
            out[alt.name] = value
    if impl.binned is not None and vector.metric == "average_precision":
        value = _below_grid_value(impl.binned, vector)
        if value is not None:
            out[_below_grid_name(impl.binned)] = value
    return out


def _value_under(alt: Alternative, vector: Vector) -> Any:
    """The oracle's value of a legal ``vector`` under ``alt`` (``None``: invalid, no ranking,
    or undefined there)."""
    from prtheory.conformance.encoding import decode_outcome, encode_outcome

    if vector.result == "invalid" or vector.inputs.y_score is None:
        return None
    try:
        value = evaluate(vector.metric, vector.inputs, alt)
    except (UndefinedMetricError, InvalidInputError):
        return None
    return decode_outcome(encode_outcome(value))


def _below_grid_value(grid: tuple[float, ...], vector: Vector) -> Any:
    """:func:`_binned_below_grid_dropped` of a legal ``vector``, encoded (``None`` where it
    says nothing)."""
    from prtheory.conformance.encoding import decode_outcome, encode_outcome

    if vector.result == "invalid" or vector.inputs.y_score is None:
        return None
    value = _binned_below_grid_dropped(grid, vector.inputs)
    return None if value is None else decode_outcome(encode_outcome(value))


def _below_grid_name(grid: tuple[float, ...]) -> str:
    return f"binned({len(grid)} thresholds)+below-grid-never-positive"


def _call_patterns(impl: Implementation) -> list[Alternative]:
    """The conventions of how ``impl`` is called (batches, bins), as the oracle's alternatives."""
    candidates: list[Alternative] = []
    sig = "sigmoid-on-logits" in impl.conventions
    if impl.batches > 1 and sig:
        candidates.append(
            Alternative(
                f"sigmoid-per-batch({impl.batches})",
                {},
                functools.partial(sigmoid_on_logits, batches=impl.batches),
            )
        )
    if impl.binned is not None:
        n = len(impl.binned)
        quant = functools.partial(_quantise, impl.binned)
        candidates.append(Alternative(f"binned({n} thresholds)", {}, quant))
        if sig:
            candidates.append(
                Alternative(
                    f"sigmoid-on-logits+binned({n} thresholds)",
                    {},
                    lambda x: quant(sigmoid_on_logits(x)),
                )
            )
    return candidates


def call_pattern_mechanisms(impl: Implementation) -> list[Mechanism]:
    """The conventions of :func:`extra_alternatives` as mechanisms, so that a divergence on
    generated inputs (:mod:`prtheory.conformance.differential`) is named by the bins or batches
    an implementation is called with, as a stored vector's is.

    Parameters
    ----------
    impl : Implementation
        The implementation, with its batches and bins.

    Returns
    -------
    list of Mechanism
        One per call-pattern convention of ``impl`` (none without batches or bins), each
        predicting the oracle's value under it.

    Examples
    --------
    Two items with scores 0.3 and 0.25 on the one threshold 0.2 tie in one bin: binned AP 1/2
    where the labels 1, 0 give AP 1; no item lies below the grid, so the variant that never
    predicts such an item positive gives the same (unlike :func:`extra_alternatives`, which
    stores it only where it differs, a mechanism predicts wherever its rule applies, so that
    fresh inputs can confirm it):

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import call_pattern_mechanisms
    >>> from prtheory.conformance.vectors_io import Vector
    >>> impl = Implementation("mine", "binned AP", "average_precision", None, binned=(0.2,))
    >>> x = Inputs(np.array([1, 0]), np.array([0.3, 0.25]))
    >>> v = Vector("average_precision", 0, "", (), x, "valid", None, {}, None)
    >>> [(m.name, getattr(m.predict(v), "exact", None)) for m in call_pattern_mechanisms(impl)]
    [('binned(1 thresholds)', Fraction(1, 2)), ('binned(1 thresholds)+below-grid-never-positive', Fraction(1, 2))]
    """
    patterns = _call_patterns(impl)

    def under(alt: Alternative) -> Any:
        return lambda v: _value_under(alt, v)

    out = [Mechanism(a.name, f"the {a.name} call pattern", under(a)) for a in patterns]
    if impl.binned is not None and impl.metric == "average_precision":
        grid = impl.binned
        plain = next(a for a in patterns if a.name == f"binned({len(grid)} thresholds)")

        def below(v: Vector) -> Any:
            value = _below_grid_value(grid, v)
            # no item below the grid (or none on it that counts): the plain bins' value
            return value if value is not None else _value_under(plain, v)

        name = _below_grid_name(grid)
        out.append(Mechanism(name, f"the {name} call pattern", below))
    return out


def _binned_below_grid_dropped(grid: tuple[float, ...], x: Inputs) -> Any:
    """Binned AP when an item scored below the lowest threshold is predicted positive at no
    threshold, yet counts in the positives (torcheval's ``torch.histc(..., min=0)`` drops it
    from every bin while ``num_fn = target.sum() - num_tp`` keeps it): the recall stops short
    of 1, so AP = AP(items on the grid) * P(on the grid) / P(all); 0 with no positive on the
    grid. ``None`` where no item lies below the grid."""
    from fractions import Fraction

    from prtheory.oracle.ap import average_precision

    s = np.asarray(x.y_score, dtype=np.float64)
    inside = s >= grid[0]
    if inside.all():
        return None
    y = np.asarray(x.labels)
    w = (
        np.ones(len(y), dtype=object)
        if x.sample_weight is None
        else np.asarray([Fraction(v) for v in x.sample_weight], dtype=object)
    )
    positive = y == 1
    total, on_grid = sum(w[positive], Fraction(0)), sum(w[positive & inside], Fraction(0))
    if total == 0:
        return None
    if on_grid == 0:
        return Fraction(0)
    kept = _quantise(
        grid,
        replace(
            x,
            y_true=y[inside],
            y_score=s[inside],
            sample_weight=None if x.sample_weight is None else w[inside],
        ),
    )
    ap = average_precision(kept.labels, kept.scores, kept.sample_weight)
    return ap * on_grid / total


def run_implementation(impl: Implementation, vector: Vector) -> Outcome:
    """Call ``impl`` on ``vector`` with warnings recorded (never raised); never raises itself.

    Parameters
    ----------
    impl : Implementation
        The implementation.
    vector : Vector
        A test vector; ``impl.run`` gets its decoded inputs
        (:class:`~prtheory.conformance.metrics.Inputs`: ``y_true``, ``y_score``,
        ``sample_weight``, ``params``).

    Returns
    -------
    Outcome
        Its value, or the exception it raised, or the reason it gave for an unsupported input,
        with the warnings it gave (category and first line, each once).

    Examples
    --------
    >>> import warnings
    >>> from prtheory.conformance.adapters import Implementation, Unsupported
    >>> from prtheory.conformance.runner import run_implementation
    >>> from prtheory.conformance.vectors_io import load
    >>> vector = next(v for v in load(["ap_min"]) if v.inputs.params == {"pos": 3, "neg": 5})
    >>> def worst(x):
    ...     warnings.warn("computed in float64", RuntimeWarning)
    ...     return 1 / (x.params["neg"] - 5)
    >>> outcome = run_implementation(Implementation("mine", "worst", "ap_min", worst), vector)
    >>> outcome.error, outcome.warnings
    (ZeroDivisionError('division by zero'), ['RuntimeWarning: computed in float64'])
    >>> no = Implementation("mine", "no", "ap_min", lambda x: Unsupported("no closed forms"))
    >>> run_implementation(no, vector).unsupported
    'no closed forms'
    """
    return run_inputs(impl, vector.inputs)


def run_inputs(impl: Implementation, x: Inputs) -> Outcome:
    """Call ``impl`` on the input ``x`` with warnings recorded (never raised); never raises.

    An exception counts as the library's only where it came from the library
    (:func:`from_library`); any other is recorded as an
    :class:`~prtheory.conformance.classify.AdapterFault`, a crash of the adapter.

    Parameters
    ----------
    impl : Implementation
        The implementation.
    x : Inputs
        The input.

    Returns
    -------
    Outcome
        As :func:`run_implementation`.

    Examples
    --------
    An adapter that pairs labels and scores itself raises on its own, before any library
    runs; scikit-learn's own length check is the library's rejection:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.runner import run_inputs
    >>> from sklearn.metrics import average_precision_score
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5]))
    >>> def paired(x):
    ...     pairs = list(zip(x.y_true, x.y_score, strict=True))
    ...     return average_precision_score(*zip(*pairs))
    >>> own = Implementation("scikit-learn", "paired", "average_precision", paired,
    ...                      origin=("sklearn",))
    >>> type(run_inputs(own, x).error).__name__
    'AdapterFault'
    >>> direct = Implementation("scikit-learn", "direct", "average_precision",
    ...                         lambda x: average_precision_score(x.y_true, x.y_score),
    ...                         origin=("sklearn",))
    >>> type(run_inputs(direct, x).error).__name__
    'ValueError'
    """
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            value = impl.run(x)
        except Exception as exc:  # a library's failure is a result to classify
            if not from_library(exc, impl.origin):
                exc = AdapterFault(f"{type(exc).__name__}: {exc}")
            return Outcome(error=exc, warnings=_messages(caught))
    if isinstance(value, Unsupported):
        return Outcome(unsupported=value.reason)
    return Outcome(value=value, warnings=_messages(caught))


def from_library(exc: BaseException, origin: tuple[str, ...]) -> bool:
    """Whether ``exc`` is the library's own answer: ``origin`` is empty (the implementation is
    its own library), or the exception or one it was raised from (``__cause__``,
    ``__context__``) passed through the code of a package of ``origin`` (a frame of its
    traceback lies in the package's directory) or is of a class that package defines, or it
    is an external server's report of the library's error
    (:class:`~prtheory.conformance.external.ExternalRejection`,
    :class:`~prtheory.conformance.external.ExternalCrash`: the R and Java servers report as
    such only what the library raised).

    Parameters
    ----------
    exc : BaseException
        What the implementation raised.
    origin : tuple of str
        The library's importable packages.

    Returns
    -------
    bool
        True where the library raised it.

    Examples
    --------
    >>> from prtheory.conformance.runner import from_library
    >>> from_library(ValueError("own check"), ())
    True
    >>> from_library(ValueError("zip() argument 2 is shorter"), ("sklearn",))
    False
    >>> from sklearn.metrics import average_precision_score
    >>> try:
    ...     average_precision_score([1, 0, 1], [0.9, 0.5])
    ... except ValueError as exc:
    ...     print(from_library(exc, ("sklearn",)))
    True
    """
    if not origin or isinstance(exc, ExternalRejection | ExternalCrash):
        return True
    dirs = [d for name in origin for d in _package_dirs(name)]
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if type(e).__module__.split(".")[0] in origin:
            return True
        files = {
            os.path.realpath(f.f_code.co_filename) for f, _ in traceback.walk_tb(e.__traceback__)
        }
        if any(f.startswith(d) for f in files for d in dirs):
            return True
        todo += [e.__cause__, e.__context__]
    return False


@functools.cache
def _package_dirs(name: str) -> tuple[str, ...]:
    """Where package ``name``'s code lies (its directories, or its one file), resolved."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return ()
    if spec is None:
        return ()
    if spec.submodule_search_locations:
        return tuple(os.path.realpath(d) + os.sep for d in spec.submodule_search_locations)
    return (os.path.realpath(spec.origin),) if spec.origin else ()


# ------------------------------------------------------------------------------------------
# differential testing of an implementation

#: the differential plans of a library run: no generated inputs, round 0 alone, or round 0
#: and the bulk that gives the guarantee (:mod:`prtheory.conformance.differential`)
PLANS = ("none", "round0", "full")


def _result(outcome: Outcome) -> Any:
    """What a differential comparison sees: the value, or :class:`Raised`."""
    if outcome.unsupported is not None:
        return Raised(f"unsupported: {outcome.unsupported}", True)
    if outcome.error is not None:
        err = outcome.error
        return Raised(f"raised {type(err).__name__}: {err}"[:200], isinstance(err, ValueError))
    return outcome.value


def _takes_weights(impl: Implementation) -> bool:
    """Whether ``impl`` accepts sample weights (it does not say Unsupported to them)."""
    one = np.ones(2)
    x = Inputs(np.array([1, 0]), np.array([0.75, 0.25]), one)
    return run_inputs(impl, x).unsupported is None


#: CPU seconds an implementation's round 0 may take in the kit (checked between inputs): one that
#: spends them before its largest inputs is "not run (time)" from there, a failure of
#: ``--fail-on time``, never a pass (the run no longer stops at a crash or a rejection, so a
#: library that is slow at 10^3 items, pycm's curves, would otherwise run for hours)
ROUND0_CPU = 60.0


def differential_verdict(o: diff.Outcome) -> Verdict:
    """The category of a differential outcome: its most severe kind of divergence
    (:data:`~prtheory.conformance.differential.KINDS`), ``agrees``, or ``unsupported`` where it
    did not run."""
    if o.not_run is not None:
        return Verdict("unsupported", f"differential test not run: {o.not_run}")
    total = sum(o.samples.values())
    counts = ", ".join(f"{k} {o.kinds[k]}" for k in diff.KINDS if o.kinds.get(k))
    if o.round_cut is not None and o.worst != "wrong":
        found = "" if o.worst is None else f"; before that {o.diverging} diverged ({counts})"
        return Verdict(
            "timeout",
            f"not run from {o.round_cut} items: {o.cpu_seconds:.1f} s of CPU on {total} "
            f"generated inputs of {min(o.samples)} to {max(o.samples)} items spent round 0's "
            f"budget of {ROUND0_CPU:.0f} s{found}",
        )
    if o.worst is None:
        return Verdict(
            "agrees",
            f"{total} generated inputs of {min(o.samples)} to {max(o.samples)} items agree; "
            f"{o.guarantee()}",
        )
    shown = "\n".join(diff.describe(d) for d in o.divergences)
    detail = f"{o.diverging} of {total} generated inputs diverge ({counts}):\n{shown}"
    return Verdict(o.worst, detail, float32=o.worst == "float32")


def run_differential(impl: Implementation, plan: str = "round0") -> DifferentialRow:
    """``impl`` on the generated inputs of ``plan`` (``"round0"`` or ``"full"``, :data:`PLANS`)
    under its declared conventions.

    Parameters
    ----------
    impl : Implementation
        An implementation of a metric of
        :data:`prtheory.conformance.differential.METRICS`.
    plan : str, default "round0"
        ``"round0"``: the fixed inputs of 10 to 10^6 items alone; ``"full"``: also the bulk of
        generated inputs that gives the guarantee of :mod:`prtheory.conformance.differential`.

    Returns
    -------
    DifferentialRow
        Its verdict and outcome; weighted inputs are included when the implementation takes
        sample weights.

    Examples
    --------
    prtheory's own AP (the correctly rounded exact value) agrees with the oracle on every
    input of round 0:

    >>> import prtheory
    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.runner import run_differential
    >>> def ap(x):
    ...     return prtheory.average_precision(x.y_true, x.y_score, sample_weight=x.sample_weight)
    >>> row = run_differential(Implementation("prtheory", "ap", "average_precision", ap))
    >>> row.verdict.category
    'agrees'
    """
    outcome = diff.run(
        impl.metric,
        lambda x: _result(run_inputs(impl, x)),
        conventions=impl.conventions,
        weighted=_takes_weights(impl),
        per_decade=diff.PER_DECADE if plan == "full" else 0,
        mechanisms=[*mechanisms(impl.metric), *call_pattern_mechanisms(impl)],
        round_budget=ROUND0_CPU,
    )
    verdict = differential_verdict(outcome)
    return DifferentialRow(impl.library, impl.name, impl.metric, impl.conventions, verdict, outcome)


def _messages(caught: list[warnings.WarningMessage]) -> list[str]:
    seen: list[str] = []
    for w in caught:
        first = without_machine_details(str(w.message)).splitlines()[0][:120]
        text = f"{w.category.__name__}: {first}"
        if text not in seen:
            seen.append(text)
    return seen


def _row(library: str, impl: Implementation, vector: Vector) -> Row:
    """``impl`` run on ``vector`` and classified."""
    outcome = run_implementation(impl, vector)
    extra = extra_alternatives(impl, vector)
    verdict = classify(vector, outcome, extra)
    return Row(
        library,
        impl.name,
        impl.metric,
        vector,
        verdict,
        outcome.value,
        tuple(outcome.warnings),
        impl.conventions,
        extra,
        error_of(outcome),
    )


def run(libraries: list[str] | None = None, metrics: list[str] | None = None) -> Run:
    """Every available library's implementations over the vectors (of ``metrics``), then the
    differential test of each (in this process: :func:`~prtheory.conformance.isolated.run_isolated`
    isolates each library and limits its time).

    Parameters
    ----------
    libraries : list of str, optional
        Adapter keys (:data:`~prtheory.conformance.adapters.ADAPTERS`; all by default).
    metrics : list of str, optional
        The metrics whose vectors to run (all by default).

    Returns
    -------
    Run
        Each library's status, one classified :class:`Row` per (implementation, vector) of a
        library that imports, the import errors, and the differential tests (round 0) of the
        implementations of :data:`prtheory.conformance.differential.METRICS`.

    Raises
    ------
    InvalidInputError
        An unknown library key.

    Examples
    --------
    scikit-learn's ``precision_score(y, score >= t)`` on the vectors of
    ``precision_at_threshold`` (no differential test). ``1 0 1 1 0 0 1 0`` scored 0.9, 0.8,
    ..., 0.3 at threshold 0.65 predicts the top three positive, two rightly: 2/3. At 0.95
    nothing is predicted positive, 0/0: ``zero_division`` returns 0.0 (with a warning), the
    convention ``undefined=sklearn``. A NaN score has no prediction: unsupported.

    >>> from prtheory.conformance.runner import run
    >>> result = run(["sklearn"], ["precision_at_threshold"])
    >>> result.statuses[0].library, result.import_errors, result.differential
    ('scikit-learn', {}, [])
    >>> rows = {r.vector.tc_id: r for r in result.rows}
    >>> rows[1].vector.inputs.params["threshold"], rows[1].value == 2 / 3
    (0.65, True)
    >>> rows[9].vector.inputs.params["threshold"], rows[9].value, rows[9].verdict.convention
    (0.95, 0.0, 'undefined=sklearn')
    >>> rows[18].vector.comment, rows[18].verdict.category
    ('NaN score', 'unsupported')
    >>> run(["no such library"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    prtheory.errors.InvalidInputError: libraries: unknown ['no such library']; known: sklearn, ...
    """
    keys = libraries if libraries else list(ADAPTERS)
    unknown = [k for k in keys if k not in ADAPTERS]
    if unknown:
        raise InvalidInputError("libraries", f"unknown {unknown}; known: {', '.join(ADAPTERS)}")
    vectors = list(load(metrics))
    statuses: list[LibraryStatus] = []
    rows: list[Row] = []
    import_errors: dict[str, str] = {}
    for key in keys:
        st = status(key)
        if not st.available:
            statuses.append(st)
            continue
        try:
            impls = implementations(key)
        except Exception as exc:
            msg = f"{type(exc).__name__}: {exc}"
            import_errors[key] = msg
            statuses.append(replace(st, available=False, reason=f"import failed: {msg}"))
            continue
        statuses.append(st)
        rows += [
            _row(st.library, impl, v) for impl in impls for v in vectors if v.metric == impl.metric
        ]
    differential = [
        run_differential(impl)
        for key in keys
        if key not in import_errors and status(key).available
        for impl in implementations(key)
        if impl.metric in diff.METRICS and (metrics is None or impl.metric in metrics)
    ]
    return Run(statuses, rows, import_errors, differential)
