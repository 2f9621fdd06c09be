"""The machine-readable domain of a claim: over what its statement is checked, and what its names
mean.

A claim's ``assumptions`` say in words where its statement holds; its :class:`Domain` says it in
a form the registry evaluates (:mod:`prtheory.theory.statement`), independently of the claim's
derivation and of any check its author wrote:

* **variables**, in order, each bounded by numbers or by earlier variables:
  :class:`Integer` (``Integer(TP, 1, pos)``: 1 <= TP <= pos; no upper bound: unbounded),
  :class:`Real` (``Real(pi, 0, 1, open_lo=True, open_hi=True)``: 0 < pi < 1) and
  :class:`Structured` (a ranking, a table: any finite object, enumerated by size and sampled
  beyond it);
* **definitions** (``define``): what each other name of the statement means, as a sympy
  expression in the variables (``p: TP/(TP + FP)``), as a ``sympy.Lambda`` for an undefined
  function (``F: Lambda((P, R), ...)``), or as a :class:`Meaning`, a Python function of the point
  (the least AP over every ranking, computed by enumeration) that may decline a point beyond its
  reach;
* **constraints** (``where``): sympy relations between the variables that bounds cannot express;
* **coverage**: ``exhaustive`` (every point whose unbounded integer variables sum to at most this
  size is checked; a domain without unbounded integer or real variables is finite and checked
  whole), ``large`` (beyond the exhaustive size, sampled points reach this value: an unbounded
  integer takes, half of the time, one of its 33 smallest values, a power of two or ``large``
  itself, else a log-uniform value) and ``samples`` (how many sampled points; real variables
  get random, boundary and near-singular values). A claim may ask for more than the registry's
  floors, :data:`LARGE` and :data:`MIN_SAMPLES`, never for less: how far beyond its exhaustive
  size a statement is checked is not the claim's to narrow (a claim false from pos = 10 on would
  otherwise pass with ``large=9`` or ``samples=0``).

The definitions and constraints are also what the final inference of a derivation may use
(:meth:`Domain.expand` substitutes the definitions, :meth:`Domain.constraints` gives the bounds):
a definition in the domain is not a ``given`` that the author asserts, but the meaning under
which the statement is checked.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

__all__ = ["Domain", "Integer", "Meaning", "Real", "Structured", "rebuild"]

#: Seed of every sampler (the generated documents are deterministic).
SEED = 20240611
#: The least ``large`` a domain may declare: sampled integers reach 10^6.
LARGE = 10**6
#: The least number of sampled points a domain may declare.
MIN_SAMPLES = 16


@dataclass(frozen=True)
class Integer:
    """An integer variable ``lo <= symbol <= hi``; ``hi = None`` leaves it unbounded above.

    ``lo`` and ``hi`` are numbers or sympy expressions in earlier variables (``Integer(TP, 1,
    pos)``).

    Examples
    --------
    ``1 <= pos <= 2`` and ``0 <= TP <= pos``: by hand, ``pos = 1`` gives TP = 0, 1 and
    ``pos = 2`` gives TP = 0, 1, 2, five points in all:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> pos, tp = sp.symbols("pos TP", integer=True, nonnegative=True)
    >>> d = Domain(Integer(pos, 1, 2), Integer(tp, 0, pos))
    >>> [(int(p[pos]), int(p[tp])) for p in d.exhaustive_points()]
    [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]
    >>> Integer(tp, 0, pos).text()
    '0 <= TP <= pos, an integer'
    """

    symbol: sp.Symbol
    lo: Any
    hi: Any = None

    def text(self) -> str:
        s = str(self.symbol)
        if self.hi is None:
            return f"{s} >= {self.lo}, an integer"
        return f"{self.lo} <= {s} <= {self.hi}, an integer"


@dataclass(frozen=True)
class Real:
    """A real variable in the interval from ``lo`` to ``hi``, each end open or closed.

    The ends are numbers or sympy expressions in earlier variables (``Real(b, a, 1,
    open_lo=True)``: a < b <= 1); ``hi`` may be ``sympy.oo`` (``Real(beta, 0, oo,
    open_lo=True)``: beta > 0), sampled log-uniformly up to 10^6.

    Examples
    --------
    ``0 < x <= 1``: its exhaustive points are the quarter points ``1/4, 1/2, 3/4`` and the
    closed end ``1`` (the open end ``0`` is left out):

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Real
    >>> x = sp.Symbol("x", positive=True)
    >>> [str(p[x]) for p in Domain(Real(x, 0, 1, open_lo=True)).exhaustive_points()]
    ['1/4', '1/2', '3/4', '1']
    """

    symbol: sp.Symbol
    lo: Any
    hi: Any
    open_lo: bool = False
    open_hi: bool = False

    def text(self) -> str:
        left = "<" if self.open_lo else "<="
        right = "<" if self.open_hi else "<="
        return f"{self.lo} {left} {self.symbol} {right} {self.hi}, real"


@dataclass(frozen=True)
class Structured:
    """A finite object (a ranking, a table) stood for by ``symbol``; :class:`Meaning` functions
    read it from the point.

    ``enumerate(point, size)`` yields every object of size at most ``size`` given the earlier
    variables; ``sample(point, rng)`` draws one larger object (or None when there is none).

    Examples
    --------
    Label sequences of length 1 to ``size``: with ``exhaustive=2`` there are ``2 + 2**2 = 6``:

    >>> import itertools
    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Structured
    >>> s = sp.Symbol("s")
    >>> def labels(point, size):
    ...     for n in range(1, size + 1):
    ...         yield from itertools.product((0, 1), repeat=n)
    >>> d = Domain(Structured(s, labels, lambda point, rng: None, "0/1 labels"), exhaustive=2)
    >>> [p[s] for p in d.exhaustive_points()]
    [(0,), (1,), (0, 0), (0, 1), (1, 0), (1, 1)]
    """

    symbol: sp.Symbol
    enumerate: Callable[[dict, int], Iterable[Any]]
    sample: Callable[[dict, random.Random], Any]
    description: str

    def text(self) -> str:
        return f"{self.symbol}: {self.description}"


@dataclass(frozen=True)
class Meaning:
    """A name evaluated by a Python function of the point (a dict from symbols to values).

    For a symbol, ``fn(point)`` returns an exact value (``Fraction`` or ``int``), an
    ``mpmath.mpf`` (a value at working precision: the point is then tested, not certified) or
    ``None`` when the point is beyond its reach (too large to enumerate, for example). For an
    undefined function (``sympy.Function("P")``), ``fn(point, *args)`` gives its value at
    integer arguments (the precision at rank k of the point's ranking, say).

    Examples
    --------
    ``S`` stands for ``1 + 2 + ... + n``, computed by a loop (``n = 4``: ``10``):

    >>> from fractions import Fraction
    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer, Meaning
    >>> n, S = sp.symbols("n S", positive=True, integer=True)
    >>> total = Meaning(lambda point: sum(range(1, int(point[n]) + 1)), "1 + 2 + ... + n")
    >>> total.fn({n: Fraction(4)})
    10
    >>> list(Domain(Integer(n, 1), define={S: total}, exhaustive=5).meanings())
    [S]
    """

    fn: Callable[..., Any]  # (point) for a symbol, (point, *args) for a function
    description: str


Variable = Integer | Real | Structured


@dataclass
class Domain:
    """Where a claim's statement is checked (see the module docstring).

    Examples
    --------
    Every contingency table with ``TP >= 1``, ``FP >= 0`` and precision defined from it: its
    bounds are the facts a final inference may use, its definitions are substituted.

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> TP, FP, P = sp.symbols("TP FP P", positive=True)
    >>> d = Domain(Integer(TP, 1), Integer(FP, 0), define={P: TP / (TP + FP)}, exhaustive=3)
    >>> d.expand(sp.Le(P, 1))
    TP/(FP + TP) <= 1
    >>> d.constraints()
    [1 <= TP, 0 <= FP]

    By hand, the points with ``TP + FP <= 3`` and ``TP >= 1`` are ``(1, 0), (1, 1), (1, 2),
    (2, 0), (2, 1), (3, 0)``, six of them:

    >>> sum(1 for _ in d.exhaustive_points())
    6

    A domain cannot narrow the check:

    >>> Domain(Integer(TP, 1), exhaustive=3, samples=4)
    Traceback (most recent call last):
    ...
    ValueError: domain: samples=4 is below 16: the statement is checked at at least that many sampled points, whatever the claim declares
    """

    variables: Sequence[Variable]
    define: dict[Any, Any] = field(default_factory=dict)
    where: Sequence[Any] = ()
    exhaustive: int = 0
    large: int = LARGE
    samples: int = 120

    def __init__(
        self,
        *variables: Variable,
        define: dict[Any, Any] | None = None,
        where: Sequence[Any] = (),
        exhaustive: int = 0,
        large: int = LARGE,
        samples: int = 120,
    ) -> None:
        if large < LARGE:
            raise ValueError(
                f"domain: large={large} is below {LARGE:,}: sampled points reach at least that "
                "far, whatever the claim declares"
            )
        if samples < MIN_SAMPLES:
            raise ValueError(
                f"domain: samples={samples} is below {MIN_SAMPLES}: the statement is checked at "
                "at least that many sampled points, whatever the claim declares"
            )
        self.variables = tuple(variables)
        self.define = dict(define or {})
        self.where = tuple(where)
        self.exhaustive = exhaustive
        self.large = large
        self.samples = samples
        seen: set[sp.Symbol] = set()
        for v in self.variables:
            if v.symbol in seen:
                raise ValueError(f"domain: variable {v.symbol} declared twice")
            if isinstance(v, (Integer, Real)):
                for end in (v.lo, v.hi):
                    loose = sp.sympify(end).free_symbols - seen if end is not None else set()
                    if loose:
                        raise ValueError(
                            f"domain: the bounds of {v.symbol} use {sorted(map(str, loose))}, "
                            "which no earlier variable declares"
                        )
            seen.add(v.symbol)
        unbounded = [v for v in self.variables if isinstance(v, Integer) and v.hi is None]
        if unbounded and self.exhaustive < 1:
            raise ValueError(
                "domain: unbounded integer variables need an exhaustive size (exhaustive=N: every "
                "point whose unbounded variables sum to at most N is checked)"
            )

    # ---- what the domain says --------------------------------------------------------------
    @property
    def symbols(self) -> list[sp.Symbol]:
        return [v.symbol for v in self.variables]

    @property
    def finite(self) -> bool:
        """Every variable is a bounded integer (or a structured object enumerated whole)."""
        return not any(
            isinstance(v, Real) or (isinstance(v, Integer) and v.hi is None) for v in self.variables
        ) and not any(isinstance(v, Structured) for v in self.variables)

    @property
    def continuous(self) -> bool:
        """Only real variables with finite ends (a box interval branch and bound can cover)."""
        return bool(self.variables) and all(
            isinstance(v, Real) and sp.sympify(v.hi) != sp.oo for v in self.variables
        )

    def meanings(self) -> dict[sp.Symbol, Meaning]:
        """The names (symbols) evaluated by Python functions."""
        return {
            s: m
            for s, m in self.define.items()
            if isinstance(m, Meaning) and isinstance(s, sp.Symbol)
        }

    def function_meanings(self) -> dict[Any, Meaning]:
        """The functions (``sympy.Function`` classes) evaluated by Python functions."""
        return {
            f: m
            for f, m in self.define.items()
            if isinstance(m, Meaning) and not isinstance(f, sp.Symbol)
        }

    def expressions(self) -> dict[Any, Any]:
        """The definitions that are sympy expressions or ``Lambda`` s (not Python functions)."""
        return {s: e for s, e in self.define.items() if not isinstance(e, Meaning)}

    def expand(self, expr: Any) -> Any:
        """``expr`` with every expression definition substituted (to a fixed point) and every
        defined function applied; a :class:`Meaning` stays a symbol. Relations and logical
        connectives are rebuilt unevaluated (a definition never turns a statement into True)."""
        expr = sp.sympify(expr)
        symbols = {
            s: sp.sympify(e) for s, e in self.expressions().items() if isinstance(s, sp.Symbol)
        }
        functions = {f: e for f, e in self.expressions().items() if not isinstance(f, sp.Symbol)}
        if not symbols and not functions:
            return expr
        return rebuild(expr, lambda e: _substitute(e, symbols, functions))

    def constraints(self) -> list[Any]:
        """The bounds of the variables and the ``where`` constraints, as sympy relations (the
        facts a final inference may use beside the definitions, which it applies by
        substitution: :meth:`expand`)."""
        out: list[Any] = []
        for v in self.variables:
            if isinstance(v, Integer):
                out.append(sp.Le(sp.sympify(v.lo), v.symbol, evaluate=False))
                if v.hi is not None:
                    out.append(sp.Le(v.symbol, sp.sympify(v.hi), evaluate=False))
            elif isinstance(v, Real):
                rel_lo = sp.Lt if v.open_lo else sp.Le
                rel_hi = sp.Lt if v.open_hi else sp.Le
                out.append(rel_lo(sp.sympify(v.lo), v.symbol, evaluate=False))
                out.append(rel_hi(v.symbol, sp.sympify(v.hi), evaluate=False))
        out += list(self.where)
        return out

    def describe(self) -> list[str]:
        """The domain in words, one line per variable, definition and constraint, then coverage."""
        lines = [v.text() for v in self.variables]
        for s, e in self.define.items():
            shown = (
                e.description
                if isinstance(e, Meaning)
                else (str(e.expr) if isinstance(e, sp.Lambda) else str(e))
            )
            head = (
                f"{s}({', '.join(map(str, e.variables))})" if isinstance(e, sp.Lambda) else str(s)
            )
            lines.append(f"{head} := {shown}")
        lines += [f"where {c}" for c in self.where]
        return lines

    def coverage_text(self) -> str:
        if not self.variables:
            return "a closed statement (no variables)"
        if self.finite:
            return "finite: every point"
        parts = []
        unbounded = [
            str(v.symbol) for v in self.variables if isinstance(v, Integer) and v.hi is None
        ]
        if unbounded:
            parts.append(
                f"every point with {' + '.join(unbounded)} <= {self.exhaustive}, then points up to "
                f"{self.large:,} (powers of two included)"
            )
        structured = [str(v.symbol) for v in self.variables if isinstance(v, Structured)]
        if structured:
            parts.append(
                f"every {' and '.join(structured)} of size <= {self.exhaustive}, then "
                f"{self.samples} sampled larger ones"
            )
        if any(isinstance(v, Real) for v in self.variables):
            parts.append(f"{self.samples} random, boundary and near-singular points")
        return "; ".join(parts)

    # ---- points ------------------------------------------------------------------------------
    def _bound(self, end: Any, point: dict) -> Fraction:
        from prtheory.theory.evaluate import exact_value

        return exact_value(sp.sympify(end), point)

    def _integer_range(self, v: Integer, point: dict, top: int) -> range:
        lo = self._bound(v.lo, point)
        lo_i = -((-lo.numerator) // lo.denominator)  # ceil
        if v.hi is None:
            return range(lo_i, top + 1)
        hi = self._bound(v.hi, point)
        return range(lo_i, hi.numerator // hi.denominator + 1)

    def _real_ends(self, v: Real, point: dict) -> tuple[Fraction, Fraction | None]:
        """The ends at ``point`` (None for an upper end at infinity)."""
        hi = None if sp.sympify(v.hi) == sp.oo else self._bound(v.hi, point)
        return self._bound(v.lo, point), hi

    def _admits(self, point: dict) -> bool:
        from prtheory.theory.evaluate import exact_truth

        return all(exact_truth(c, point) for c in self.where)

    @property
    def _few_reals(self) -> bool:
        return sum(isinstance(v, Real) for v in self.variables) <= 2

    def exhaustive_points(self) -> Iterator[dict]:
        """Every point of the exhaustive range (the whole domain when it is finite); real
        variables take the interior quarter points and their closed ends (the midpoint only when
        there are three or more of them)."""
        yield from self._walk(0, {}, self.exhaustive)

    def _walk(self, k: int, point: dict, budget: int) -> Iterator[dict]:
        if k == len(self.variables):
            if self._admits(point):
                yield dict(point)
            return
        v = self.variables[k]
        if isinstance(v, Integer):
            rng = self._integer_range(v, point, max(budget, 0))
            for count in rng:
                spent = count if v.hi is None else 0
                if v.hi is None and spent > budget:
                    break
                point[v.symbol] = Fraction(count)
                yield from self._walk(k + 1, point, budget - spent)
            point.pop(v.symbol, None)
        elif isinstance(v, Real):
            lo, hi_end = self._real_ends(v, point)
            hi: Fraction = lo + 4 if hi_end is None else hi_end  # unbounded above: 1, 2, 3 past lo
            if self._few_reals:  # the quarter points and the closed ends
                values = [lo + (hi - lo) * Fraction(j, 4) for j in (1, 2, 3)]
                values = ([] if v.open_lo else [lo]) + values
                values += [] if v.open_hi or hi_end is None else [hi]
            else:  # three or more real variables: the midpoint (the samples do the rest)
                values = [(lo + hi) / 2]
            for value in dict.fromkeys(values):
                point[v.symbol] = value
                yield from self._walk(k + 1, point, budget)
            point.pop(v.symbol, None)
        else:
            for obj in v.enumerate(dict(point), max(budget, 0)):
                point[v.symbol] = obj
                yield from self._walk(k + 1, point, budget)
            point.pop(v.symbol, None)

    def sampled_points(self) -> Iterator[dict]:
        """Points beyond the exhaustive range: extreme values of every unbounded integer
        (powers of two up to ``large``, ``large`` itself), random ones, and for real variables
        random, boundary and near-singular values. Seeded: the same points every run."""
        if self.finite or not self.variables:
            return
        rng = random.Random(SEED)
        points: list[dict] = []
        seen: set[tuple] = set()
        attempts = 0
        target = self.samples
        while len(points) < target and attempts < 20 * target:
            attempts += 1
            point = self._draw(rng, attempts)
            if point is None:
                continue
            key = tuple(sorted((str(s), str(v)) for s, v in point.items()))
            if key in seen:
                continue
            seen.add(key)
            points.append(point)
        # smallest integers first: a counterexample is reported where it starts
        integers = [v.symbol for v in self.variables if isinstance(v, Integer)]
        points.sort(key=lambda pt: sum(pt[s] for s in integers))
        yield from points

    def _extremes(self, lo: int) -> list[int]:
        """Every integer from ``lo`` to ``lo + 32`` and just past the exhaustive size, the powers
        of two, and ``large`` itself."""
        small = range(lo, lo + 33)
        big = [2**j for j in range(1, 21) if lo <= 2**j <= self.large]
        edge = [self.exhaustive + 1, self.exhaustive + 2]
        return sorted({*small, *edge, *big, self.large - 1, self.large})

    def _draw(self, rng: random.Random, attempt: int) -> dict | None:
        point: dict = {}
        for v in self.variables:
            if isinstance(v, Integer):
                lo = self._bound(v.lo, point)
                lo_i = -((-lo.numerator) // lo.denominator)
                if v.hi is None:
                    choices = self._extremes(lo_i)
                    if rng.random() < 0.5:
                        value = rng.choice(choices)
                    else:  # log-uniform between the exhaustive size and ``large``
                        a, b = max(lo_i, self.exhaustive + 1), max(lo_i + 1, self.large)
                        value = round(a * (b / a) ** rng.random()) if a > 0 else rng.randint(a, b)
                else:
                    hi = self._bound(v.hi, point)
                    hi_i = hi.numerator // hi.denominator
                    if hi_i < lo_i:
                        return None
                    value = rng.choice(
                        [
                            lo_i,
                            hi_i,
                            lo_i + 1,
                            hi_i - 1,
                            (lo_i + hi_i) // 2,
                            rng.randint(lo_i, hi_i),
                        ]
                    )
                    value = min(max(value, lo_i), hi_i)
                point[v.symbol] = Fraction(int(value))
            elif isinstance(v, Real):
                lo, top = self._real_ends(v, point)
                if top is None:  # unbounded above: log-uniform from 10^-12 to 10^6 past lo
                    point[v.symbol] = lo + Fraction(10) ** rng.randint(-12, 5) * Fraction(
                        rng.randint(1, 9999), 1000
                    )
                    continue
                if top < lo or (top == lo and (v.open_lo or v.open_hi)):
                    return None
                point[v.symbol] = _real_value(rng, lo, top, v.open_lo, v.open_hi, attempt)
            else:
                obj = v.sample(dict(point), rng)
                if obj is None:
                    return None
                point[v.symbol] = obj
        return point if self._admits(point) else None


def _substitute(e: Any, symbols: dict, functions: dict) -> Any:
    """Definitions substituted into an expression until nothing changes."""
    for _ in range(12):
        new = e.xreplace(symbols) if symbols else e
        for f, body in functions.items():
            new = new.replace(
                lambda x, f=f: isinstance(x, sp.Function) and x.func == f,
                lambda x, body=body: body(*x.args),
            )
        if new == e:
            return new
        e = new
    raise ValueError("domain: the definitions refer to each other in a cycle")


_LOGIC = (sp.And, sp.Or, sp.Not, sp.Implies, sp.Equivalent)


def rebuild(e: Any, inner: Callable[[Any], Any]) -> Any:
    """Apply ``inner`` to the expressions of a statement, keeping its relations and connectives
    unevaluated.

    Parameters
    ----------
    e : sympy object
        A statement: relations, ``And``/``Or``/``Not``/``Implies``/``Equivalent`` of them, a
        ``Tuple``, or an expression.
    inner : callable
        Applied to every expression (each side of each relation).

    Returns
    -------
    sympy object
        The statement rebuilt with ``evaluate=False``.

    Examples
    --------
    Substituting ``x = y = 2`` into ``x = y`` leaves ``2 = 2`` shown, not ``True``:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import rebuild
    >>> x, y = sp.symbols("x y")
    >>> rebuild(sp.And(sp.Eq(x, y), sp.Lt(x, 3)), lambda e: e.subs({x: 2, y: 2}))
    Eq(2, 2) & (2 < 3)
    """
    if isinstance(e, sp.core.relational.Relational):
        return type(e)(inner(e.lhs), inner(e.rhs), evaluate=False)
    if isinstance(e, _LOGIC):
        args = [rebuild(a, inner) for a in e.args]
        if isinstance(e, sp.Not):
            return sp.Not(args[0], evaluate=False)
        return type(e)(*args, evaluate=False)
    if isinstance(e, sp.Tuple):
        return sp.Tuple(*(rebuild(a, inner) for a in e.args))
    return inner(e)


def _real_value(
    rng: random.Random, lo: Fraction, hi: Fraction, open_lo: bool, open_hi: bool, attempt: int
) -> Fraction:
    """A random rational in the interval, one time in three at or near an end (10^-k from an
    open end: near-singular points), else uniform with a random denominator."""
    width = hi - lo
    u = rng.random()
    if u < 0.35 and width > 0:
        near = Fraction(1, 10 ** rng.choice((2, 3, 4, 6, 9, 12, 15)))
        step = min(near, width / 2)
        if rng.random() < 0.5:
            return lo if (not open_lo and rng.random() < 0.3) else lo + step
        return hi if (not open_hi and rng.random() < 0.3) else hi - step
    den = rng.choice((7, 97, 997, 10007, 2**20 + 7))
    k = rng.randint(1, den - 1)
    return lo + width * Fraction(k, den)


def product_grid(values: Mapping[sp.Symbol, Sequence[Fraction]]) -> Iterator[dict]:
    """Every combination of the listed values (a product grid)."""
    keys = list(values)
    for combo in itertools.product(*(values[k] for k in keys)):
        yield dict(zip(keys, combo, strict=True))
