"""Render ``reports/conformance.md`` from a :class:`~prtheory.conformance.runner.Run`.

The report is deterministic (no timings, no dates): the same library versions give the same
text, so a test can compare the committed copy with a fresh run. It records the versions it was
made with in a machine-readable line (``<!-- versions: {...} -->``) so that a mismatch can be
reported as such rather than as a stale file.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory.conformance.adapters import ADAPTERS, status
from prtheory.conformance.attribution import (
    ImplementationDiagnosis,
    attributions,
    contradicted_attributions,
    diagnose_run,
)
from prtheory.conformance.classify import DEFAULT_F32_ULPS, DEFAULT_ULPS, distance
from prtheory.conformance.encoding import Value
from prtheory.conformance.external_mechanisms import SOURCES
from prtheory.conformance.metrics import METRICS
from prtheory.conformance.predictions import marker_text
from prtheory.conformance.runner import Row, Run
from prtheory.conformance.vectors_io import Vector

__all__ = [
    "KNOWN_FINDINGS",
    "committed_versions",
    "environment",
    "insert_run_time",
    "render",
    "results_json",
    "versions_line",
    "with_run_time",
    "without_run_time",
]

SHORT = {
    "agrees": "✓",
    "convention": "C",
    "float32": "F",
    "wrong": "W",
    "undefined-value": "U",
    "accepted-invalid": "A",
    "rejected-valid": "R",
    "crashed": "X",
    "timeout": "T",
}

CONVENTION_TEXT = {
    "sigmoid-on-logits": "a sigmoid is applied to every score when any score lies outside [0, 1]",
    "scores=float32": "scores are rounded to float32 before ranking (nearby scores tie)",
    "inf-ties=input-order": "ties between infinite scores are broken in input order (a `diff() != 0` test is NaN != 0 for inf - inf)",
    "ties=trec_eval": "tied scores are ordered by document id, descending",
    "ties=trec_eval+scores=float32": "scores are stored as float32, then tied scores are ordered by document id, descending",
    "ties=input-order": "tied scores keep their input order",
    "ties=expected": "the expectation over random orders of each tied block",
    "ties=optimistic": "positives before negatives within a tie",
    "ties=pessimistic": "negatives before positives within a tie",
    "undefined=sklearn": "0 substituted for 0/0",
    "first-point=sklearn": "(recall 0, precision 1) prepended to the curve",
    "first-point=spark": "(recall 0, precision of the first point) prepended",
    "threshold=strict": "predicts positive iff score > threshold (not >=)",
    "prg-area=signed": "area where precision gain < 0 counts as negative",
}


@dataclass(frozen=True)
class Finding:
    """A divergence the report must look for, with its cause, and the rows that show it."""

    key: str
    libraries: tuple[str, ...]
    title: str
    cause: str
    evidence: Callable[[list[Row]], list[Row]]


def _matches(
    library: str, name: str, metric: str | None = None
) -> Callable[[list[Row]], list[Row]]:
    return lambda rows: [
        r
        for r in rows
        if r.library == library
        and name in r.verdict.matches
        and (metric is None or r.metric == metric)
    ]


def _batch_split(rows: list[Row]) -> list[Row]:
    """torchmetrics rows whose value with 2 update() calls differs from the one-call value."""
    single: dict[tuple[str, int], Any] = {}
    for r in rows:
        if r.library == "torchmetrics" and r.implementation in (
            "BinaryAveragePrecision, 1 update()",
            "functional.binary_fbeta_score",
        ):
            single[(r.metric, r.vector.tc_id)] = r.value
    out = []
    for r in rows:
        if r.library == "torchmetrics" and "2 update() calls" in r.implementation:
            other = single.get((r.metric, r.vector.tc_id))
            if isinstance(other, float) and isinstance(r.value, float) and other != r.value:
                out.append(r)
    return out


def _float32(rows: list[Row]) -> list[Row]:
    return [
        r
        for r in rows
        if r.library in ("torchmetrics", "torcheval")
        and r.verdict.float32
        and r.metric == "average_precision"
        and "basic" in r.vector.flags
    ]


def _category(
    library: str, category: str, flag: str | None = None, metric: str | None = None
) -> Callable[[list[Row]], list[Row]]:
    return lambda rows: [
        r
        for r in rows
        if r.library == library
        and r.verdict.category == category
        and (flag is None or flag in r.vector.flags)
        and (metric is None or r.metric == metric)
    ]


def _sklearn_auc_no_positives(rows: list[Row]) -> list[Row]:
    return [
        r
        for r in _category("scikit-learn", "undefined-value", metric="auc_trapezoid")(rows)
        if r.value == 0.5
    ]


def _keras_riemann(rows: list[Row]) -> list[Row]:
    """Keras minoring/majoring results on AP vectors that differ from AP and that an
    independent float32 emulation of the Riemann sum reproduces to one float32 ulp."""
    from prtheory.conformance.keras_models import float32_riemann

    out = []
    for r in rows:
        method = next((m for m in ("minoring", "majoring") if m in r.implementation), None)
        if r.library != "Keras" or method is None or r.verdict.category != "wrong":
            continue
        if not isinstance(r.value, float) or not math.isfinite(r.value):
            continue
        predicted = np.float32(float32_riemann(r.vector.inputs, method))
        if abs(np.float32(r.value) - predicted) <= np.spacing(predicted):
            out.append(r)
    return out


def _keras_float32(cancels: bool) -> Callable[[list[Row]], list[Row]]:
    """Keras results off beyond float32 rounding that its float32 interpolation formula,
    emulated independently (:func:`~prtheory.conformance.keras_models.float32_interpolation`),
    reproduces to within one float32 ulp; split by cause: the exact area of the scores rounded to
    float32 is the returned value (scores collide) or is not (the formula cancels)."""

    def pick(rows: list[Row]) -> list[Row]:
        from prtheory.conformance.keras_models import (
            DEFAULT_THRESHOLDS,
            float32_interpolation,
        )
        from prtheory.conformance.metrics import scores_float32
        from prtheory.oracle.areas import pr_auc

        out = []
        for r in rows:
            if r.library != "Keras" or r.verdict.category != "wrong" or r.value is None:
                continue
            grid = DEFAULT_THRESHOLDS if "default" in r.implementation else None
            x = r.vector.inputs
            predicted = np.float32(float32_interpolation(x, grid))
            if abs(np.float32(r.value) - predicted) > np.spacing(predicted):
                continue
            x32 = scores_float32(x)
            area = float(
                pr_auc(
                    x32.labels,
                    x32.scores,
                    x32.sample_weight,
                    method="davis-goadrich",
                    first_point="spark",
                )
            )
            collides = abs(area - r.value) <= 2**-20 * abs(area)
            if collides != cancels:
                out.append(r)
        return out

    return pick


def _nonfinite(library: str) -> Callable[[list[Row]], list[Row]]:
    def pick(rows: list[Row]) -> list[Row]:
        out = []
        for r in rows:
            if r.library != library or r.value is None or r.vector.result == "invalid":
                continue
            vals = (
                np.concatenate(
                    [np.ravel(np.asarray(v, dtype=np.float64)) for v in r.value.values()]
                )
                if isinstance(r.value, dict)
                else np.array([r.value])
            )
            if not np.isfinite(vals).all():
                out.append(r)
        return out

    return pick


def _retrieval_nonpositive(rows: list[Row]) -> list[Row]:
    """torchmetrics retrieval AP results that are wrong on inputs with a positive whose score,
    cast to float32 as torchmetrics casts it, is <= 0 (1e-300 becomes 0)."""
    out = []
    for r in rows:
        if not (
            r.library == "torchmetrics"
            and r.implementation == "functional.retrieval_average_precision"
            and r.verdict.category == "wrong"
        ):
            continue
        with np.errstate(over="ignore", under="ignore"):
            s32 = np.asarray(r.vector.inputs.y_score, dtype=np.float64).astype(np.float32)
        if (s32[np.asarray(r.vector.inputs.y_true) == 1] <= 0).any():
            out.append(r)
    return out


def _negative_weights(rows: list[Row]) -> list[Row]:
    return [
        r
        for r in rows
        if r.library == "scikit-learn"
        and r.verdict.category == "accepted-invalid"
        and r.vector.inputs.sample_weight is not None
        and (np.asarray(r.vector.inputs.sample_weight) < 0).any()
    ]


KNOWN_FINDINGS = (
    Finding(
        "torchmetrics-sigmoid",
        ("torchmetrics",),
        "torchmetrics applies a sigmoid when scores leave [0, 1]",
        '`normalize_logits_if_needed(preds, "sigmoid")` (torchmetrics.utilities.compute) replaces every score by sigmoid(score) when any score is outside [0, 1]. Thresholds then apply to sigmoid(score), and large logits saturate to 1.0 and tie.',
        _matches("torchmetrics", "sigmoid-on-logits"),
    ),
    Finding(
        "torchmetrics-batches",
        ("torchmetrics",),
        "torchmetrics results change with how the batches are split",
        "The sigmoid decision is taken per `update()` call: a batch whose scores all lie in [0, 1] is kept, a batch with one logit is squashed, so the scores of different batches are put on different scales before they are ranked together (convention `sigmoid-per-batch(2)`).",
        _batch_split,
    ),
    Finding(
        "float32",
        ("torchmetrics", "torcheval"),
        "torchmetrics and torcheval compute in float32 even for float64 input",
        "torchmetrics accumulates the counts as `cumsum(target * 1.0)`, a float32 tensor, and divides them in float32; torcheval counts in int64 but `num_tp / (num_tp + num_fp)` divides in torch's default dtype, float32. The sums and the returned tensor are float32 although the scores were float64.",
        _float32,
    ),
    Finding(
        "torcheval-inf-ties",
        ("torcheval",),
        "torcheval splits ties between infinite scores",
        "`_compute_for_each_class` finds tie blocks with `threshold.diff(dim=0) != 0`; for two +inf (or -inf) scores the difference is NaN and NaN != 0, so each infinite score becomes its own threshold, ordered as the sort left them (input order here).",
        _matches("torcheval", "inf-ties=input-order"),
    ),
    Finding(
        "trec-ties",
        ("pytrec_eval (trec_eval)",),
        "trec_eval breaks ties by descending document id",
        "trec_eval sorts by score, then by document id compared with `strcmp` in descending order (`comp_sim_docno`), so within a tie the document with the larger id is ranked first; AP, P@k and R-precision depend on the ids.",
        _matches("pytrec_eval (trec_eval)", "ties=trec_eval"),
    ),
    Finding(
        "trec-float32",
        ("pytrec_eval (trec_eval)",),
        "trec_eval stores scores as float32",
        "Scores pass through a C `float`, so scores that differ only beyond float32 precision tie, and the tie is then broken by document id.",
        lambda rows: [
            r
            for r in rows
            if r.library == "pytrec_eval (trec_eval)"
            and r.verdict.convention in ("ties=trec_eval+scores=float32", "scores=float32")
        ],
    ),
    Finding(
        "sklearn-inf",
        ("scikit-learn",),
        "scikit-learn rejects ±inf scores, whose ranking is well defined",
        'Input validation (`sklearn.utils.validation._assert_all_finite`) raises "Input contains infinity or a value too large"; +inf and -inf are ordinary largest and smallest scores of a ranking.',
        _category("scikit-learn", "rejected-valid", "nonfinite-score"),
    ),
    Finding(
        "sklearn-auc-no-positives",
        ("scikit-learn",),
        "scikit-learn's PR curve with auc gives 0.5 with no positives",
        "With no positives `precision_recall_curve` warns and sets recall to 1 at every threshold (precision 0), then appends (recall 0, precision 1); the trapezoid between (0, 1) and (1, 0) has area 0.5, for a metric that is 0/0.",
        _sklearn_auc_no_positives,
    ),
    Finding(
        "torchmetrics-strict-threshold",
        ("torchmetrics",),
        "torchmetrics thresholds with score > t, not score >= t",
        "`_binary_stat_scores_format` binarises with `preds > threshold`, so an item scored exactly at the threshold is predicted negative; scikit-learn users who threshold with `>=` (the convention of `precision_recall_curve`'s thresholds) get different counts.",
        _matches("torchmetrics", "threshold=strict"),
    ),
    Finding(
        "torchmetrics-retrieval-nonpositive",
        ("torchmetrics",),
        "torchmetrics' retrieval AP ignores relevant items whose score is <= 0 in float32",
        "`retrieval_average_precision` starts with `target = torch.where(preds > 0, target, 0)`: a relevant item scored 0 or below (a logit, -inf) no longer counts as relevant, and the mean is taken over the remaining hits only. The scores were cast to float32 first (`preds = preds.float()` in `_check_retrieval_target_and_prediction_types`), so a positive score below float32's range (1e-300, 1e-46) becomes 0 and its item is dropped too: every score times 1e-300 gives AP 0.",
        _retrieval_nonpositive,
    ),
    Finding(
        "sklearn-negative-weights",
        ("scikit-learn",),
        "scikit-learn accepts negative sample weights",
        "`sample_weight` is checked for shape, not sign, so a negative weight flows into the cumulative counts and can give precision above 1 or AP above 1.",
        _negative_weights,
    ),
    Finding(
        "prg-signed",
        ("pyprg (official PRG code)",),
        "the official PRG code counts negative precision gain as negative area",
        "`calc_auprg` adds trapezoids `(x_i - x_{i-1}) (y_i + y_{i-1})/2` for every segment starting at recall gain >= 0 without clipping precision gain at 0, so rankings worse than the always-positive baseline get negative AUPRG; the paper's definition draws the curve in the unit square.",
        lambda rows: [
            r
            for r in _matches("pyprg (official PRG code)", "prg-area=signed", "auprg")(rows)
            if isinstance(r.value, float) and r.value < 0
        ],
    ),
    Finding(
        "sklearn-prg-perfect-ranking",
        ("sklearn-prg",),
        "sklearn-prg scores a perfect ranking below 1",
        "`sklearn_prg.average_precision_recall_gain` (sklearn-prg 0.1.3, `metrics.py`) computes "
        "the gains from scikit-learn's `precision_recall_curve`, replaces `-inf` by 0 "
        "(`nan_to_num`), clips negative gains to 0 and sets the recall gain to 1 where recall is "
        "1, then integrates with `auc` over the points ordered by `np.argsort(recall_gain)`: the "
        "operating points at recall 1 (precision gains 1, 1/2, 0 for two positives above two "
        "negatives) share recall gain 1, and the trapezoid from the appended point (0, 1) runs "
        "to whichever of them the argsort puts first (0.75 where AUPRG is 1).",
        lambda rows: [
            r
            for r in rows
            if r.library == "sklearn-prg"
            and r.metric == "auprg"
            and "best-ranking" in r.vector.flags
            and r.verdict.category != "agrees"
        ],
    ),
    Finding(
        "prg-package-nonfinite",
        ("precision-recall-gain",),
        "precision-recall-gain returns NaN or ±inf",
        "`precision_recall_gain_curve` takes `proportion_of_positives = pos/neg` (the odds, not pi = pos/(pos+neg)), divides by recall 0 at its appended first point (recall gain -inf) and by precision 0, and `area_under_precision_recall_gain_score` sums those values unguarded: NaN or ±inf areas, and gains at the wrong skew.",
        _nonfinite("precision-recall-gain"),
    ),
    Finding(
        "fbeta-beta-overflow",
        ("scikit-learn", "torchmetrics"),
        "F-beta overflows for large beta in scikit-learn and torchmetrics",
        "Both compute `beta2 = beta**2` in Python floats, then `(1 + beta2) * tp / ((1 + beta2) * tp + beta2 * fn + fp)`. At beta = 1e200, `beta**2` raises OverflowError; at beta = 1e154, beta2 = 1e308 and `(1 + beta2) * tp` overflows to inf, so scikit-learn returns inf/inf = NaN; torchmetrics multiplies in float32, where already at beta = 1e19 the denominator (4e38) overflows while the numerator (3e38) does not, and F-beta comes out 0.0. At beta = inf itself, beta2 = inf and torchmetrics divides inf by inf. The exact value tends to the recall (3/4 here).",
        lambda rows: [
            r
            for r in rows
            if r.library in ("scikit-learn", "torchmetrics")
            and r.metric == "fbeta_at_threshold"
            and "beta-extremes" in r.vector.flags
            and r.verdict.category in ("wrong", "crashed")
        ],
    ),
    Finding(
        "keras-riemann",
        ("Keras",),
        "Keras's minoring and majoring PR areas are Riemann sums, not average precision",
        "`AUC.result` with `summation_method='minoring'` or `'majoring'` sums `(R_i - R_{i+1}) * min(P_i, P_{i+1})` or `max(...)` over consecutive thresholds (precision 0 at the threshold above every score), in float32. Even with one threshold per distinct score these bracket the step AP, `sum (R_i - R_{i+1}) P_i`, and equal it only where the precision does not change within a recall step; minoring also drops the first recall step (its other end has precision 0). Every result listed is reproduced to one float32 ulp by the sum evaluated in numpy float32.",
        _keras_riemann,
    ),
    Finding(
        "keras-float32-scores",
        ("Keras",),
        "Keras compares scores in float32",
        "`update_confusion_matrix_variables` casts predictions (and thresholds) to the metric's float32 dtype, so float64 scores closer than a float32 ulp tie; the exact area of the float32-rounded scores is what Keras returns.",
        _keras_float32(cancels=False),
    ),
    Finding(
        "keras-float32-cancellation",
        ("Keras",),
        "Keras's Davis-Goadrich area cancels catastrophically in float32",
        "`AUC.interpolate_pr_auc` integrates each bucket in closed form, `slope * (dTP + intercept * log(P_A / P_B)) / (TP + FN)` with P = TP + FP, in float32. When a bucket moves P by a small fraction the two terms nearly cancel: one positive below 10^6 tied negatives has the exact area 1 - 10^6 ln(1 + 10^-6) = 5.0e-7, and float32 gives 1 - 10^6 * 9.54e-7 = 0.0463. Every result listed is reproduced to one float32 ulp by the formula evaluated in numpy float32, and is far from the exact area of the float32-rounded scores.",
        _keras_float32(cancels=True),
    ),
)


# ------------------------------------------------------------------------------------------
# environment


def environment(run: Run | None = None) -> dict[str, str]:
    """Versions that determine the report's content (libraries, numpy, torch, Python minor).

    Parameters
    ----------
    run : Run, optional
        The run whose libraries' versions are recorded (default: every adapter's status now,
        which imports the libraries).

    Returns
    -------
    dict of str to str
        Distribution -> version (``"not installed"``), and ``python`` -> ``"3.x"``, sorted.

    Examples
    --------
    >>> import sys
    >>> from prtheory.conformance.report import environment
    >>> from prtheory.conformance.runner import Run
    >>> env = environment(Run([], [], {}))
    >>> list(env), env["python"] == "%d.%d" % sys.version_info[:2]
    (['numpy', 'python', 'scipy', 'torch'], True)
    """
    statuses = run.statuses if run is not None else [status(k) for k in ADAPTERS]
    env = {s.distribution: (s.version or "not installed") for s in statuses}
    for dist in ("numpy", "torch", "scipy"):
        try:
            env[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            env[dist] = "not installed"
    env["python"] = ".".join(platform.python_version_tuple()[:2])
    return dict(sorted(env.items()))


def committed_versions(text: str) -> dict[str, str] | None:
    """The versions recorded in a rendered report, or ``None`` if it has no versions line.

    Parameters
    ----------
    text : str
        A report.

    Returns
    -------
    dict of str to str or None
        The versions of its :func:`versions_line`.

    Examples
    --------
    >>> from prtheory.conformance.report import committed_versions
    >>> committed_versions('# Report\\n<!-- versions: {"numpy": "2.0.0"} -->\\n')
    {'numpy': '2.0.0'}
    >>> committed_versions("# Report\\n") is None
    True
    """
    for line in text.splitlines():
        if line.startswith("<!-- versions: ") and line.endswith(" -->"):
            versions: dict[str, str] = json.loads(line[len("<!-- versions: ") : -len(" -->")])
            return versions
    return None


def versions_line(run: Run) -> str:
    """The report's hidden line recording the environment's versions (:func:`environment`), which
    the staleness test compares with the installed ones.

    Parameters
    ----------
    run : Run
        The run.

    Returns
    -------
    str
        ``<!-- versions: {...} -->``, the versions as sorted JSON.

    Examples
    --------
    >>> from prtheory.conformance.report import committed_versions, environment, versions_line
    >>> from prtheory.conformance.runner import Run
    >>> run = Run([], [], {})
    >>> line = versions_line(run)
    >>> line.startswith("<!-- versions: {"), committed_versions(line) == environment(run)
    (True, True)
    """
    return f"<!-- versions: {json.dumps(environment(run), sort_keys=True)} -->"


# ------------------------------------------------------------------------------------------
# rendering helpers


def _n(v: Vector) -> int:
    return 0 if v.inputs.y_true is None else int(np.size(v.inputs.y_true))


def _fmt_float(x: float) -> str:
    return (
        repr(float(x))
        if math.isfinite(x)
        else ("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
    )


def _fmt_value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, dict):
        return "; ".join(
            f"{k} = [{', '.join(_fmt_float(x) for x in np.ravel(np.asarray(v, dtype=np.float64))[:8])}{', …' if np.size(v) > 8 else ''}]"
            for k, v in value.items()
        )
    return _fmt_float(float(value))


def _fmt_expected(want: Any) -> str:
    if want is None:
        return "—"
    if isinstance(want, Value):
        return f"{want.exact} ≈ {want.float64!r}" if want.exact is not None else repr(want.float64)
    return "; ".join(
        f"{k} = [{', '.join(str(v.exact) if v.exact is not None else repr(v.float64) for v in vals[:8])}{', …' if len(vals) > 8 else ''}]"
        for k, vals in want.items()
    )


def _fmt_inputs(v: Vector) -> str:
    x = v.inputs
    parts = []
    if x.y_true is not None:
        n = _n(v)
        if n > 12:
            # the long inputs are runs of equal items: show them as runs
            parts.append(f"{n} items (see vector)")
        else:
            parts.append(f"y_true={np.asarray(x.y_true).tolist()}")
            parts.append(f"y_score=[{', '.join(_fmt_float(s) for s in np.ravel(x.scores))}]")
            if x.sample_weight is not None:
                parts.append(f"sample_weight={np.asarray(x.sample_weight).tolist()}")
    for k, val in x.params.items():
        parts.append(f"{k}={val}")
    return ", ".join(parts)


def _minimal(rows: list[Row]) -> Row:
    return min(
        rows,
        key=lambda r: (
            _n(r.vector),
            len(r.vector.flags),
            r.metric,
            r.vector.tc_id,
            r.implementation,
        ),
    )


def _cell(rows: list[Row]) -> str:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.verdict.category] = counts.get(r.verdict.category, 0) + 1
    applicable = sum(c for k, c in counts.items() if k not in ("unsupported", "timeout"))
    if not applicable:
        return "—"
    parts = [f"{counts.get('agrees', 0)}/{applicable}✓"]
    parts += [f"{counts[k]}{SHORT[k]}" for k in SHORT if k != "agrees" and counts.get(k)]
    return " ".join(parts)


def _repro(r: Row, mechanism: tuple[str, Any] | None = None, unexplained: bool = False) -> str:
    """The input, what came back, the expected value and (given a mechanism, else the first-fit
    convention) the value that explains it; for an ``unexplained`` result the first-fit
    convention is said to be contradicted (else the diagnosis would have named it)."""
    v = r.vector
    got = _fmt_value(r.value) if r.value is not None else r.verdict.detail
    lines = [
        f"  - `{r.implementation}` on `{v.ident}` ({v.comment}): {_fmt_inputs(v)}",
        f"    - got {got}; expected ({v.result}) {_fmt_expected(v.expected) if v.expected is not None else v.reason}{_ulps_text(r)}",
    ]
    if mechanism is not None:
        name, predicted = mechanism
        lines.append(f"    - predicted by `{name}`: {_fmt_prediction(predicted)}")
    elif r.verdict.convention:
        target = v.alternatives.get(r.verdict.convention)
        if target is not None and unexplained:
            lines.append(
                f"    - fits `{r.verdict.convention}` alone ({_fmt_expected(target)}), which results "
                "this implementation got right contradict"
            )
        elif target is not None:
            lines.append(f"    - value under `{r.verdict.convention}`: {_fmt_expected(target)}")
    return "\n".join(lines)


def _ulps_text(r: Row) -> str:
    """`` (N ulps)``: the float64 ulp distance from the expected value, where both are numbers."""
    if r.value is None or r.vector.result not in ("valid", "acceptable"):
        return ""
    d = distance(r.value, r.vector.expected, np.float64)
    return "" if d == 0 else f" ({d:.6g} ulps away)"


def _fmt_prediction(predicted: Any) -> str:
    text = marker_text(predicted)
    return _fmt_expected(predicted) if text is None else text


#: the report's opening paragraphs, before the counts
INTRODUCTION = (
    "# Conformance of PR-metric libraries with the exact oracle",
    "",
    "Generated by `prtheory conformance`; do not edit. Every installed library's",
    "implementations run on the test vectors of `prtheory/conformance/vectors/` (expected values",
    "from the exact oracle) and each result is classified:",
    "",
    f"- **✓ agrees**: within {DEFAULT_ULPS} float64 ulps of the exact value;",
    "- **C convention**: equals the oracle's value under another named convention (named below);",
    f"- **F float32**: within {DEFAULT_F32_ULPS} float32 ulps of the exact value (float32 arithmetic or result);",
    "- **W wrong**: fits no known convention, even at float32 level;",
    "- **U undefined-value**: a number where the metric is 0/0, matching no named convention;",
    "- **A accepted-invalid**: a value for malformed input (NaN score, label 2, negative weight, ...);",
    "- **R rejected-valid**: a ValueError on legal input; **X crashed**: any other exception on legal input.",
    "",
    "Each implementation lists the conventions its documentation states; a convention match",
    "that is documented is marked so. Unsupported inputs (sample weights for an API without",
    "them, NaN scores where the adapter must threshold) are counted apart, not as results.",
    "",
)

#: the report's closing section
LIMITS = (
    "## Limits of this report",
    "",
    "- The float32 category is a tolerance (16 float32 ulps of the exact value), not a",
    "  re-computation of each library's algorithm with float32 counters.",
    "- Ties in torch's `sort`/`topk` are not guaranteed stable: `ties=torch-sort` is predicted",
    "  with the installed torch's `topk`/`argsort` order, and `inf-ties=input-order` describes",
    "  what the installed build did; another build may order ties differently.",
    "- A mechanism is a hypothesis that fits every result it is attributed to and none that",
    "  contradicts it; two mechanisms that predict the same values on every vector cannot be",
    "  told apart, and the preferences (declared, same library, exact) pick one.",
    "- torchmetrics' retrieval metrics are checked through the functional API only.",
    "- Generated inputs (differential testing) of the built-in libraries are round 0 alone:",
    "  a structural defect shows on every input of its sizes, a defect on a small fraction of",
    "  inputs needs the full plan (`--differential full`, the default for `--adapter`).",
    "",
)


def render(run: Run) -> str:
    """The full Markdown report of ``run``: the libraries, the matrix, the differential tests,
    the known divergences, the diagnosis and the limits.

    Parameters
    ----------
    run : Run
        A run of the libraries (or one loaded from ``reports/conformance_results.json``).

    Returns
    -------
    str
        The report, ending in one newline (without the run's cost line, which
        :func:`with_run_time` adds).

    Examples
    --------
    The first AP vector ranks its positives 1st, 3rd, 4th and 7th: AP = (1 + 2/3 + 3/4 + 4/7)/4
    = (84 + 56 + 63 + 48)/336 = 251/336; a library that returned 0.5 there is wrong:

    >>> from prtheory.conformance.adapters import LibraryStatus
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import VECTOR_DIR, load_file
    >>> v = load_file(VECTOR_DIR / "average_precision.json")[0]
    >>> v.inputs.y_true.tolist(), v.expected.exact
    ([1, 0, 1, 1, 0, 0, 1, 0], Fraction(251, 336))
    >>> status = LibraryStatus("mylib", "mylib", "mylib", "1.0", True, "")
    >>> row = Row("mylib", "ap", "average_precision", v, classify(v, Outcome(value=0.5)), 0.5)
    >>> run = Run([status], [row], {})
    >>> from prtheory.conformance.report import render
    >>> lines = render(run).splitlines()
    >>> print(next(line for line in lines if " results over " in line))
    1 results over 1 (metric, vector) pairs, and 0 differential tests on generated inputs.
    Results per library: mylib 1.
    >>> "| mylib | 0/1✓ 1W |" in lines
    True
    """
    rows = run.rows
    libs = [s.library for s in run.statuses if s.available]
    out = [*INTRODUCTION, *_counts(run), *_libraries(run), *_matrix(run, libs)]
    out += _differential_section(run)
    out += _known_divergences(run)
    known = {
        (r.library, r.implementation, r.metric, r.vector.ident): f.title
        for f in KNOWN_FINDINGS
        for r in f.evidence(rows)
    }
    out += _diagnosis_sections(diagnose_run(run), libs, known)
    if run.import_errors:
        out += ["## Import failures", ""]
        out += [f"- `{k}`: {v}" for k, v in sorted(run.import_errors.items())]
        out.append("")
    out += LIMITS
    missing = [k for k in ADAPTERS if k not in {s.key for s in run.statuses}]
    if missing:
        out += ["Libraries not run: " + ", ".join(missing), ""]
    return "\n".join(out).rstrip() + "\n"


def _counts(run: Run) -> list[str]:
    """How many results, pairs and differential tests, and the results per library."""
    n_vectors = len({(r.metric, r.vector.tc_id) for r in run.rows})
    return [
        f"{len(run.rows)} results over {n_vectors} (metric, vector) pairs, and "
        f"{len(run.differential)} differential tests on generated inputs. Results per library: "
        + _per_library(run)
        + ".",
        "",
    ]


def _libraries(run: Run) -> list[str]:
    """The libraries' table (status and shims), the environment and the versions line."""
    out = [
        "## Libraries",
        "",
        "| library | distribution | version | status | compatibility shims applied by the adapter |",
        "| --- | --- | --- | --- | --- |",
    ]
    for s in run.statuses:
        status = "ran" if s.available else f"not run: {s.reason}"
        shims = "; ".join(s.shims) if s.shims else "none"
        out.append(
            f"| {s.library} | `{s.distribution}` | {s.version or '—'} | {status} | {shims} |"
        )
    env = environment(run)
    return [
        *out,
        "",
        "Environment: "
        + ", ".join(f"{k} {env[k]}" for k in ("python", "numpy", "scipy", "torch"))
        + ".",
        "",
        versions_line(run),
        "",
    ]


