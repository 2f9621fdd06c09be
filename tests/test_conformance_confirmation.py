"""A mechanism or a named convention that names a divergence of the differential test is the
cause, not a coincidence on the shown inputs.

The implementations and the mechanisms here are written in the test from their definitions: AP
as a sum of Fractions over the positives (ties grouped, or item by item in input order or with
the positives of a tie first), and a pycm-like ROC area that rejects a score whose
``(1 - s) + s`` is not 1. Every input named in a result is drawn again from its printed
``sample(seed, family, n)`` and the claim about it (it discriminates, it contradicts) is
recomputed with those definitions.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import prtheory
from prtheory.conformance import differential as diff
from prtheory.conformance.mechanisms import mechanisms
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import Mechanism, Raised, scalar
from prtheory.conformance.sampling import FAMILIES, sample
from prtheory.conformance.vectors_io import Vector

NAME = "ties=input-order"
FLOAT32_MAX = float(np.finfo(np.float32).max)


def _ap(labels, keys) -> float:
    """AP with items of equal ``keys`` tied (grouped): the mean over the positives of the
    precision among the items whose key is at least theirs, as a Fraction rounded once."""
    y, k = [int(v) for v in labels], list(keys)
    total = Fraction(0)
    for yi, ki in zip(y, k, strict=True):
        if yi:
            above = [j for j in range(len(k)) if k[j] >= ki]
            total += Fraction(sum(y[j] for j in above), len(above))
    return float(total / sum(y))


def grouped(x: Inputs) -> float:
    """AP with ties grouped: the exact value, correctly rounded."""
    return _ap(x.labels, [float(s) for s in x.scores])


def in_order(x: Inputs) -> float:
    """AP with tied items ranked in input order (a stable sort by score, descending)."""
    return _ap(x.labels, [(float(s), -i) for i, s in enumerate(x.scores)])


def short_blocks_in_order(x: Inputs) -> float:
    """The mutant: tied blocks of at most 2 items ranked in input order, longer ones grouped."""
    size = Counter(float(s) for s in x.scores)
    return _ap(
        x.labels, [(float(s), -i if size[float(s)] <= 2 else 0) for i, s in enumerate(x.scores)]
    )


def small_in_order(x: Inputs) -> float:
    """The mutant: input order on inputs of at most 12 items (the shown ones), else grouped."""
    return in_order(x) if len(x.labels) <= 12 else grouped(x)


INPUT_ORDER = Mechanism(NAME, "ties ranked in input order", lambda v: scalar(in_order(v.inputs)))


def _drawn(text: str) -> Inputs:
    """The input ``sample(seed, family, n)`` names (unweighted: AP's cutoff-free metric)."""
    match = re.fullmatch(r"sample\((\d+), ([\w-]+), (\d+)\)", text)
    assert match, text
    seed, name, n = match.groups()
    family = next(f for f in FAMILIES if f.name == name)
    s = sample(int(seed), family, int(n))
    return Inputs(s.y_true, s.y_score, s.sample_weight)


def _longest_tie(x: Inputs) -> int:
    return max(Counter(float(s) for s in x.scores).values())


def _run(call, seed: int = diff.DEFAULT_SEED, pool=(INPUT_ORDER,)) -> diff.Divergence:
    out = diff.run(
        "average_precision",
        call,
        weighted=False,
        per_decade=0,
        max_n=100,
        seed=seed,
        mechanisms=list(pool),
    )
    (d,) = (d for d in out.divergences if d.kind == "wrong")  # the run stops at the first
    return d


@pytest.mark.parametrize(
    ("mutant", "seed"),
    [
        # seed 6: round 0's third input, sample(8, extremes, 10), has no tie of over 2 items
        (short_blocks_in_order, 6),
        (small_in_order, diff.DEFAULT_SEED),
    ],
)
def test_a_mutant_agreeing_with_input_order_only_on_the_shown_inputs_is_not_named(mutant, seed):
    d = _run(mutant, seed)
    drawn = _drawn(d.spec.text())
    # the two shown inputs cannot tell the mutant from input order: a rule that names a
    # mechanism on the shown inputs alone would name it
    for x in (drawn, d.shrunk):
        assert mutant(x) == in_order(x) != grouped(x)
    if mutant is short_blocks_in_order:
        assert _longest_tie(drawn) <= 2
    assert NAME not in d.mechanisms + d.mechanisms_shrunk
    assert d.confirmation.dropped == (NAME,)
    (c,) = d.confirmation.contradicted
    x = _drawn(c.input)
    assert c.predicted.float64 == in_order(x) != grouped(x)  # it discriminates ...
    assert c.returned == mutant(x) != in_order(x)  # ... and the mutant does not follow it
    if mutant is short_blocks_in_order:
        assert _longest_tie(x) > 2
    else:
        assert len(x.labels) > 12
    shown = f"coincided with the mechanism `{NAME}` on the shown inputs, but {c.input} contradicts"
    assert shown in diff.describe(d)
    assert "predicts, on both inputs" not in diff.describe(d)


def test_an_implementation_that_is_the_mechanism_is_named_and_confirmed():
    d = _run(in_order)
    assert d.mechanisms == (NAME,)
    assert d.confirmation.dropped == d.unconfirmed == ()
    confirming = d.confirmation.on(NAME)
    assert len(confirming) == 3
    for text in confirming:  # each a further input on which input order changes AP
        x = _drawn(text)
        assert in_order(x) != grouped(x)
        assert int(text.split("(")[1].split(",")[0]) >= diff.DEFAULT_SEED + 10**7
    shown = f"`{NAME}` predicts, on both inputs; confirmed on 3 further inputs where it differs"
    assert shown in diff.describe(d)


def _pycm_like(x: Inputs):
    """pycm's curves check that each item's class probabilities ``[1 - s, s]`` sum to 1 within
    0.001 (a NaN sum passes, as NaN > 0.001 is false); the area is otherwise right."""
    for s in x.scores.tolist():
        if abs((1 - s) + s - 1) > 0.001:
            return Raised("raised ValueError: The sum of the probability values must equal 1.")
    return float(prtheory.roc_auc(x.labels, x.scores, sample_weight=x.sample_weight))


def test_of_two_rejections_that_coincide_the_cause_is_confirmed_and_the_other_contradicted():
    # the first divergence holds a score of about 1.8e308, whose (1 - s) + s is 0, and weights
    # beyond float32's largest: both the probability-sum check and XGBoost's finite-float32
    # weight check predict the exception there
    out = diff.run("roc_auc", _pycm_like, per_decade=0, max_n=100, mechanisms=mechanisms("roc_auc"))
    (d,) = out.divergences
    drawn = _drawn(d.spec.text())
    for x in (drawn, d.shrunk):
        assert np.max(np.abs(x.scores)) > 1e308
        assert np.max(x.sample_weight) > FLOAT32_MAX
    assert d.mechanisms == ("rejects-probability-sum",)
    assert len(d.confirmation.on("rejects-probability-sum")) == 3
    for text in d.confirmation.on("rejects-probability-sum"):
        assert isinstance(_pycm_like(_drawn(text)), Raised)
    (c,) = d.confirmation.contradicted
    assert c.mechanism == "rejects-weights-beyond-float32"
    x = _drawn(c.input)  # huge weights, but every score a probability
    assert np.max(x.sample_weight) > FLOAT32_MAX
    assert 0 <= x.scores.min() <= x.scores.max() < 1
    assert c.returned == prtheory.roc_auc(x.labels, x.scores, sample_weight=x.sample_weight)


def test_the_same_seed_gives_the_same_names_and_another_seed_other_inputs():
    first, again = _run(short_blocks_in_order, 6), _run(short_blocks_in_order, 6)
    assert (first.mechanisms, first.confirmation) == (again.mechanisms, again.confirmation)
    a, b = _run(in_order, diff.DEFAULT_SEED), _run(in_order, diff.DEFAULT_SEED + 1)
    assert a.mechanisms == b.mechanisms == (NAME,)
    assert set(a.confirmation.on(NAME)).isdisjoint(b.confirmation.on(NAME))


def test_a_mechanism_no_further_input_can_refute_is_named_unconfirmed():
    # the implementation returns 1/7 where the first score of round 0's first input is among
    # the scores, else the exact AP; the mechanism predicts the same: 1/7 there, the exact AP
    # elsewhere, where it is the expected value, so no further input discriminates it
    first = sample(diff.DEFAULT_SEED, FAMILIES[0], 10)
    marker = first.y_score[0]
    asked_elsewhere = []

    def predict(v: Vector):
        if marker in v.inputs.scores:
            return scalar(1 / 7)
        asked_elsewhere.append(len(v.inputs.labels))
        return scalar(grouped(v.inputs))

    def call(x: Inputs) -> float:
        return 1 / 7 if marker in x.scores else grouped(x)

    d = _run(call, pool=[Mechanism("marker", "1/7 where the marker is", predict)])
    assert d.spec.seed == diff.DEFAULT_SEED
    assert d.mechanisms == d.unconfirmed == ("marker",)
    assert d.confirmation.calls == 0  # the implementation is never called to confirm
    assert d.confirmation.drawn == len(asked_elsewhere) == 24
    assert (
        "`marker` predicts, on both inputs; unconfirmed: none of the 24 further inputs drawn confirms"
        in (diff.describe(d))
    )


def r_precision_in_order(x: Inputs) -> float:
    """R-precision with ties in input order: the positives among the first R items of a stable
    sort by score, descending (R the number of positives), over R."""
    order = sorted(range(len(x.labels)), key=lambda i: -float(x.scores[i]))
    r = int(sum(x.labels))
    return float(Fraction(sum(int(x.labels[i]) for i in order[:r]), r))


def test_a_float64_implementation_returning_float32_values_is_compared_in_float32():
    # R-precision with ties in input order, rounded to float32 (float32 arithmetic, as
    # torchmetrics'): the shown values are float32 values (halves), so the mechanism is named
    # in float64; on further inputs a value such as 10/27 comes back rounded to float32, some
    # 10^8 float64 ulps off, which is float32 arithmetic, no contradiction
    def in_float32(x: Inputs) -> float:
        return float(np.float32(r_precision_in_order(x)))

    pool = [Mechanism(NAME, "input order", lambda v: scalar(r_precision_in_order(v.inputs)))]
    out = diff.run(
        "r_precision", in_float32, weighted=False, per_decade=0, max_n=100, mechanisms=pool
    )
    (d,) = (d for d in out.divergences if d.kind == "wrong")
    assert d.got == r_precision_in_order(_drawn(d.spec.text()))  # exact in float32 too
    assert d.shrunk_got == r_precision_in_order(d.shrunk)
    assert (d.mechanisms, d.mechanisms_float32) == ((NAME,), False)
    confirming = d.confirmation.on(NAME)
    assert confirming
    assert d.confirmation.contradicted == ()
    values = [r_precision_in_order(_drawn(t)) for t in confirming]
    assert any(float(np.float32(v)) != v for v in values)


def test_an_input_the_implementation_raises_on_neither_confirms_nor_contradicts():
    # input order, but a rejection of any infinite score (as Keras' adapter cannot pass one and
    # some libraries reject them before ranking): the mechanism predicts a value there, and the
    # rejection neither confirms it nor contradicts it; the name stands, confirmed elsewhere
    def finite_only(x: Inputs):
        if np.isinf(x.scores).any():
            return Raised("raised ValueError: Input contains infinity")
        return in_order(x)

    d = _run(finite_only)
    assert d.mechanisms == (NAME,)
    assert d.confirmation.contradicted == ()
    confirming = d.confirmation.on(NAME)
    assert len(confirming) == 3
    assert not any(np.isinf(_drawn(t).scores).any() for t in confirming)
    # among the inputs drawn before the third confirmation, one with an infinite score that
    # input order changes: it was asked, and left out
    specs = diff.confirmation_specs(
        diff.DEFAULT_SEED, tuple(f for f in FAMILIES if f.weights == "none")
    )
    drawn = [_drawn(s.text()) for s in specs[: d.confirmation.drawn]]
    assert any(np.isinf(x.scores).any() and in_order(x) != grouped(x) for x in drawn)


# ------------------------------------------------------------------------------------------
# the named conventions: each confirmed as the mechanism predicting its value

OPTIMISTIC = "ties=optimistic"


def optimistic(x: Inputs) -> float:
    """AP with every tie broken optimistically: in a block of equal scores the positives come
    first (the order among the positives, and among the negatives, does not change AP)."""
    pairs = zip(x.scores, x.labels, strict=True)
    return _ap(x.labels, [(float(s), int(y), -i) for i, (s, y) in enumerate(pairs)])


def short_blocks_optimistic(x: Inputs) -> float:
    """The mutant: tie blocks of at most 2 items broken optimistically, longer ones grouped."""
    size = Counter(float(s) for s in x.scores)
    keys = [
        (float(s), int(y), -i) if size[float(s)] <= 2 else (float(s), 0, 0)
        for i, (s, y) in enumerate(zip(x.scores, x.labels, strict=True))
    ]
    return _ap(x.labels, keys)


def small_optimistic(x: Inputs) -> float:
    """The mutant: optimistic ties on inputs of at most 12 items (the shown ones), else grouped."""
    return optimistic(x) if len(x.labels) <= 12 else grouped(x)


def _contradiction(d: diff.Divergence, name: str):
    (c,) = (c for c in d.conventions_confirmation.contradicted if c.mechanism == name)
    return c, _drawn(c.input)


@pytest.mark.parametrize(
    ("mutant", "seed"),
    [
        # seed 6: round 0's third input, sample(8, extremes, 10), has no tie of over 2 items
        (short_blocks_optimistic, 6),
        (small_optimistic, diff.DEFAULT_SEED),
    ],
)
def test_a_mutant_agreeing_with_a_convention_only_on_the_shown_inputs_is_not_named(mutant, seed):
    d = _run(mutant, seed, pool=())
    drawn = _drawn(d.spec.text())
    # the shown inputs cannot tell the mutant from optimistic ties: naming on them alone
    # names the convention
    for x in (drawn, d.shrunk):
        assert mutant(x) == optimistic(x) != grouped(x)
    if mutant is short_blocks_optimistic:
        assert _longest_tie(drawn) <= 2
    assert OPTIMISTIC in d.conventions_confirmation.dropped
    assert OPTIMISTIC not in d.conventions
    c, x = _contradiction(d, OPTIMISTIC)
    assert c.predicted.float64 == optimistic(x) != grouped(x)  # it discriminates ...
    assert c.returned == mutant(x) != optimistic(x)  # ... and the mutant does not follow it
    if mutant is short_blocks_optimistic:
        assert _longest_tie(x) > 2
    else:
        assert len(x.labels) > 12
    text = diff.describe(d)
    shown = f"coincided with the named convention `{OPTIMISTIC}` on the shown inputs, but {c.input}"
    assert shown + " contradicts it" in text
    assert f"`{OPTIMISTIC}` gives" not in text


def test_an_implementation_of_a_convention_is_named_and_a_coincident_one_dropped():
    # seed 10: on both shown inputs the positive comes first in every tie, so input order gives
    # the optimistic value too (as ranx's precision@k lists both); a further input tells them
    # apart
    d = _run(optimistic, 10, pool=())
    for x in (_drawn(d.spec.text()), d.shrunk):
        assert optimistic(x) == in_order(x) != grouped(x)
    assert (d.conventions, d.named_on) == ((OPTIMISTIC,), "both inputs")
    confirming = d.conventions_confirmation.on(OPTIMISTIC)
    assert len(confirming) == 3
    for text in confirming:  # each a further input on which optimistic ties change AP
        x = _drawn(text)
        assert optimistic(x) != grouped(x)
        assert int(text.split("(")[1].split(",")[0]) >= 10 + 10**7
    c, x = _contradiction(d, NAME)
    assert c.predicted.float64 == in_order(x) != grouped(x)
    assert c.returned == optimistic(x) != in_order(x)
    shown = f"`{OPTIMISTIC}` gives, on both inputs; confirmed on 3 further inputs where it differs"
    assert shown in diff.describe(d)
    assert f"coincided with the named convention `{NAME}` on the shown inputs" in diff.describe(d)


def test_a_convention_and_a_mechanism_are_asked_with_one_call_per_input():
    # input order is both a named convention of AP and the mechanism of the pool: both are
    # named and confirmed on the same inputs, each input costing one call at most
    calls = []

    def counted(x: Inputs) -> float:
        calls.append(len(x.labels))
        return in_order(x)

    d = _run(counted)
    assert d.conventions == d.mechanisms == (NAME,)
    found = d.conventions_confirmation
    assert found.on(NAME) == d.confirmation.on(NAME)
    assert len(found.on(NAME)) == 3
    assert found.calls == d.confirmation.calls <= found.drawn
    # the last calls are the confirming ones, one per input asked
    drawn = [
        _drawn(s.text())
        for s in diff.confirmation_specs(
            diff.DEFAULT_SEED, tuple(f for f in FAMILIES if f.weights == "none")
        )[: found.drawn]
    ]
    asked = [x for x in drawn if in_order(x) != grouped(x)]
    assert found.calls == len(asked)
    assert calls[-found.calls :] == [len(x.labels) for x in asked]


def test_the_same_seed_names_the_same_conventions():
    first, again = (
        _run(short_blocks_optimistic, 6, pool=()),
        _run(short_blocks_optimistic, 6, pool=()),
    )
    assert (first.conventions, first.conventions_confirmation) == (
        again.conventions,
        again.conventions_confirmation,
    )
    a, b = _run(optimistic, diff.DEFAULT_SEED, pool=()), _run(optimistic, 11, pool=())
    assert a.conventions == b.conventions == (OPTIMISTIC,)
    assert len(a.conventions_confirmation.on(OPTIMISTIC)) == 3
    assert len(b.conventions_confirmation.on(OPTIMISTIC)) == 3
    assert set(a.conventions_confirmation.on(OPTIMISTIC)).isdisjoint(
        b.conventions_confirmation.on(OPTIMISTIC)
    )
