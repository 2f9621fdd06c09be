"""Pieces shared by the claim modules: rankings and their sweeps, the Davis-Goadrich area, F_beta.

Everything here is exact (``Fraction``) or mpmath, independent of the sympy derivations, so the
checks that use it are a second route to the results the derivations reach.

* :func:`rankings` -- every untied ranking of ``n_pos`` positives and ``n_neg`` negatives;
* :func:`ranking_variable`, :func:`rankings_of` -- rankings as a variable of a claim's domain;
* :func:`tied_rankings`, :func:`tied_ranking_variable` -- rankings with ties (blocks of equal
  scores), and as a domain variable; :func:`scored` -- such a ranking as labels and scores;
* :func:`sweep` -- the (TP, FP) counts after each threshold of an untied ranking;
* :func:`dg_aucpr` -- the Davis-Goadrich area under the PR curve of an untied ranking (B4, F13);
* :func:`f_beta` -- F_beta = (1 + beta^2) p r / (beta^2 p + r) (F2, N1, G4);
* :func:`round_half_up` -- exact rounding of a ``Fraction`` to a printed number of decimals;
* :func:`printed_as` -- the statement that an expression rounds to a printed decimal;
* :func:`name` -- a sympy symbol that displays as given LaTeX (left-hand sides in the documents);
* :func:`mp_fraction` -- a ``Fraction`` as an mpmath number at the working precision;
* :func:`pr_sampler` -- random rational precision, recall and one weight, for exact and mpmath checks.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from prtheory.theory.checks import Sampler, rational_sampler
from prtheory.theory.domain import Structured

__all__ = [
    "P",
    "R",
    "beta",
    "dg_aucpr",
    "f_beta",
    "mp_fraction",
    "name",
    "pr_sampler",
    "printed_as",
    "ranking_variable",
    "rankings",
    "rankings_of",
    "round_half_up",
    "scored",
    "sweep",
    "tied_ranking_variable",
    "tied_rankings",
]

#: beta > 0 of F_beta, shared by the F, N and G claims.
beta = sp.Symbol("beta", positive=True)
#: Precision and recall as the notes (N) and Gandenberger (G) write them.
P, R = sp.symbols("P R", positive=True)


def pr_sampler(other: sp.Symbol, hi: Any, first: sp.Symbol = R) -> Sampler:
    """Random rationals: P and ``first`` (R by default) in (0, 1), ``other`` in (0, hi).

    Parameters
    ----------
    other : sympy.Symbol
        The third symbol (a weight such as beta).
    hi : number
        Its upper end.
    first : sympy.Symbol
        The second symbol in (0, 1) (R by default).

    Returns
    -------
    callable
        A sampler (:func:`~prtheory.theory.checks.rational_sampler`).

    Examples
    --------
    >>> import random
    >>> from prtheory.theory.common import P, R, beta, pr_sampler
    >>> point = pr_sampler(beta, 4)(random.Random(3))
    >>> 0 < point[P] < 1 and 0 < point[R] < 1 and 0 < point[beta] < 4
    True
    """
    return rational_sampler({P: (0, 1), first: (0, 1), other: (0, hi)})


def rankings(n_pos: int, n_neg: int) -> Iterator[tuple[int, ...]]:
    """Every distinct untied ranking (top first, 1 = positive) of n_pos positives, n_neg negatives.

    Parameters
    ----------
    n_pos, n_neg : int
        The positives and negatives.

    Yields
    ------
    tuple of int
        Each ranking's labels (``C(n_pos + n_neg, n_pos)`` of them).

    Examples
    --------
    Two positives and a negative: ``C(3, 2) = 3`` places for the negative.

    >>> from prtheory.theory.common import rankings
    >>> list(rankings(2, 1))
    [(1, 1, 0), (1, 0, 1), (0, 1, 1)]
    """
    n = n_pos + n_neg
    for where in itertools.combinations(range(n), n_pos):
        chosen = set(where)
        yield tuple(1 if k in chosen else 0 for k in range(n))


def ranking_variable(
    symbol: sp.Symbol,
    admit: Callable[[tuple[int, ...]], bool] | None = None,
    largest: int = 60,
    min_neg: int = 1,
) -> Structured:
    """A domain variable running over untied rankings with at least one positive and
    ``min_neg`` negatives: every ranking of up to the exhaustive size (``admit`` may exclude
    some), and beyond it random rankings of up to ``largest`` items.

    Parameters
    ----------
    symbol : sympy.Symbol
        The variable.
    admit : callable, optional
        Which rankings to keep.
    largest : int
        The most items of a sampled ranking.
    min_neg : int
        The fewest negatives.

    Returns
    -------
    Structured
        The domain variable.

    Examples
    --------
    Up to 3 items with a positive and a negative: ``2**2 - 2 = 2`` rankings of 2 items and
    ``2**3 - 2 = 6`` of 3 (all labels but all-positive and all-negative), 8 in all:

    >>> import sympy as sp
    >>> from prtheory.theory.common import ranking_variable
    >>> from prtheory.theory.domain import Domain
    >>> ranking = sp.Symbol("ranking")
    >>> sum(1 for _ in Domain(ranking_variable(ranking), exhaustive=3).exhaustive_points())
    8
    """
    ok = admit or (lambda lab: True)

    def every(point: dict, size: int) -> Iterator[tuple[int, ...]]:
        for n in range(1 + min_neg, size + 1):
            for n_pos in range(1, n - min_neg + 1):
                yield from (lab for lab in rankings(n_pos, n - n_pos) if ok(lab))

    def draw(point: dict, rng: random.Random) -> tuple[int, ...] | None:
        for _ in range(20):
            n = rng.randint(12, largest)
            n_pos = rng.randint(1, n - min_neg)
            where = set(rng.sample(range(n), n_pos))
            lab = tuple(1 if k in where else 0 for k in range(n))
            if ok(lab):
                return lab
        return None

    text = f"an untied ranking (top first, 1 = positive), >= 1 positive, >= {min_neg} negatives"
    return Structured(symbol, every, draw, text + (", as admitted" if admit else ""))


def rankings_of(symbol: sp.Symbol, n_pos: sp.Symbol, n_neg: sp.Symbol) -> Structured:
    """A domain variable running over every untied ranking of the point's ``n_pos`` positives
    and ``n_neg`` negatives (all of them within the exhaustive size; one random one beyond).

    Parameters
    ----------
    symbol : sympy.Symbol
        The variable.
    n_pos, n_neg : sympy.Symbol
        Earlier variables of the domain: the counts.

    Returns
    -------
    Structured
        The domain variable.

    Examples
    --------
    One negative and one or two positives: 2 rankings, then 3:

    >>> import sympy as sp
    >>> from prtheory.theory.common import rankings_of
    >>> from prtheory.theory.domain import Domain, Integer
    >>> pos, neg = sp.symbols("pos neg", integer=True, positive=True)
    >>> ranking = sp.Symbol("ranking")
    >>> d = Domain(Integer(pos, 1, 2), Integer(neg, 1, 1), rankings_of(ranking, pos, neg))
    >>> [p[ranking] for p in d.exhaustive_points()]
    [(1, 0), (0, 1), (1, 1, 0), (1, 0, 1), (0, 1, 1)]
    """

    def every(point: dict, size: int) -> Iterator[tuple[int, ...]]:
        return rankings(int(point[n_pos]), int(point[n_neg]))

    def draw(point: dict, rng: random.Random) -> tuple[int, ...] | None:
        a, b = int(point[n_pos]), int(point[n_neg])
        if a + b > 400:
            return None
        where = set(rng.sample(range(a + b), a))
        return tuple(1 if k in where else 0 for k in range(a + b))

    return Structured(
        symbol, every, draw, f"an untied ranking of {n_pos} positives and {n_neg} negatives"
    )


def tied_rankings(n_pos: int, n_neg: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every ranking with ties of n_pos positives and n_neg negatives: a tuple of blocks
    ``(positives, negatives)``, top block first, each block one score shared by its items (an
    untied ranking is the case where every block holds one item).

    Parameters
    ----------
    n_pos, n_neg : int
        The positives and negatives.

    Yields
    ------
    tuple of (int, int)
        Each ranking's blocks, top first.

    Examples
    --------
    One positive and one negative: tied together, or either above the other:

    >>> from prtheory.theory.common import tied_rankings
    >>> list(tied_rankings(1, 1))
    [((0, 1), (1, 0)), ((1, 0), (0, 1)), ((1, 1),)]
    """
    if n_pos == 0 and n_neg == 0:
        yield ()
        return
    for p in range(n_pos + 1):
        for n in range(n_neg + 1):
            if p + n == 0:
                continue
            for rest in tied_rankings(n_pos - p, n_neg - n):
                yield ((p, n), *rest)