def _matrix(run: Run, libs: list[str]) -> list[str]:
    """The counts per library and metric, and the vector files no library implements."""
    rows = run.rows
    metrics = [m for m in METRICS if any(r.metric == m for r in rows)]
    out = [
        "## Matrix (libraries × metrics)",
        "",
        "Counts over every implementation of the metric in the library; `—`: not implemented.",
        "",
        "| library | " + " | ".join(f"`{m}`" for m in metrics) + " |",
        "| --- | " + " | ".join("---" for _ in metrics) + " |",
    ]
    for lib in libs:
        cells = [_cell([r for r in rows if r.library == lib and r.metric == m]) for m in metrics]
        out.append(f"| {lib} | " + " | ".join(cells) + " |")
    unrun = [m for m in METRICS if m not in metrics]
    if unrun:
        out += [
            "",
            "Vector files no installed library implements: "
            + ", ".join(f"`{m}`" for m in unrun)
            + ". The closed forms AUCPR_min, AUCNPR and AP_min (Boyd et al.) are not in any "
            "Python library we know of; R's PRROC computes the minimum curve "
            "(`pr.curve(..., min.compute = TRUE)`), but R and CRAN are not reachable here.",
        ]
    return out


def _known_divergences(run: Run) -> list[str]:
    """Each known finding: confirmed (with a minimal input), not observed, or not checked."""
    out = ["", "## Known divergences", ""]
    ran = {s.library for s in run.statuses if s.available}
    for f in KNOWN_FINDINGS:
        ev = f.evidence(run.rows)
        if ev:
            verdict = f"**confirmed** ({len(ev)} results)"
        elif ran & set(f.libraries):
            verdict = "**not observed** with the installed versions"
        else:
            verdict = "not checked (library not run)"
        out += [f"### {f.title}", "", f"{verdict}. Cause: {f.cause}", ""]
        if ev:
            out += ["Minimal reproducing input:", "", _repro(_minimal(ev)), ""]
    return out


