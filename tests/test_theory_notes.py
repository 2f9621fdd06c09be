"""Claims N1-N5 (notes on precision, recall, AP, P@k, AP@k): derivations, helpers, hand values."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.claims import claims_pass, ids
from prtheory.theory import notes
from prtheory.theory.registry import REGISTRY

test_claim_passes = claims_pass("N")


def test_verdicts():
    assert {REGISTRY[cid].verdict for cid in ids("N")} == {"holds"}


def test_n3_table_by_hand():
    # A ranked: 0.95 T, 0.85 T, 0.73 F, 0.62 F, 0.48 T, 0.39 T, 0.12 F, 0.04 F.
    # B ranked: 0.97 F, 0.88 F, 0.59 T, 0.55 T, 0.43 F, 0.32 F, 0.20 T, 0.09 T.
    assert notes.ranked(notes.SCORES_A) == (1, 1, 0, 0, 1, 1, 0, 0)
    assert notes.ranked(notes.SCORES_B) == (0, 0, 1, 1, 0, 0, 1, 1)
    # AP(A) = (1 + 1 + 3/5 + 4/6)/4 = (49/15)/4 = 49/60; AP(B) = (1/3 + 1/2 + 3/7 + 1/2)/4 = 37/84.
    assert notes.average_precision((1, 1, 0, 0, 1, 1, 0, 0)) == Fraction(49, 60)
    assert notes.average_precision((0, 0, 1, 1, 0, 0, 1, 1)) == Fraction(37, 84)


def test_n3_curves_touch_where_the_predictions_coincide():
    cmp_ = notes._curve_comparison()
    # At recall 1/2 A's precisions are 1, 2/3, 1/2 and B's 1/2, 2/5, 1/3: they share 1/2.
    assert (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)) in cmp_["sawtooth"]
    # AP's rectangles (hand): A 1, 1, 3/5, 2/3; B 1/3, 1/2, 3/7, 1/2.
    assert cmp_["step"] == [
        (1, Fraction(1, 3)),
        (1, Fraction(1, 2)),
        (Fraction(3, 5), Fraction(3, 7)),
        (Fraction(2, 3), Fraction(1, 2)),
    ]


def test_precision_at_k_pads_with_false_positives():
    # Two relevant of three returned, k = 5: 2/5; the bound n_rel/k = 2/5 is attained.
    assert notes.precision_at((1, 1, 0), 5) == Fraction(2, 5)
    assert notes.precision_at((0, 1, 0, 1), 2) == Fraction(1, 2)


def test_ap_at_k_worked_example_by_hand():
    # Top 3 = relevant, relevant, not; 4 relevant in all: (1 + 1)/min(3, 4) = 2/3 -> 0.67,
    # while the mean of P@1, P@2, P@3 is (1 + 1 + 2/3)/3 = 8/9.
    labels = (1, 1, 0, 1, 0, 0, 1)
    assert notes.average_precision_at(labels, 3) == Fraction(2, 3)
    assert sum(notes.precision_at(labels, i) for i in (1, 2, 3)) / 3 == Fraction(8, 9)
    # k larger than the number of relevant items: normalised by n_rel, (1 + 1 + 3/4 + 4/7)/4.
    assert notes.average_precision_at(labels, 7) == notes.average_precision(labels)


rankings = st.lists(st.integers(0, 1), min_size=1, max_size=30).filter(any)


@given(rankings)
def test_ap_equals_riemann_sum_over_recall_steps(labels):
    """N2 by a second route: rectangles of height P(k) and width delta r(k)."""
    n_rel = sum(labels)
    total, prev_r = Fraction(0), Fraction(0)
    for k in range(1, len(labels) + 1):
        r = Fraction(sum(labels[:k]), n_rel)
        total += Fraction(sum(labels[:k]), k) * (r - prev_r)
        prev_r = r
    assert total == notes.average_precision(labels)


@given(rankings, st.integers(1, 40))
def test_ap_at_k_bounds(labels, k):
    v = notes.average_precision_at(labels, k)
    assert 0 <= v <= 1
    assert (v == 1) == all(labels[: min(k, sum(labels))])


# ---- wrong variants are rejected by the same checks -------------------------------------------
def test_ap_divided_by_the_number_of_items_is_rejected():
    # (1, 0): AP = 1, but sum P(k) rel(k) / n = 1/2
    def per_item(labels):
        hits, total = 0, Fraction(0)
        for k, y in enumerate(labels, 1):
            if y:
                hits += 1
                total += Fraction(hits, k)
        return total / len(labels)

    assert notes.check_ap_forms(notes.average_precision, max_n=6)[0] is True
    passed, detail = notes.check_ap_forms(per_item, max_n=6)
    assert passed is False
    assert "fails at" in detail


def test_ap_at_k_normalised_by_k_is_rejected():
    # (1, 0, 0) with k = 3: the top min(3, 1) = 1 item is relevant, AP@3 = 1, but 1/3 if divided by k
    def by_k(labels, k):
        top = sum(
            notes.precision_at(labels, i)
            for i in range(1, min(k, len(labels)) + 1)
            if labels[i - 1]
        )
        return Fraction(top) / k

    assert notes.check_ap_at_k(notes.average_precision_at, max_n=5)[0] is True
    assert notes.check_ap_at_k(by_k, max_n=5)[0] is False
