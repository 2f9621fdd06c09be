"""Claims B14-B16: the F1 contour in the unachievable region (Figure 4), the impossibility of a
strictly increasing modified F1, and the relaxed requirements met by f'.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

from prtheory.data.constructed import FIGURE4_F1, FIGURE4_RECALLS, FIGURE4_SKEW
from prtheory.theory.boyd2012.formulas import (
    MODIFIED_F1,
    SKEW,
    SOURCE,
    UNIT_HOW,
    UNIT_SKEW,
    min_precision,
    modified_f1,
    p,
    pi,
    r,
    t,
)
from prtheory.theory.checks import (
    exact_function,
    exact_identity,
    interval_function,
    interval_sign,
    rational_sampler,
)
from prtheory.theory.common import name
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Proof, claim

# ==== B14 =====================================================================================

F1 = sp.Symbol("F", positive=True)


def _b14_enumeration(n_pos: int = 33, n_neg: int = 67) -> tuple[bool, str]:
    """pos = 33, neg = 67 (pi = 0.33): on the F1 = 0.45 contour, FP <= neg exactly up to r*."""
    f1 = Fraction(9, 20)
    skew = Fraction(n_pos, n_pos + n_neg)
    r_star = f1 / ((2 - f1) * skew)
    valid_int, invalid = [], []
    for tp in range(1, n_pos + 1):
        fn = n_pos - tp
        fp = Fraction(2 * tp) / f1 - 2 * tp - fn  # from 2 TP / (2 TP + FP + FN) = F1
        if fp < 0:
            continue  # recall too low for this F1 (r <= F1/2)
        achievable = fp <= n_neg
        if achievable != (Fraction(tp, n_pos) <= r_star):
            return False, f"TP = {tp}: FP = {fp}, achievable {achievable}, r* = {r_star}"
        if achievable and fp.denominator == 1:
            valid_int.append((tp, int(fp)))
        if not achievable:
            invalid.append((tp, fp))
    ok = bool(valid_int) and bool(invalid)
    return ok, (
        f"pos = {n_pos}, neg = {n_neg}: every TP on the F1 = 9/20 contour needs FP <= neg exactly when "
        f"TP/pos <= r* = {r_star}; integer valid matrices (TP, FP) = {valid_int}; unachievable from "
        f"TP = {invalid[0][0]} (FP = {invalid[0][1]} > {n_neg}) up to TP = {n_pos} (FP = {invalid[-1][1]})"
    )


def _b14_exact(n: int = 300, seed: int = 20126) -> tuple[bool, str]:
    """Random rational F1, skew and recall: contour point >= bound exactly when r <= r*."""
    rng = random.Random(seed)
    for _ in range(n):
        f1 = Fraction(rng.randint(1, 999), 1000)
        skew = Fraction(rng.randint(1, 999), 1000)
        rec = f1 / 2 + (1 - f1 / 2) * Fraction(rng.randint(1, 999), 1000)
        prec = f1 * rec / (2 * rec - f1)
        if (prec >= min_precision(rec, skew)) != (rec <= f1 / ((2 - f1) * skew)):
            return False, f"F1 = {f1}, pi = {skew}, r = {rec}"
    return True, f"{n} random rational (F1, pi, r): achievable exactly when r <= F1/((2 - F1) pi)"


@claim(
    "B14",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, Figure 4",
    title="At pi = 0.33 the F1 = 0.45 contour crosses into the unachievable region",
    statement=lambda: sp.Equivalent(
        sp.Ge(F1 * r / (2 * r - F1), min_precision(r, pi)), sp.Le(r, F1 / ((2 - F1) * pi))
    ),
    assumptions=(
        "0 < F <= 1 is the F1 value, 0 < pi < 1, F/2 < r <= 1 (where the contour exists)",
        "the figure's points A, B, C are not in the copy; explicit points are constructed",
    ),
    domain=Domain(Real(F1, 0, 1, open_lo=True), SKEW, Real(r, F1 / 2, 1, open_lo=True), samples=80),
)
def _b14(pf: Proof) -> None:
    contour = pf.obtain(
        "Solving 2pr/(p + r) = F for p: the contour",
        sp.Eq(p, sp.solve(sp.Eq(2 * p * r / (p + r), F1), p)[0]),
        "solve",
    ).rhs
    r_star = F1 / ((2 - F1) * pi)
    factor = (2 - F1) * pi * r / ((2 * r - F1) * (1 - pi + pi * r))
    pf.equal(
        "Contour minus bound factors as", contour - min_precision(r, pi), factor * (r_star - r)
    )
    e = sp.Symbol("e", positive=True)
    w = sp.Symbol("w", nonnegative=True)
    pf.sign(
        "The factor is positive (2r > F, F < 2, 0 < pi < 1), so a contour point is achievable "
        "exactly when r <= r* = F/((2 - F) pi)",
        factor,
        ">",
        {pi: 1 / (1 + t), r: (2 / (2 + w) + e) / 2, F1: 2 / (2 + w)},
        how="sign with F = 2/(2+w), r = (F + e)/2, pi = 1/(1+t); e, t > 0, w >= 0",
    )
    vals = {F1: sp.Rational(FIGURE4_F1), pi: sp.Rational(FIGURE4_SKEW)}
    pf.obtain("At F = 0.45 and pi = 0.33", sp.Eq(name("r^*"), r_star.subs(vals)), "subs")
    pf.obtain(
        "r* < 1 exactly when pi exceeds",
        sp.Eq(name(r"\pi^*"), sp.solve(sp.Eq(r_star, 1), pi)[0]),
        "solve",
    )
    pf.obtain("which at F = 0.45 is", sp.Eq(name(r"\pi^*"), (F1 / (2 - F1)).subs(vals)), "subs")
    for label, verdict in (("A", "unachievable"), ("B", "achievable"), ("C", "achievable")):
        rec = sp.Rational(FIGURE4_RECALLS[label])
        prec = contour.subs(vals).subs(r, rec)
        low = min_precision(rec, vals[pi])
        pf.true(
            f"Point {label} (as Figure 4 of the Boyd report draws it): r = {rec}, p = {prec} on "
            f"the contour, bound {low}: {verdict}",
            (sp.Lt if verdict == "unachievable" else sp.Ge)(prec, low, evaluate=False),
            "exact rational arithmetic",
        )
    pf.establish(
        "The contour is above the bound exactly up to r*, by the factorisation and its sign",
        sp.Equivalent(sp.Ge(contour, min_precision(r, pi)), sp.Le(r, r_star)),
        [2, 3],
    )
    pf.check(
        "enumeration", "A data set with pi = 0.33, every TP on the contour", _b14_enumeration()
    )
    pf.check("exact", "Random contours and skews", _b14_exact())


# ==== B15 and B16: a modified F1 ================================================================

f_ = sp.Function("f")


def _inverse_bound(q: Fraction, skew: Fraction) -> Fraction:
    """The recall r with bound(r) = q (for 0 <= q < 1)."""
    return q * (1 - skew) / (skew * (1 - q))


def _order_graph(skew: Fraction, n: int) -> tuple[dict, set]:
    """Achievable grid points, edges to the next point up or right, and the minimum-curve points.

    The grid holds recalls and precisions k/n, the skew, and the recall of every grid precision
    <= skew on the minimum curve, so that each row meets the curve at a grid point.
    """
    ps = sorted({Fraction(j, n) for j in range(n + 1)} | {skew})
    rs = sorted(
        {Fraction(j, n) for j in range(n + 1)} | {_inverse_bound(q, skew) for q in ps if q <= skew}
    )
    nodes = {(x, y) for x in rs for y in ps if y >= min_precision(x, skew)}
    succ: dict = {v: [] for v in nodes}
    for y in ps:
        row = [x for x in rs if (x, y) in nodes]
        for x1, x2 in itertools.pairwise(row):
            succ[(x1, y)].append((x2, y))
    for x in rs:
        col = [y for y in ps if (x, y) in nodes]
        for y1, y2 in itertools.pairwise(col):
            succ[(x, y1)].append((x, y2))
    zero = {(x, y) for (x, y) in nodes if y == min_precision(x, skew)}
    return succ, zero


def _reach(succ: dict, start: set, reverse: bool = False) -> set:
    graph = succ
    if reverse:
        graph = {v: [] for v in succ}
        for u, vs in succ.items():
            for v in vs:
                graph[v].append(u)
    seen, stack = set(start), list(start)
    while stack:
        for v in graph[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _b15_graph_check(
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
    n: int = 10,
) -> tuple[bool, str]:
    """Strict requirements on a grid: a directed path from a zero point to a zero point is a contradiction."""
    found = []
    for skew in skews:
        succ, zero = _order_graph(skew, n)
        start = (Fraction(0), Fraction(0))
        # each edge is a strict increase; a path zero -> ... -> zero would force 0 < 0
        after = _reach(succ, set(succ[start]))
        hits = sorted(after & zero)
        if not hits:
            return False, f"no contradiction found at pi = {skew}"
        found.append(
            f"pi = {skew}: from f(0, 0) = 0 upwards and rightwards reaches {len(hits)} point(s) "
            f"of the minimum curve, e.g. ({hits[-1][0]}, {hits[-1][1]})"
        )
    return True, "; ".join(
        found
    ) + f" (achievable points of a {n} x {n} grid plus the curve points)"


u_, v_, w_ = sp.symbols("u v w", real=True)  # f at (0, 0), (0, pi) and (1, pi)
x_, y_ = sp.symbols("x y", real=True)  # f's arguments (no sign: so that x = 0 stays a condition)


@claim(
    "B15",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, Eqs. (3)-(5)",
    title="No modified F1 is 0 on the minimum curve and strictly increasing in r and p",
    statement=lambda: sp.Not(
        sp.And(
            sp.Eq(f_(0, 0), 0),
            sp.Lt(f_(0, 0), f_(0, pi)),
            sp.Lt(f_(0, pi), f_(1, pi)),
            sp.Eq(f_(1, pi), 0),
        )
    ),
    assumptions=(
        "0 < pi < 1; f is defined on the achievable points of the unit square",
        "f's values at (0, 0), (0, pi), (1, pi) are any reals u, v, w; the statement does not "
        "change when they are scaled by a positive number, so u, v, w in [-1, 1] represent them all",
    ),
    domain=Domain(
        SKEW,
        Real(u_, -1, 1),
        Real(v_, -1, 1),
        Real(w_, -1, 1),
        define={
            f_: sp.Lambda(
                (x_, y_),
                sp.Piecewise(
                    (u_, sp.And(sp.Eq(x_, 0), sp.Eq(y_, 0))),
                    (v_, sp.And(sp.Eq(x_, 0), sp.Eq(y_, pi))),
                    (w_, True),
                ),
            )
        },
        samples=60,
    ),
)
def _b15(pf: Proof) -> None:
    r1, r2, p1, p2 = sp.symbols("r_1 r_2 p_1 p_2", nonnegative=True)
    pf.given(
        "Requirement (3): f vanishes on the minimum PR curve", sp.Eq(f_(r, min_precision(r, pi)), 0)
    )
    pf.given(
        "Requirement (4): strictly increasing in recall",
        sp.Equivalent(sp.Lt(f_(r1, p), f_(r2, p)), sp.Lt(r1, r2)),
    )
    pf.given(
        "Requirement (5): strictly increasing in precision",
        sp.Equivalent(sp.Lt(f_(r, p1), f_(r, p2)), sp.Lt(p1, p2)),
    )
    start = pf.equal("The minimum curve passes through (0, 0)", min_precision(0, pi), 0)
    end = pf.equal("and through (1, pi)", min_precision(1, pi), pi)
    pf.true(
        "All of (0, 0), (0, pi), (1, pi) are achievable (p >= bound), so f is defined there",
        sp.And(
            *(
                sp.Ge(pv, min_precision(rv, pi), evaluate=False)
                for rv, pv in ((0, 0), (0, pi), (1, pi))
            ),
            evaluate=False,
        ),
        "sign from the positivity assumptions",
    )
    pf.true(
        "(5) applies from (0, 0) to (0, pi) because 0 < pi, and (4) from (0, pi) to (1, pi) "
        "because 0 < 1: f(0, 0) < f(0, pi) < f(1, pi)",
        sp.And(sp.Gt(pi, 0, evaluate=False), sp.Lt(0, 1, evaluate=False), evaluate=False),
        "positivity of pi",
    )
    chain = len(pf.steps)
    pf.establish(
        "Suppose f met (3) at the curve's end points (0, p_min(0)) and (1, p_min(1)) together with "
        "the strict chain that (4) and (5) force through (0, pi): then 0 = f(0, 0) < f(0, pi) < "
        "f(1, pi) = 0, which is false. So no such f exists",
        sp.Not(
            sp.And(
                sp.Eq(f_(0, start), 0),
                sp.Lt(f_(0, start), f_(0, pi)),
                sp.Lt(f_(0, pi), f_(1, end)),
                sp.Eq(f_(1, end), 0),
            )
        ),
        [chain - 3, chain - 2, chain],
    )
    pf.check(
        "enumeration", "Constraint graph on rational grids of achievable points", _b15_graph_check()
    )


#: The paper's f' as a function of (r, p) at skew pi (B16).
F_PRIME = sp.Function("f'")


def b16_statement(branch: sp.Expr = MODIFIED_F1) -> sp.Basic:
    """f' is 0 for p <= pi, non-decreasing in r and in p above it, and the branch is the harmonic
    mean of r and (p - pi)/(1 - pi).

    Parameters
    ----------
    branch : sympy expression
        f' above the skew (the paper's by default).

    Returns
    -------
    sympy.And
        The four parts, unevaluated.

    Examples
    --------
    The paper's branch ``2 (p - pi) r/(p - pi + (1 - pi) r)`` is the harmonic mean of r and
    ``q = (p - pi)/(1 - pi)``: ``2 r q/(r + q)``, multiplied through by ``1 - pi``:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import MODIFIED_F1, p, pi, r
    >>> from prtheory.theory.boyd2012.modified_f import b16_statement
    >>> parts = b16_statement().args
    >>> len(parts)
    4
    >>> q = (p - pi) / (1 - pi)
    >>> sp.simplify(MODIFIED_F1 - 2 * r * q / (r + q))
    0
    """
    q = (p - pi) / (1 - pi)
    return sp.And(
        sp.Implies(sp.Le(p, pi), sp.Eq(F_PRIME(r, p), 0), evaluate=False),
        sp.Implies(sp.Gt(p, pi), sp.Ge(sp.Derivative(F_PRIME(r, p), r), 0), evaluate=False),
        sp.Implies(sp.Gt(p, pi), sp.Ge(sp.Derivative(F_PRIME(r, p), p), 0), evaluate=False),
        sp.Eq(branch, 2 * r * q / (r + q), evaluate=False),
        evaluate=False,
    )


def derive_modified_f1(pf: Proof, branch: sp.Expr) -> list[int]:
    """Show that f' = 0 for p <= pi, ``branch`` for p > pi, meets the relaxed requirements.

    Returns the steps a conclusion about f' cites.

    Parameters
    ----------
    pf : Proof
        The recorder.
    branch : sympy expression
        f' above the skew.

    Returns
    -------
    list of int
        The steps a conclusion about f' cites.

    Examples
    --------
    >>> from prtheory.theory.boyd2012.formulas import MODIFIED_F1
    >>> from prtheory.theory.boyd2012.modified_f import derive_modified_f1
    >>> from prtheory.theory.registry import Proof
    >>> pf = Proof()
    >>> derive_modified_f1(pf, MODIFIED_F1)
    [3, 4, 5, 6, 11]
    >>> all(s.verified for s in pf.steps)
    True
    """
    pf.equal(
        "On the minimum curve p <= pi, since pi - bound is",
        pi - min_precision(r, pi),
        pi * (1 - pi) * (1 - r) / (1 - pi + pi * r),
    )
    u = sp.Symbol("u", positive=True)
    pf.sign(
        "which is >= 0 for 0 < r < 1 (and pi, 0 at r = 0, 1): so f' = 0 on the curve",
        pi * (1 - pi) * (1 - r) / (1 - pi + pi * r),
        ">=",
        {r: 1 / (1 + u), pi: 1 / (1 + t)},
        how="sign with r = 1/(1+u), pi = 1/(1+t); u, t > 0",
    )
    d = sp.Symbol("d", positive=True)  # p = pi + d above random guessing
    above = {p: pi + d, pi: 1 / (1 + t)}
    how = "sign with p = pi + d, d > 0"
    cited = []
    dr = pf.value(
        "Derivative in r for p > pi",
        sp.Derivative(branch, r),
        sp.factor(sp.diff(branch, r)),
        "diff",
    )
    pf.sign("non-negative (p = pi + d, d > 0)", dr, ">=", above, how=how, where=sp.Gt(p, pi))
    cited += [len(pf.steps) - 1, len(pf.steps)]
    dp = pf.value(
        "Derivative in p for p > pi",
        sp.Derivative(branch, p),
        sp.factor(sp.diff(branch, p)),
        "diff",
    )
    pf.sign("non-negative", dp, ">=", above, how=how, where=sp.Gt(p, pi))
    cited += [len(pf.steps) - 1, len(pf.steps)]
    pf.sign("f' >= 0 above random guessing", branch, ">=", above, how=how, where=sp.Gt(p, pi))
    pf.value(
        "and it meets the zero branch continuously at p = pi (r > 0)",
        name(r"f'(r, \pi^{+})"),
        0,
        "subs",
        computed=sp.simplify(branch.subs(p, pi)),
    )
    e = sp.Symbol("e", positive=True)  # a step to the right or upwards
    for label, var, argument in (("Rows", r, "recall"), ("Columns", p, "precision")):
        pf.sign(
            f"{label} (p > pi): a step e > 0 in {argument} never lowers f' "
            f"(the difference f' after the step minus f' before is >= 0)",
            branch.subs(var, var + e) - branch,
            ">=",
            above,
            how="sign with p = pi + d; d, e > 0",
            where=sp.Gt(p, pi),
        )
    q = (p - pi) / (1 - pi)
    pf.equal(
        "It is the harmonic mean of r and the normalised precision (p - pi)/(1 - pi)",
        branch,
        2 * r * q / (r + q),
    )
    cited.append(len(pf.steps))
    pf.value(
        "and reaches 1 at the perfect point (1, 1)",
        name("f'(1, 1)"),
        1,
        "subs",
        computed=sp.simplify(branch.subs({r: 1, p: 1})),
    )
    return cited


def check_modified_f1_grid(
    branch: sp.Expr,
    n: int = 20,
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
) -> tuple[bool, str]:
    """Exact grid check of f' = 0 (p <= pi), ``branch`` (p > pi): zero on the curve, monotone, 0 iff p <= pi.

    Parameters
    ----------
    branch : sympy expression
        f' above the skew, rational in ``r``, ``p``, ``pi``.
    n : int
        The grid's step is ``1/n``.
    skews : sequence of Fraction
        The skews.

    Returns
    -------
    tuple of (bool, str)
        Whether every property holds, and the detail (the first failure).

    Examples
    --------
    ``1 - r`` decreases in r: at pi = 1/10, from ``(r, p) = (0, 1/5)`` to ``(1/10, 1/5)`` it
    drops from 1 to 9/10:

    >>> from prtheory.theory.boyd2012.formulas import MODIFIED_F1, r
    >>> from prtheory.theory.boyd2012.modified_f import check_modified_f1_grid
    >>> check_modified_f1_grid(MODIFIED_F1, n=10)[0]
    True
    >>> check_modified_f1_grid(1 - r, n=10)
    (False, 'pi = 1/10: decreases in r at (0, 1/5)')
    """
    g = exact_function((r, p, pi), branch)

    def fprime(x: Fraction, y: Fraction, skew: Fraction) -> Fraction:
        return Fraction(0) if y <= skew else g(x, y, skew)

    grid = [Fraction(j, n) for j in range(n + 1)]
    for skew in skews:
        for x in grid:
            if fprime(x, min_precision(x, skew), skew) != 0:
                return False, f"pi = {skew}: f' != 0 on the minimum curve at r = {x}"
        values = {(x, y): fprime(x, y, skew) for x in grid for y in grid}
        for x in grid:
            for y in grid:
                v = values[(x, y)]
                if (y <= skew and v != 0) or (y > skew and x > 0 and v <= 0):
                    return False, f"pi = {skew}: f'({x}, {y}) = {v}"
                if x < 1 and values[(x + Fraction(1, n), y)] < v:
                    return False, f"pi = {skew}: decreases in r at ({x}, {y})"
                if y < 1 and values[(x, y + Fraction(1, n))] < v:
                    return False, f"pi = {skew}: decreases in p at ({x}, {y})"
    return True, (
        f"pi in {{{', '.join(str(s) for s in skews)}}}, (r, p) on the {n + 1} x {n + 1} rational grid, exact: "
        "0 on the minimum curve, non-decreasing along rows and columns, 0 exactly where p <= pi "
        "(and r > 0)"
    )


def _b16_forced_zero(
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
    n: int = 10,
) -> tuple[bool, str]:
    """Relaxed requirements on a grid: the points forced to 0 are exactly the achievable p <= pi."""
    for skew in skews:
        succ, zero = _order_graph(skew, n)
        # f >= 0 where a non-decreasing path leads from the curve, f <= 0 where one leads to it
        forced = _reach(succ, zero) & _reach(succ, zero, reverse=True)
        expected = {v for v in succ if v[1] <= skew}
        if forced != expected:
            return False, f"pi = {skew}: forced set differs at {sorted(forced ^ expected)[:3]}"
    return True, (
        f"pi in {{{', '.join(str(s) for s in skews)}}}, achievable points of a {n} x {n} grid plus the curve "
        "points: exactly those with p <= pi are forced to 0 by graph reachability"
    )


def _b16_interval(branch: sp.Expr = MODIFIED_F1) -> tuple[bool, str]:
    """The derivatives of ``branch`` in r and in p, exactly as sympy returns them, certified
    positive by interval arithmetic with p = pi + q (1 - pi) (q: the normalised precision).

    The box r, q in [10^-6, 1], pi in [10^-6, 1 - 10^-6] leaves out the singular corner r = 0,
    p = pi (f' is 0/0 there) and the degenerate skews 0 and 1.
    """
    q = sp.Symbol("q", positive=True)
    eps = Fraction(1, 10**6)
    box = [(eps, 1), (eps, 1), (eps, 1 - eps)]
    parts, ok = [], True
    for var in (r, p):
        d = sp.factor(sp.diff(branch, var)).subs(p, pi + q * (1 - pi))
        good, detail = interval_sign(
            interval_function([r, q, pi], d), box, cells=6, strict=True, max_depth=10
        )
        ok &= good
        parts.append(f"d f'/d{var}: {detail}")
    return ok, "; ".join(parts) + " (coordinates r, q = (p - pi)/(1 - pi), pi)"


@claim(
    "B16",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, relaxed requirements and f'",
    title="Relaxed requirements force f' = 0 below random guessing; the paper's f' meets them",
    statement=b16_statement,
    assumptions=(
        "0 < pi < 1, 0 <= r, p <= 1; f' is defined on the achievable points",
        "relaxed requirements read as: r1 <= r2 implies f'(r1, p) <= f'(r2, p), and likewise in p",
    ),
    domain=Domain(
        SKEW,
        Real(r, 0, 1, open_lo=True),
        Real(p, 0, 1),
        define={F_PRIME: sp.Lambda((r, p), modified_f1(r, p, pi))},
        samples=80,
    ),
    verdict="holds as corrected",
    note="The slides write the relaxed requirements as 'f'(r1, p) <= f'(r2, p) iff r1 <= r2' (the paper's "
    "OCR is unclear). Read literally, the 'only if' half says r1 > r2 implies f'(r1, p) > f'(r2, p): "
    "strict monotonicity again, which B15 shows impossible, and which the paper's own f' violates "
    "(f'(1/2, 1/5) = f'(1/5, 1/5) = 0 at pi = 1/3, both points achievable). With 'if' in place of 'iff' (non-decreasing "
    "in each argument) every claim holds: any such f' is 0 on every achievable point with "
    "p <= pi, and the paper's f' meets the requirements and is the harmonic mean of r and "
    "(p - pi)/(1 - pi).",
)
def _b16(pf: Proof) -> None:
    r1, r2, p1, p2 = sp.symbols("r_1 r_2 p_1 p_2", nonnegative=True)
    third, fifth, half = sp.Rational(1, 3), sp.Rational(1, 5), sp.Rational(1, 2)
    lhs, rhs = modified_f1(half, fifth, third), modified_f1(fifth, fifth, third)
    pf.true(
        "Read with 'iff', the relaxed requirement fails for the paper's own f': at pi = 1/3 both "
        "(1/2, 1/5) and (1/5, 1/5) are achievable (precision at least the B1 bound), and "
        "f'(1/2, 1/5) <= f'(1/5, 1/5) although 1/2 > 1/5",
        sp.And(
            sp.Ge(fifth, min_precision(half, third)),
            sp.Ge(fifth, min_precision(fifth, third)),
            sp.Le(lhs, rhs),
            sp.Eq(lhs, 0),
        ),
        "exact evaluation",
        shown=sp.Tuple(
            sp.Eq(name(r"f'(1/2, 1/5)"), lhs, evaluate=False),
            sp.Eq(name(r"f'(1/5, 1/5)"), rhs, evaluate=False),
        ),
    )
    pf.given(
        "Corrected relaxed requirements (non-decreasing in each argument), with (3) unchanged",
        sp.And(
            sp.Implies(sp.Le(r1, r2), sp.Le(f_(r1, p), f_(r2, p))),
            sp.Implies(sp.Le(p1, p2), sp.Le(f_(r, p1), f_(r, p2))),
        ),
    )
    r0_step = len(pf.steps) + 1
    r0 = pf.obtain(
        "For p <= pi, the minimum curve reaches precision p at recall",
        sp.Eq(name("r_0"), sp.solve(sp.Eq(min_precision(r, pi), p), r)[0]),
        "solve",
    ).rhs
    pf.equal("r_0 <= 1 exactly when p <= pi, since", 1 - r0, (pi - p) / (pi * (1 - p)))
    db = pf.obtain(
        "The bound increases with r",
        sp.Eq(name(r"\partial\, bound / \partial r"), sp.factor(sp.diff(min_precision(r, pi), r))),
        "diff",
    ).rhs
    pf.sign("positive", db, ">", UNIT_SKEW, how=UNIT_HOW)
    v = sp.Symbol("v", positive=True)  # p = 1/(1 + v): 0 < p < 1
    r0_sym = name("r_0")
    pf.equal(
        "Achievability p >= bound(r) in terms of r_0: over a common denominator",
        p - min_precision(r, pi),
        pi * (1 - p) * (r0 - r) / (1 - pi + pi * r),
        shown=sp.Eq(
            p - min_precision(r, pi),
            pi * (1 - p) * (r0_sym - r) / (1 - pi + pi * r),
            evaluate=False,
        ),
    )
    difference_step = len(pf.steps)
    pf.sign(
        "The factor pi (1 - p)/(1 - pi + pi r) is positive, so an achievable (r, p) has r <= r_0",
        pi * (1 - p) / (1 - pi + pi * r),
        ">",
        {p: 1 / (1 + v), pi: 1 / (1 + t)},
        how="sign with p = 1/(1+v), pi = 1/(1+t); v, t > 0",
    )
    factor_step = len(pf.steps)
    pf.conclude(
        "For an achievable (r, p) with p <= pi: bound(r) <= p and r <= r_0 <= 1, so the requirements "
        "give the chain 0 = f(r, bound(r)) <= f(r, p) <= f(r_0, p) = 0, whose ends are points of "
        "the minimum curve, where (3) makes f zero: f = 0 at every achievable point with p <= pi",
        sp.Eq(f_(r, p), 0),
        [r0_step, r0_step + 1, difference_step, factor_step],
    )
    cited = derive_modified_f1(pf, MODIFIED_F1)
    pf.establish(
        "The paper's f' is 0 up to p = pi and, above it, has non-negative derivatives in r and p; "
        "its branch is the harmonic mean",
        b16_statement(MODIFIED_F1),
        cited,
    )
    pf.check("enumeration", "The paper's f' on rational grids", check_modified_f1_grid(MODIFIED_F1))
    pf.check(
        "enumeration",
        "Points forced to 0 by the relaxed requirements (graph reachability)",
        _b16_forced_zero(),
    )
    pf.check(
        "interval",
        "The paper's f' increases in r and in p above random guessing, away from the corner "
        "(r, p) = (0, pi)",
        _b16_interval(),
    )
    q = (p - pi) / (1 - pi)
    pf.check(
        "exact",
        "Harmonic mean identity at random rational points",
        exact_identity(
            MODIFIED_F1,
            2 * r * q / (r + q),
            rational_sampler({r: (0, 1), pi: (0, sp.Rational(1, 2)), p: (sp.Rational(1, 2), 1)}),
        ),
    )