def _per_library(run: Run) -> str:
    """``library n`` for every library that ran (results and differential tests)."""
    counts: dict[str, int] = {}
    for library in [r.library for r in run.rows] + [t.library for t in run.differential]:
        counts[library] = counts.get(library, 0) + 1
    return (
        ", ".join(f"{s.library} {counts.get(s.library, 0)}" for s in run.statuses if s.available)
        or "none"
    )


def _differential_section(run: Run) -> list[str]:
    """Each implementation's differential test: its verdict and first divergent input."""
    from prtheory.conformance import differential as diff

    if not run.differential:
        return []
    out = [
        "",
        "## Differential testing at every size",
        "",
        "Each implementation of "
        + ", ".join(f"`{m}`" for m in diff.METRICS)
        + " is also compared with the correctly rounded exact value on round 0 of the generated",
        f"inputs (`prtheory.conformance.differential`, seed {diff.DEFAULT_SEED}): every family of",
        "`prtheory.conformance.sampling` at 10 to 1000 items, two at 3162 and 10^4, one at each of",
        "31623, 10^5, 316228 and 10^6 items (many distinct scores, tie blocks with mixed labels,",
        "signed zeros and ±inf beside ±MAX, integer, fractional and 2^±1000 weights). A result",
        "diverges when it is more than 8 + 2n float64 ulps from the exact value at n items (the",
        "error of accumulating n terms one by one); the first divergent input is shrunk by removing",
        "items while it still diverges. The verdict is the most severe kind among the divergent",
        "inputs: W wrong, X crashed, R rejected (a ValueError), F a float32 value within 16 + 2n",
        "float32 ulps (float32 arithmetic); the first input of each kind is shown, shrunk.",
        "A mechanism, or a named convention, whose prediction (a convention's: its exact value)",
        "is the result on the drawn and the shrunk input is named only if it also holds on",
        "further inputs (24 of 10 to 100 items drawn from the seed): on each where its prediction",
        "differs from the expected value, up to 3, the implementation must return it. One",
        "contradicted there is not named (the line gives the input that contradicted it); one",
        "that no further input could test is marked unconfirmed.",
        "",
    ]
    for t in run.differential:
        mark = SHORT.get(t.verdict.category, "—")
        detail = t.verdict.detail.replace("\n", "\n  ")
        out.append(f"- {t.library} `{t.implementation}` (`{t.metric}`): {mark} {detail}")
    return out