def scored(blocks: Sequence[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Labels and scores of a ranking with ties given as blocks ``(positives, negatives)``, top
    block first (:func:`tied_rankings`): block ``k`` of ``b`` has score
    ``b - k``.

    Parameters
    ----------
    blocks : sequence of (int, int)
        ``(positives, negatives)`` per block, top first.

    Returns
    -------
    tuple of (list of int, list of int)
        The labels (positives first within a block) and their scores.

    Examples
    --------
    A positive tied with a negative (score 2), then a negative (score 1):

    >>> from prtheory.theory.common import scored
    >>> scored([(1, 1), (0, 1)])
    ([1, 0, 0], [2, 2, 1])
    """
    labels: list[int] = []
    scores: list[int] = []
    for k, (n_pos, n_neg) in enumerate(blocks):
        labels += [1] * n_pos + [0] * n_neg
        scores += [len(blocks) - k] * (n_pos + n_neg)
    return labels, scores


def tied_ranking_variable(
    symbol: sp.Symbol,
    admit: Callable[[tuple[tuple[int, int], ...]], bool] | None = None,
    largest: int = 60,
    min_neg: int = 1,
) -> Structured:
    """A domain variable running over rankings with ties (:func:`tied_rankings`) with at least
    one positive and ``min_neg`` negatives: every one of up to the exhaustive size of items
    (``admit`` may exclude some), and beyond it random ones of up to ``largest`` items, with
    random block sizes (one block of everything, and untied rankings, among them).

    Parameters
    ----------
    symbol : sympy.Symbol
        The variable.
    admit : callable, optional
        Which rankings to keep.
    largest : int
        The most items of a sampled ranking.
    min_neg : int
        The fewest negatives.

    Returns
    -------
    Structured
        The domain variable.

    Examples
    --------
    Up to 2 items: one positive and one negative, in the 3 rankings of :func:`tied_rankings`:

    >>> import sympy as sp
    >>> from prtheory.theory.common import tied_ranking_variable
    >>> from prtheory.theory.domain import Domain
    >>> ranking = sp.Symbol("ranking")
    >>> sum(1 for _ in Domain(tied_ranking_variable(ranking), exhaustive=2).exhaustive_points())
    3
    """
    ok = admit or (lambda blocks: True)

    def every(point: dict, size: int) -> Iterator[tuple[tuple[int, int], ...]]:
        for n in range(1 + min_neg, size + 1):
            for n_pos in range(1, n - min_neg + 1):
                yield from (b for b in tied_rankings(n_pos, n - n_pos) if ok(b))

    def draw(point: dict, rng: random.Random) -> tuple[tuple[int, int], ...] | None:
        for _ in range(20):
            n = rng.randint(12, largest)
            n_pos = rng.randint(1, n - min_neg)
            where = set(rng.sample(range(n), n_pos))
            labels = [1 if k in where else 0 for k in range(n)]
            cut = rng.choice([1, 2, 4, n])  # mean block size: 1 untied ... n one block
            blocks, k = [], 0
            while k < n:
                m = min(n - k, rng.randint(1, 2 * cut - 1))
                block = labels[k : k + m]
                blocks.append((sum(block), m - sum(block)))
                k += m
            if ok(tuple(blocks)):
                return tuple(blocks)
        return None

    text = (
        "a ranking with ties (blocks of (positives, negatives) sharing a score, top first), "
        f">= 1 positive, >= {min_neg} negatives"
    )
    return Structured(symbol, every, draw, text + (", as admitted" if admit else ""))


def sweep(labels: Sequence[int]) -> list[tuple[int, int]]:
    """(TP, FP) after each threshold of an untied ranking (labels in rank order), from (0, 0).

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first.

    Returns
    -------
    list of (int, int)
        ``len(labels) + 1`` pairs.

    Examples
    --------
    >>> from prtheory.theory.common import sweep
    >>> sweep([1, 0, 1])
    [(0, 0), (1, 0), (1, 1), (2, 1)]
    """
    out, tp, fp = [(0, 0)], 0, 0
    for y in labels:
        tp, fp = tp + y, fp + 1 - y
        out.append((tp, fp))
    return out


def dg_aucpr(labels: Sequence[int]) -> mpmath.mpf:
    """Davis-Goadrich AUCPR of an untied ranking (top first), at the current mpmath precision.

    With untied scores, consecutive thresholds change either TP or FP by one. A step that adds
    the (x+1)-th positive below f negatives keeps FP = f, so along it precision is s / (s + f)
    at TP = s, and it contributes (1/pos) int_x^{x+1} s/(s+f) ds = (1 - f ln((x+1+f)/(x+f)))/pos
    (exactly 1/pos when f = 0). Steps that add a negative add no recall, hence no area.

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first; at least one positive.

    Returns
    -------
    mpmath.mpf
        The area.

    Examples
    --------
    ``[1, 0, 1]``: recall 0 to 1/2 at precision 1 (area 1/2), then recall 1/2 to 1 with
    TP = s from 1 to 2 and FP = 1, precision ``s/(s + 1)``: ``(1/2) int_1^2 s/(s + 1) ds =
    (1/2) (1 - ln(3/2))``; in all ``1 - ln(3/2)/2``.

    >>> import mpmath
    >>> from prtheory.theory.common import dg_aucpr
    >>> mpmath.nstr(dg_aucpr([1, 0, 1]), 15) == mpmath.nstr(1 - mpmath.log(1.5) / 2, 15)
    True
    """
    x = f = 0
    area = mpmath.mpf(0)
    for y in labels:
        if y:
            area += 1 if f == 0 else 1 - f * mpmath.log(mpmath.mpf(x + 1 + f) / (x + f))
            x += 1
        else:
            f += 1
    return area / x


def f_beta(p: Any, r: Any, b: Any = beta) -> Any:
    """F_beta = (1 + b^2) p r / (b^2 p + r), on sympy expressions or ``Fraction`` values.

    Parameters
    ----------
    p, r : sympy expression or Fraction
        Precision and recall.
    b : sympy expression or number
        Beta (the symbol ``beta`` by default).

    Returns
    -------
    sympy expression or Fraction
        F_beta.

    Examples
    --------
    ``F_1(1/2, 1/3) = 2 (1/6)/(1/2 + 1/3) = (1/3)/(5/6) = 2/5``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.common import f_beta
    >>> f_beta(Fraction(1, 2), Fraction(1, 3), 1)
    Fraction(2, 5)
    """
    return (1 + b**2) * p * r / (b**2 * p + r)


def round_half_up(v: Fraction, decimals: int) -> Fraction:
    """``v`` rounded half up to ``decimals`` decimal places, exactly (for comparing printed values).

    Parameters
    ----------
    v : Fraction
        The value.
    decimals : int
        Decimal places.

    Returns
    -------
    Fraction
        The rounded value.

    Examples
    --------
    ``1/8 = 0.125`` rounds half up to ``0.13``; ``1/3 = 0.333...`` to ``0.33``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.common import round_half_up
    >>> round_half_up(Fraction(1, 8), 2), round_half_up(Fraction(1, 3), 2)
    (Fraction(13, 100), Fraction(33, 100))
    """
    scale = 10**decimals
    return Fraction(int(v * scale + Fraction(1, 2)), scale)


def printed_as(expr: Any, printed: str) -> Any:
    """The statement that ``expr`` rounds to the decimal ``printed`` (to its number of decimals,
    half up): printed - h <= expr < printed + h, h half a unit in the last place.

    Parameters
    ----------
    expr : sympy expression
        The value.
    printed : str
        The decimal as printed.

    Returns
    -------
    sympy.And
        The two bounds, unevaluated.

    Examples
    --------
    ``"0.33"``: ``0.325 = 13/40 <= x < 0.335 = 67/200``:

    >>> import sympy as sp
    >>> from prtheory.theory.common import printed_as
    >>> printed_as(sp.Symbol("x"), "0.33")
    (13/40 <= x) & (x < 67/200)
    """
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    h = sp.Rational(1, 2 * 10**decimals)
    value = sp.Rational(printed)
    return sp.And(
        sp.Le(value - h, expr, evaluate=False),
        sp.Lt(expr, value + h, evaluate=False),
        evaluate=False,
    )


def name(latex: str) -> sp.Symbol:
    r"""A symbol that displays as the given LaTeX (for the left-hand sides of derived results).

    Parameters
    ----------
    latex : str
        The LaTeX.

    Returns
    -------
    sympy.Symbol
        The symbol.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.common import name
    >>> print(sp.latex(name(r"\mathrm{AP}_{\min}") ** 2))
    \mathrm{AP}_{\min}^{2}
    """
    return sp.Symbol(latex)


def mp_fraction(q: Fraction) -> mpmath.mpf:
    """``q`` at the current mpmath precision (one rounding of numerator/denominator).

    Parameters
    ----------
    q : Fraction
        The value.

    Returns
    -------
    mpmath.mpf
        ``q`` rounded once.

    Examples
    --------
    >>> from fractions import Fraction
    >>> import mpmath
    >>> from prtheory.theory.common import mp_fraction
    >>> with mpmath.workdps(15):
    ...     print(mp_fraction(Fraction(1, 3)))
    0.333333333333333
    """
    return mpmath.mpf(q.numerator) / q.denominator