# ------------------------------------------------------------------------------------------
# the diagnosis

#: trec_eval's NaN placement is no rule of its own (issue 41): it is stated, not modelled
TREC_NAN = "For trec_eval (pytrec_eval) neither is a rule: it sorts a query's documents with `qsort` and `comp_sim_docno` (`form_res_rels.c`), for which every comparison with a NaN score is false, so where the NaN document lands depends on the other scores and on the document ids around it (`nan=first` on some inputs, `nan=last` on others); a NaN score is invalid input either way."

#: where a mechanism lives in the installed libraries' source (file and line, or upstream issue)
MECHANISM_NOTES = {
    "inf-ties=torch-sort": "torcheval `metrics/functional/classification/precision_recall_curve.py` `_compute_for_each_class`: `threshold, indices = input.sort(descending=True)`, then `mask = F.pad(threshold.diff(dim=0) != 0, [0, 1], value=1.0)`: between two equal infinite scores the difference `inf - inf` is NaN, and `NaN != 0` is true, so each tied infinite item is a threshold of its own, in `sort`'s order (not stable); `binary_auprc` integrates that curve (`_riemann_integral`).",
    "inf-ties=torch-sort+first-point=sklearn": "torcheval `_compute_for_each_class`, as for `inf-ties=torch-sort`, then `precision = torch.cat([precision, precision.new_ones(1)])` and `recall = torch.cat([recall, recall.new_zeros(1)])`: the curve ends (in its increasing-threshold order) at (0, 1).",
    "normalisation=pos+ties=numba-quicksort": "ranx `metrics/average_precision.py` `_average_precision`: a hit list over the top k of the run ranked by `typed_list_argosrt` (numba's quicksort, as for `ties=numba-quicksort`), then `np.sum(precision_scores) / qrels.shape[0]`: divided by every relevant document, not `min(k, pos)`.",
    "ties=torch-sort": "torchmetrics `functional/retrieval/precision.py`: `target_filtered[preds.topk(min(top_k, preds.shape[-1]), dim=-1)[1]]`; `r_precision.py`: `torch.argsort(preds, dim=-1, descending=True)`. Neither sort is stable, so tied documents come in whatever order torch's sort leaves them.",
    "ties=torch-sort+nonpositive-irrelevant": "torchmetrics `functional/retrieval/average_precision.py` and `precision.py`: `target = torch.where(preds > 0, target, torch.zeros_like(target))`, then `preds.topk(..., sorted=True)` (not stable); `preds` was cast to float32 first (`_check_retrieval_target_and_prediction_types`), so 1e-300 is 0 and drops its item. No relevant item left returns `tensor(0.0)`.",
    "ties=torch-sort+nonpositive-irrelevant+normalisation=hits": "torchmetrics `functional/retrieval/average_precision.py`: as above, then `(arange(len(positions)) + 1) / positions).mean()`: the mean over the relevant items found in the top k, not `min(k, pos)`.",
    "undefined=-0.0": "torcheval `metrics/functional/tensor_utils.py` `_riemann_integral`: `return -torch.sum((x[1:] - x[:-1]) * y[:-1])`, and torchmetrics `functional/classification/average_precision.py` (the same expression): with no positives recall is set to 1 everywhere (`nan_to_num(1.0)` / `torch.ones_like`), the sum is 0.0 and its negation -0.0.",
    "undefined=0.5": "scikit-learn `precision_recall_curve` with no positives sets recall to 1 at every threshold, then `auc` integrates from (0, 1) to (1, 0): 0.5 for a 0/0 metric.",
    "riemann-minoring": "Keras `src/metrics/confusion_metrics.py` `AUC.result`: `heights = ops.minimum(y[: self.num_thresholds - 1], y[1:])` for `summation_method='minoring'`.",
    "riemann-majoring": "Keras `src/metrics/confusion_metrics.py` `AUC.result`: `heights = ops.maximum(y[: self.num_thresholds - 1], y[1:])` for `summation_method='majoring'`.",
    "rejects-infinite-scores": "scikit-learn `metrics/_ranking.py`: `assert_all_finite(y_score)`; ±inf are the largest and smallest scores of a well-defined ranking.",
    "rejects-integer-scores": 'torchmetrics `utilities/checks.py` `_check_retrieval_target_and_prediction_types`: "`preds` must be a tensor of floats"; classification: "Expected argument `preds` to be an floating tensor".',
    "nan=first": "A NaN score placed above every score: numpy and torch sort NaN last, so a descending order built by reversing an ascending sort puts it first; the tie test `diff() != 0` is true for NaN, so it is its own threshold. "
    + TREC_NAN,
    "nan=last": "A NaN score placed below every score: `score >= t` and `score > t` are false for NaN, so it is never predicted positive. "
    + TREC_NAN,
    "ties=input-order": "ranx `data_structures/common.py`: `sort_dict_by_key` orders a query's documents by id, then `sort_dict_by_value` ranks them by `typed_list_argosrt([-v for v in values])` (numba's `np.argsort`), which keeps tied documents in ascending id order here: the input order of the vectors, the opposite of trec_eval's descending-id rule, so ranx is not diagnosed with trec_eval's rule. numba's `np.argsort` is a quicksort, stable only on short arrays (insertion sort); on the million tied items of `average_precision#28` the positive lands far from its input place (`ties=numba-quicksort`).",
    "ties=numba-quicksort": "ranx `data_structures/common.py` `typed_list_argosrt`: `np.argsort(array)` inside numba's `njit`, numba's quicksort (`numba/misc/quicksort.py`: insertion sort below 16 items, median-of-three partitions above, not stable), on the negated scores of the documents in id order; predicted with numba's own compiled `np.argsort` where its order differs from the input order.",
    "ties=trec_eval": "trec_eval `form_res_rels.c` `comp_sim_docno`: by score, then by document id compared with `strcmp`, descending.",
    "ties=trec_eval+scores=float32": "trec_eval's doc-id rule (`comp_sim_docno`) on scores that collide in float32 (pytrec_eval passes the run's scores to trec_eval, which holds them as float32 here). One mechanism for `map`, `P_k`, `Rprec` and `map_cut_k`: a combination the vector file leaves out (equal to the expected value) is evaluated, not taken for its first stored part.",
    "first-point=sklearn+undefined=sklearn": 'scikit-learn `metrics/_ranking.py` `precision_recall_curve`: `precision = xp.where(ps != 0, xp.divide(tps, ps), 0.0)` and `if tps[-1] == 0: ... recall = xp.full(tps.shape, 1.0)` ("No positive class found in y_true, recall is set to one for all thresholds"); `confusion_matrix_at_thresholds` filters out zero-weight samples first. torchmetrics and torcheval return the same curve.',
    "first-point=sklearn+weights-overflow": "scikit-learn `metrics/_ranking.py` `confusion_matrix_at_thresholds`: float64 cumulative sums of `y_true * weight`; with weights of 1e308 `tps[-1]` is inf, so `recall = tps / tps[-1]` is 0 then NaN.",
    "weights-overflow+nan-clipped-to-0": "scikit-learn `metrics/_ranking.py` `_binary_uninterpolated_average_precision`: `return float(max(0.0, -xp.sum(xp.diff(recall) * precision[:-1])))`, meant to clip -0.0; `max(0.0, nan)` is `0.0` in Python, so overflowing weights give AP 0.0, not NaN.",
    "fbeta-float64-overflow": "scikit-learn `metrics/_classification.py` `precision_recall_fscore_support`: `beta2 = beta**2` (Python float: `OverflowError` for beta = 1e200), `denom = beta2 * true_sum + pred_sum`, `(1 + beta2) * tp_sum / denom` (inf/inf = NaN for beta = 1e154).",
    "fbeta-float32-overflow": "torchmetrics `functional/classification/f_beta.py` `_fbeta_reduce`: `beta2 = beta**2`, `_safe_divide((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp)` in float32: 3e38 / inf = 0 for beta = 1e19, inf/inf = NaN for 1e154 and inf (no special case for beta = inf).",
    "prg-skew=odds": "precision-recall-gain 0.1.1 `prg.py` `precision_recall_gain_curve`: `proportion_of_positives = p_count / n_count` (the odds P/N, not pi = P/(P+N)), then `(precisions - proportion_of_positives) / ((1 - proportion_of_positives) * precisions)` under `np.errstate(divide='ignore', invalid='ignore')`; the area `-np.sum(np.diff(recall_gain) * precision_gain[:-1])` includes the appended point at recall 0, whose gain is ±inf.",
    "prg-gains-clipped": "sklearn-prg 0.1.3 `sklearn_prg/metrics.py` `precision_recall_gain_curve`: scikit-learn's `precision_recall_curve` (every threshold, (0, 1) appended), `prevalence = np.mean(y_true)`, gains `(x - prevalence) / ((1 - prevalence) * x)`, `np.nan_to_num(..., nan=0.0, posinf=0.0, neginf=0.0)`, `np.clip(..., 0, None)` point by point (the curve is not cut where it crosses recall gain 0), `recall_gain[recall == 1] = 1.0`; `average_precision_recall_gain` returns `auc(rg[np.argsort(rg)], pg[np.argsort(rg)])`, whose unstable argsort orders the points of equal recall gain (several at recall gain 1 on a perfect ranking: 0.75 for 1). Emulated by `prtheory.conformance.library_models.sklearn_prg_clipped`.",
    "undefined=pyprg": "pyprg `prg/prg.py` `precision_gain`/`recall_gain`: `prec_gain[tn + fn == 0] = 0`, `rg[tn + fn == 0] = 1`; without negatives every other point has `n_pos / n_neg = inf`, and `calc_auprg` adds only segments that start at a recall gain >= 0.",
    "binned(11 thresholds)+below-grid-never-positive": "torcheval `functional/classification/binned_precision_recall_curve.py` `_update`: `torch.histc(index_target, bins=2 * num_thresholds, min=0, ...)` drops an item whose score is below the first threshold (index -1) from every bin, while `num_fn = target_sum - num_tp` still counts it: the recall never reaches 1.",
    "rejects-no-relevant": "pyspark `mllib/evaluation.py` `RankingMetrics.__init__`: `sql_ctx.createDataFrame(predictionAndLabels, schema=sql_ctx._inferSchema(predictionAndLabels))`; an empty list of relevant ids has no element type (`[CANNOT_DETERMINE_TYPE]`).",
    "weights-float32-underflow+undefined=sklearn": "Keras `src/metrics/metrics_utils.py` `update_confusion_matrix_variables`: `sample_weight` cast to float32; 5e-324 and 1.5e-323 become 0, so no positive weight is left and `divide_no_nan` gives 0.",
    "cumulative-weights-float64": "scikit-learn `metrics/_ranking.py` `roc_curve`: `fpr = fps / fps[-1]`, `tpr = tps / tps[-1]` from the float64 cumulative weights of `_binary_clf_curve` (`cumulative_sum`): a weight below half an ulp of the running sum is lost (a negative of 2e267 after one of 8e292 adds nothing, and the positive above it orders no pair); with a class total of inf every rate before the last is 0 (and the last inf/inf NaN); `_binary_roc_auc_score` then takes `auc`, or with `max_fpr` interpolates the point at `max_fpr` (`np.interp`), takes `auc` and McClish's `0.5 * (1 + (partial_auc - min_area) / (max_area - min_area))`.",
    "max_fpr=float32": "torchmetrics `functional/classification/auroc.py` `_binary_auroc_compute`: `max_area: Tensor = tensor(max_fpr, device=_device)` is float32 (torch's default dtype), so a `max_fpr` below the least float32 (1e-300) is 0 and `(partial_auc - min_area) / (max_area - min_area)` is 0/0 = NaN. Its argument check, `if max_fpr is not None and not isinstance(max_fpr, float) and 0 < max_fpr <= 1: raise`, raises only for a non-float inside (0, 1], so floats outside it (0, -0.25) run; the same condition in `RetrievalAUROC` is the subject of https://github.com/Lightning-AI/torchmetrics/pull/3380 and https://github.com/Lightning-AI/torchmetrics/pull/3450 (both closed; in torchmetrics 1.9.0 `binary_auroc` still checks it so).",
    "weights-overflow": "scikit-learn `metrics/_ranking.py` `_binary_clf_curve`: `tps = xp.cumulative_sum(y_true * weight, dtype=max_float_dtype)` in float64; weights of 1e308 make the sums inf, and precision `tps / (tps + fps)` is inf/inf = NaN.",
    "weights-float32-overflow": "Keras `src/metrics/metrics_utils.py` `update_confusion_matrix_variables`: `ops.cast(sample_weight, dtype=variable_dtype)` casts `sample_weight` to the metric's float32 dtype: 1e308 and 2^1000 become inf, and the area is NaN.",
    "float32-accumulation": "Counts and divisions in float32 (torchmetrics `cumsum(target * 1.0)`; torcheval `num_tp / (num_tp + num_fp)` in torch's default dtype; Keras's float32 variables; trec_eval and ranx do not).",
}

#: modelled mechanisms with no library of this run to exhibit them, and why
NOT_OBSERVED = {
    "weights-normalised": "AP and the curves are scale-free in the weights, so dividing by the sum changes a value only where the float64 sum overflows; no installed library normalises (Keras and torchmetrics take no weights for these metrics).",
    "weights-clipped": "no installed library clips negative weights: scikit-learn passes them through (accepted-invalid), the others reject them or take no weights.",
    "davis-goadrich-for-linear / linear-for-davis-goadrich": "Keras interpolates by Davis-Goadrich as documented; scikit-learn's `auc` is linear as documented. Spark MLlib's `areaUnderPR` is linear from (0, p_first) (`first-point=spark`), checked in `tests/test_spark_mllib.py` rather than here.",
    "relevance=nonzero / relevance=gain": "trec_eval counts a label >= 1 relevant (`relevance_level` 1) and ranx a label > 0; on integer labels both are the vectors' rule, so the graded vectors agree everywhere; no library counts -1 as relevant or reports gains in P@k.",
    "binned thresholds (bin count)": "observed where the call pattern bins (torchmetrics and torcheval with 11 thresholds, Keras's default 200): the mechanism is named with its bin count. Spark's `numBins` down-sampling groups sorted scores into bins of equal count once there are 2 numBins distinct scores; Spark is not part of this run.",
}


def _diagnosis_sections(
    diags: list[ImplementationDiagnosis],
    libs: list[str],
    known: dict[tuple[str, str, str, str], str],
) -> list[str]:
    """The diagnosis table, the unexplained results (with the known divergence that shows a
    result, where one does), every divergence by mechanism, and the mechanisms found."""
    return [
        *_diagnosis_table(diags),
        *_unexplained_section(diags, known),
        *_by_mechanism(diags, libs),
        *_mechanisms_found(diags),
    ]


def _diagnosis_table(diags: list[ImplementationDiagnosis]) -> list[str]:
    """How the diagnosis works, its totals, and one row per implementation with divergences."""
    divergent = sum(len(d.divergent) for d in diags)
    before = sum(d.unnamed_before for d in diags)
    after = sum(len(d.unexplained) for d in diags)
    contradicting = sum(contradicted_attributions(d) for d in diags)
    out = [
        "## Diagnosis: the fewest mechanisms for each implementation",
        "",
        "For each implementation, all of its divergent results (every category above but ✓) are",
        "explained together by the smallest set of named mechanisms (`prtheory.conformance.mechanisms`),",
        "preferring the conventions the implementation documents, then the mechanisms found for the",
        "library's other implementations. A mechanism predicts the exact value (from the oracle, on the",
        "input as the mechanism transforms it) and is dropped when a result the library got right",
        "contradicts it; `float32-accumulation` composes with the others (their predictions are then",
        f"matched within {DEFAULT_F32_ULPS} float32 ulps). A divergence no mechanism explains is *unexplained*.",
        "",
        f"**Unexplained: {after} of {divergent} divergent results.** The first-fit classifier of the",
        "same run, which names the first convention that fits each result alone, named no cause for",
        f"{before} of them (categories W, U, A, R, X).",
        "",
        "A mechanism that another result of the same implementation contradicts (on a vector the",
        "implementation got right it predicts something else, or on a divergent vector it",
        "predicts an effect the result does not show and no combination of it explains) explains",
        "nothing; its coincidences are left unexplained. Results attributed to a mechanism that",
        f"a second vector contradicts, checked again on this diagnosis: **{contradicting}**.",
        "",
        "| library | implementation | metric | divergent | mechanisms (results each) | no cause before | unexplained |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for d in diags:
        if not d.divergent:
            continue
        counts: dict[str, int] = {}
        for name, _ in d.diagnosis.attribution.values():
            counts[name] = counts.get(name, 0) + 1
        named = ", ".join(
            f"`{n}` ({counts.get(n, 0)}){' (documented)' if _declared(n, d.claims) else ''}"
            for n in d.diagnosis.chosen
        )
        out.append(
            f"| {d.library} | `{d.implementation}` | `{d.metric}` | {len(d.divergent)} | "
            f"{named or '—'} | {d.unnamed_before} | {len(d.unexplained)} |"
        )
    return out


def _unexplained_section(
    diags: list[ImplementationDiagnosis], known: dict[tuple[str, str, str, str], str]
) -> list[str]:
    """The results no mechanism explains, with a minimal input per implementation."""
    after = sum(len(d.unexplained) for d in diags)
    out = ["", "## Unexplained divergences", ""]
    if not after:
        out += ["None.", ""]
    for d in diags:
        left = d.unexplained
        if not left:
            continue
        ids = ", ".join(str(r.vector.tc_id) for r in left)
        out.append(
            f"- {d.library} `{d.implementation}` (`{d.metric}`): {len(left)} unexplained (#{ids})"
        )
        out.append("  " + _repro(_minimal(left), unexplained=True).replace("\n", "\n  "))
        titles: dict[str, int] = {}
        for r in left:
            title = known.get((r.library, r.implementation, r.metric, r.vector.ident))
            if title is not None:
                titles[title] = titles.get(title, 0) + 1
        for title, n in titles.items():
            out.append(f"    - {n} of them shown under the known divergence *{title}*")
    return out


def _by_mechanism(diags: list[ImplementationDiagnosis], libs: list[str]) -> list[str]:
    """Every divergence, by library, implementation and mechanism, with a minimal input each."""
    out = [
        "",
        "## Every divergence, by implementation and mechanism",
        "",
        "One minimal reproducing input per (implementation, mechanism), with the value the mechanism",
        "predicts.",
        "",
    ]
    for lib in libs:
        out += [f"### {lib}", ""]
        for d in diags:
            if d.library == lib:
                out += _implementation_divergences(d)
        out.append("")
    return out


def _implementation_divergences(d: ImplementationDiagnosis) -> list[str]:
    """One implementation's line (documented conventions, counts) and its mechanisms' groups."""
    documented = ", ".join(f"`{c}`" for c in d.claims) or "none stated"
    head = f"- `{d.implementation}` (`{d.metric}`; documented conventions: {documented}): {_cell(d.rows)}"
    unsupported = sum(r.verdict.category == "unsupported" for r in d.rows)
    if unsupported:
        head += f"; {unsupported} vectors not expressible through the API"
    out = [head]
    for name in d.diagnosis.chosen:
        grp = [r for r in d.divergent if (d.mechanism(r) or ("",))[0] == name]
        if not grp:
            continue
        label = name + (", as documented" if _declared(name, d.claims) else "")
        why = CONVENTION_TEXT.get(name) or d.diagnosis.descriptions.get(name, "")
        ids = ", ".join(str(r.vector.tc_id) for r in grp[:12]) + (", …" if len(grp) > 12 else "")
        count = f"{len(grp)} result{'s' if len(grp) != 1 else ''}"
        out.append(f"  - **{label}** — {why}: {count} (#{ids})")
        r = _minimal(grp)
        out.append("  " + _repro(r, d.mechanism(r)).replace("\n", "\n  "))
    if d.unexplained:
        ids = ", ".join(str(r.vector.tc_id) for r in d.unexplained)
        out.append(f"  - **unexplained**: {len(d.unexplained)} results (#{ids})")
    return out


def _mechanisms_found(diags: list[ImplementationDiagnosis]) -> list[str]:
    """Each mechanism chosen somewhere, where, and its source; then those modelled but not found."""
    chosen_where: dict[str, list[str]] = {}
    for d in diags:
        for name in d.diagnosis.chosen:
            chosen_where.setdefault(name, []).append(f"{d.library} `{d.implementation}`")
    out = ["## Mechanisms found, with their source", ""]
    for name in sorted(chosen_where):
        where = "; ".join(chosen_where[name])
        note = MECHANISM_NOTES.get(name) or SOURCES.get(name) or CONVENTION_TEXT.get(name, "")
        out.append(
            f"- `{name}` ({len(chosen_where[name])} implementations: {where}). {note}".rstrip()
        )
    out += ["", "Modelled but not found in this run:", ""]
    out += [f"- `{name}`: {why}" for name, why in NOT_OBSERVED.items()]
    out.append("")
    return out


def _declared(name: str, claims: tuple[str, ...]) -> bool:
    return set(name.split("+")) <= set(claims)


# ------------------------------------------------------------------------------------------
# machine-readable results


def _json_value(value: Any) -> Any:
    """A returned value as JSON: floats as shortest-repr numbers (non-finite as strings), curves
    as lists, anything else as its repr."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {k: [_json_value(float(x)) for x in np.ravel(v)] for k, v in value.items()}
    try:
        f = float(value)
    except (TypeError, ValueError):
        return repr(value)
    return f if math.isfinite(f) else str(f)


def _json_expected(expected: Any) -> Any:
    if expected is None:
        return None
    if isinstance(expected, Value):
        return expected.to_json()
    return {k: [v.to_json() for v in vals] for k, vals in expected.items()}


_INLINE = 1000  # inputs longer than this are referenced by file and tcId, not copied


def _json_inputs(v: Vector) -> dict[str, Any]:
    x = v.inputs
    n = 0 if x.y_true is None else len(x.y_true)
    if n > _INLINE:
        return {"see": f"{v.metric}.json", "tcId": v.tc_id, "items": n}
    out: dict[str, Any] = {}
    for name in ("y_true", "y_score", "sample_weight"):
        arr = getattr(x, name)
        if arr is not None:
            out[name] = [_json_value(a) for a in np.asarray(arr).tolist()]
    if x.params:
        out["params"] = {k: str(val) for k, val in x.params.items()}
    return out


def results_json(run: Run) -> dict[str, Any]:
    """Every result of ``run`` with what is needed to reproduce and judge it, and the environment:
    per result the library and its version, metric, tcId, inputs (inline up to 1000 items, else
    a reference to the vector file), the expected outcome (``result`` and the exact, 40-digit and
    float64 values), what the library returned, the outcome category, the mechanism the
    diagnosis attributes it to (``None`` for an agreeing or unexplained result) with the exact
    value it predicts, the convention the first-fit classifier named, and the warnings it raised.

    Parameters
    ----------
    run : Run
        The run.

    Returns
    -------
    dict
        ``{"environment": ..., "libraries": [...], "results": [...]}``.

    Examples
    --------
    The first AP vector ranks its positives 1st, 3rd, 4th and 7th: AP = (1 + 2/3 + 3/4 + 4/7)/4
    = (84 + 56 + 63 + 48)/336 = 251/336; a library that returned 0.5 there is wrong:

    >>> from prtheory.conformance.adapters import LibraryStatus
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.runner import Row, Run
    >>> from prtheory.conformance.vectors_io import VECTOR_DIR, load_file
    >>> v = load_file(VECTOR_DIR / "average_precision.json")[0]
    >>> v.inputs.y_true.tolist(), v.expected.exact
    ([1, 0, 1, 1, 0, 0, 1, 0], Fraction(251, 336))
    >>> status = LibraryStatus("mylib", "mylib", "mylib", "1.0", True, "")
    >>> row = Row("mylib", "ap", "average_precision", v, classify(v, Outcome(value=0.5)), 0.5)
    >>> run = Run([status], [row], {})
    >>> from prtheory.conformance.report import results_json
    >>> result = results_json(run)["results"][0]
    >>> result["outcome"], result["got"], result["expected"]["exact"], result["mechanism"]
    ('wrong', 0.5, '251/336', None)
    """
    versions = {s.library: s.version for s in run.statuses}
    attributed = attributions(run)
    return {
        "environment": environment(run),
        "libraries": [
            {
                "library": s.library,
                "distribution": s.distribution,
                "version": s.version,
                "ran": s.available,
                "reason": s.reason or None,
                "shims": list(s.shims),
            }
            for s in run.statuses
        ],
        "results": [
            {
                "library": r.library,
                "version": versions.get(r.library),
                "implementation": r.implementation,
                "metric": r.metric,
                "tcId": r.vector.tc_id,
                "comment": r.vector.comment,
                "inputs": _json_inputs(r.vector),
                "result": r.vector.result,
                "expected": _json_expected(r.vector.expected),
                "got": _json_value(r.value),
                "outcome": r.verdict.category,
                "mechanism": _attributed(attributed, r)[0],
                "predicted": _attributed(attributed, r)[1],
                "first_fit_convention": r.verdict.convention,
                "detail": r.verdict.detail,
                "ulps": r.verdict.ulps,
                "warnings": list(r.warnings),
                "declared": list(r.claims),
            }
            for r in run.rows
        ],
    }


def _attributed(
    attributed: dict[tuple[str, str, str, str], tuple[str, Any]], r: Row
) -> tuple[str | None, Any]:
    """(mechanism name, its prediction as JSON) of ``r``, or (None, None)."""
    m = attributed.get((r.library, r.implementation, r.metric, r.vector.ident))
    if m is None:
        return None, None
    name, predicted = m
    text = marker_text(predicted)
    return name, _json_expected(predicted) if text is None else text


RUN_TIME = "Full run: "


def with_run_time(
    report: str,
    seconds: float,
    jobs: int,
    cpu: float | None = None,
    libraries: dict[str, dict[str, float]] | None = None,
) -> str:
    """The report with the cost of the run that made it, after the results count (the one line
    that differs between two runs; :func:`without_run_time` removes it to compare): ``cpu``
    seconds of CPU (user + system of every process), ``seconds`` of wall time, and the CPU of
    each library's start-up and units.

    Parameters
    ----------
    report : str
        The rendered report.
    seconds : float
        Wall time of the run.
    jobs : int
        Libraries run at a time.
    cpu : float, optional
        CPU seconds of every process.
    libraries : dict, optional
        Library -> ``{"start-up": s, "vectors": s}`` CPU seconds.

    Returns
    -------
    str
        The report with the cost line (:func:`insert_run_time`).

    Examples
    --------
    >>> from prtheory.conformance.report import with_run_time
    >>> report = "# Report\\n\\n3 results over 2 (metric, vector) pairs.\\n\\n## Libraries\\n"
    >>> timed = with_run_time(report, 61.4, 2, cpu=120.2, libraries={"mylib": {"vectors": 1.25}})
    >>> print(timed.splitlines()[4])
    Full run: 120 s of CPU (user + system of every process), 61 s wall, 2 libraries at a time
    (`prtheory conformance`, including imports and the report). CPU by library, start-up +
    vectors and generated inputs: mylib 0.0 + 1.2 s.
    """
    spent = "" if cpu is None else f"{cpu:.0f} s of CPU (user + system of every process), "
    line = (
        f"{RUN_TIME}{spent}{seconds:.0f} s wall, {jobs} libraries at a time "
        "(`prtheory conformance`, including imports and the report)."
    )
    if libraries:
        line += (
            " CPU by library, start-up + vectors and generated inputs: "
            + ", ".join(
                f"{lib} {c.get('start-up', 0):.1f} + {c.get('vectors', 0):.1f} s"
                for lib, c in libraries.items()
            )
            + "."
        )
    return insert_run_time(report, line)


def insert_run_time(report: str, line: str) -> str:
    """``report`` with the cost ``line`` after its results count.

    Parameters
    ----------
    report : str
        The rendered report.
    line : str
        The cost line.

    Returns
    -------
    str
        ``report`` with a blank line and ``line`` after the first line holding
        ``" results over "`` (unchanged without one).

    Examples
    --------
    >>> from prtheory.conformance.report import insert_run_time
    >>> report = "# Report\\n\\n3 results over 2 (metric, vector) pairs.\\n\\n## Libraries\\n"
    >>> insert_run_time(report, "Full run: 9 s wall.").splitlines()[2:6]
    ['3 results over 2 (metric, vector) pairs.', '', 'Full run: 9 s wall.', '']
    """
    out, done = [], False
    for text in report.splitlines(keepends=True):
        out.append(text)
        if not done and " results over " in text:
            out += ["\n", line + "\n"]
            done = True
    return "".join(out)


def without_run_time(report: str) -> str:
    """``report`` without its run-time line (and the blank line before it): the text
    :func:`render` makes from the recorded results.

    Parameters
    ----------
    report : str
        A report with or without its run-time line.

    Returns
    -------
    str
        The report without it.

    Examples
    --------
    >>> from prtheory.conformance.report import insert_run_time, without_run_time
    >>> report = "# Report\\n\\n3 results over 2 (metric, vector) pairs.\\n\\n## Libraries\\n"
    >>> without_run_time(insert_run_time(report, "Full run: 9 s wall.")) == report
    True
    """
    keep: list[str] = []
    for text in report.splitlines(keepends=True):
        if text.startswith(RUN_TIME):
            if keep and keep[-1] == "\n":
                keep.pop()
            continue
        keep.append(text)
    return "".join(keep)
