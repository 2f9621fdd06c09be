"""What sympy decides for the registry: facts, whether two statements say the same thing, and
whether a conclusion follows from cited facts.

* :func:`decide` -- a sympy relation or boolean, decided from the symbols' assumptions;
* :func:`same_statement` -- two statements say the same thing: equal sides, the same relation,
  part by part. Limits, integrals, sums, products and derivatives are compared *as expressions*:
  two limits are the same only when their functions, variables, points and directions are (so
  ``lim_{x -> 1} 1`` is not ``lim_{x -> 1} f(x)`` although both are 1);
* :func:`combine` -- the inference rules of a conclusion (:meth:`Proof.conclude`,
  :meth:`Proof.establish`): the conclusion restates a fact (equal sides, or the same relation
  with equal side differences, decided by sympy); follows by transitivity of a chain of
  relations (two rounds); by substituting a fact ``symbol = value`` into another fact or into the
  conclusion; by multiplying or dividing a hypothesis by a quantity a fact says is positive; by
  modus ponens from a fact ``Implies(H, F)`` whose H is a fact; an ``And`` or a tuple part by
  part; ``Implies(A, B)`` when B follows with A added to the facts (a ``Piecewise`` in B
  settled by A; ``A: x != y`` in the two cases x < y and x > y); ``Equivalent(A, B)`` when each
  implies the other; ``Not(A)`` when supposing A
  gives a false closed relation (0 < 0). No other rule: sympy does not prove the conclusion
  afresh, so a conclusion that the cited facts do not give is a prose lemma.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from prtheory.theory.domain import rebuild
from prtheory.theory.evaluate import NUMERIC, compile_expr

__all__ = ["combine", "decide", "is_zero", "same_statement", "zero"]

Zero = Callable[[Any], tuple[bool, str]]


def is_zero(expr: Any) -> tuple[bool, str]:
    """Decide ``expr == 0`` symbolically; return (verdict, the method that decided it).

    Parameters
    ----------
    expr : sympy expression
        The difference to decide.

    Returns
    -------
    tuple of (bool, str)
        Whether a simplification reached 0, and which one.

    Examples
    --------
    By hand, ``(x + 1)**2 - x**2 - 2 x - 1 = 0``; ``x - 1`` is not identically 0:

    >>> import sympy as sp
    >>> from prtheory.theory.inference import is_zero
    >>> x = sp.Symbol("x", positive=True)
    >>> is_zero((x + 1) ** 2 - x**2 - 2 * x - 1)
    (True, 'cancel')
    >>> is_zero(x - 1)
    (False, 'no simplification reached 0')
    """
    expr = sp.sympify(expr)
    if expr == 0:
        return True, "identical"
    for name, transform in (
        ("cancel", sp.cancel),
        ("simplify", sp.simplify),
        ("expand_log + simplify", lambda e: sp.simplify(sp.expand_log(e, force=True))),
        ("logcombine + simplify", lambda e: sp.simplify(sp.logcombine(e, force=True))),
        ("expand_func + simplify", lambda e: sp.simplify(sp.expand_func(e))),  # harmonic(n+1) ...
    ):
        if transform(expr) == 0:
            return True, name
    return False, "no simplification reached 0"


_RELATIONS = {">": sp.Gt, ">=": sp.Ge, "<": sp.Lt, "<=": sp.Le}
_SIGN = {  # relation of d = lhs - rhs to 0 -> the assumption that decides it
    ">": "is_positive",
    ">=": "is_nonnegative",
    "<": "is_negative",
    "<=": "is_nonpositive",
    "==": "is_zero",
    "!=": "is_nonzero",
}


def _signed(e: Any) -> int | None:
    """+1 or -1 when the sign of ``e`` follows from its parts, else None: a sum (series) of
    terms of one sign, an integral over an interval of positive length of an integrand of one
    sign inside it, a product or quotient of such factors, or what sympy's assumptions decide."""
    if isinstance(e, sp.Sum) and len(e.limits) == 1:
        k, lo, hi = e.limits[0]
        j = sp.Dummy("j", integer=True, nonnegative=True)
        if hi == sp.oo or sp.sympify(hi - lo).is_nonnegative is True:
            return _signed(e.function.xreplace({k: lo + j}))
        return None
    if isinstance(e, sp.Integral) and len(e.limits) == 1 and len(e.limits[0]) == 3:
        x, lo, hi = e.limits[0]
        w = sp.Dummy("w", positive=True)  # x = lo + (hi - lo)/(1 + w) runs over (lo, hi)
        if sp.sympify(hi - lo).is_positive is True:
            return _signed(e.function.xreplace({x: lo + (hi - lo) / (1 + w)}))
        return None
    if isinstance(e, sp.Pow) and e.exp.is_integer and e.exp.is_negative:
        base = _signed(e.base)
        if base is None:
            return None
        return base if int(e.exp) % 2 else 1  # an even power of anything non-zero is positive
    if isinstance(e, sp.Mul) and any(isinstance(a, (sp.Sum, sp.Integral, sp.Pow)) for a in e.args):
        out = 1
        for a in e.args:
            sg = _signed(a)
            if sg is None:
                return None
            out *= sg
        return out
    for form in (e, sp.factor(sp.cancel(e)) if not e.has(sp.Integral, sp.Sum) else e):
        if form.is_positive is True:
            return 1
        if form.is_negative is True:
            return -1
    return None


def _operator_sign(d: Any, attr: str) -> bool:
    """The sign rule of :func:`_signed` for a difference containing a sum or an integral."""
    if not d.has(sp.Sum, sp.Integral):
        return False
    sign = _signed(d)
    return {
        "is_positive": sign == 1,
        "is_nonnegative": sign == 1,
        "is_negative": sign == -1,
        "is_nonpositive": sign == -1,
    }.get(attr, False)


def _forms(e: sp.Expr) -> Iterator[sp.Expr]:
    """``e`` and the rewritings whose sign sympy's assumptions most often decide."""
    yield e
    yield sp.factor(sp.cancel(e))
    simple = sp.simplify(e)
    yield simple
    yield sp.expand_log(simple, force=True)


def decide(fact: Any) -> tuple[bool, str]:
    """Decide a sympy fact; return (holds, how).

    ``fact`` is a sympy boolean (``sp.true`` when sympy already evaluated it), a relation
    (``Eq``, ``Ne``, ``<``, ``<=``, ``>``, ``>=``; evaluated or built with ``evaluate=False``),
    or ``And``/``Or``/``Not`` of these. A relation holds when sympy decides the sign of
    ``lhs - rhs`` from the symbols' assumptions, after ``factor(cancel(.))``, ``simplify`` or
    ``expand_log``; an equation when :func:`is_zero` reduces ``lhs - rhs`` to 0. Anything
    sympy cannot decide counts as not holding. A Python ``bool`` (or any non-sympy object) is
    refused with ``TypeError``: that would be an assertion, not a verification.

    Parameters
    ----------
    fact : sympy relation or boolean
        The fact to decide.

    Returns
    -------
    tuple of (bool, str)
        Whether it holds, and how sympy decided it (or why it could not).

    Raises
    ------
    TypeError
        ``fact`` is a Python ``bool`` or not a sympy object.

    Examples
    --------
    ``x + 1 > x`` for every ``x`` (the difference is 1); ``x > 1`` is not decided by
    ``x > 0`` alone:

    >>> import sympy as sp
    >>> from prtheory.theory.inference import decide
    >>> x = sp.Symbol("x", positive=True)
    >>> decide(sp.Gt(x + 1, x, evaluate=False))
    (True, 'sign of lhs - rhs decided (positive)')
    >>> decide(sp.Gt(x, 1))
    (False, 'sympy could not decide lhs - rhs > 0')
    >>> decide(True)
    Traceback (most recent call last):
    ...
    TypeError: a verified fact must be a sympy relation or boolean that sympy decides, got bool True
    """
    if isinstance(fact, bool) or not isinstance(fact, sp.Basic):
        raise TypeError(
            f"a verified fact must be a sympy relation or boolean that sympy decides, got "
            f"{type(fact).__name__} {fact!r}"
        )
    if fact == sp.true:
        return True, "evaluated by sympy"
    if fact == sp.false:
        return False, "sympy evaluated it to False"
    if isinstance(fact, sp.And):
        parts = [decide(a) for a in fact.args]
        return all(ok for ok, _ in parts), "every part"
    if isinstance(fact, sp.Or):
        parts = [decide(a) for a in fact.args]
        return any(ok for ok, _ in parts), "some part"
    if isinstance(fact, sp.Not):
        arg = fact.args[0]
        if isinstance(arg, sp.core.relational.Relational):
            return decide(arg.negated)
        return False, "cannot decide a negation"
    if isinstance(fact, sp.core.relational.Relational):
        op = fact.rel_op
        if op == "==":
            return is_zero(fact.lhs - fact.rhs)
        d = sp.sympify(fact.lhs - fact.rhs)
        attr = _SIGN[op]
        if _operator_sign(d, attr):
            return True, f"a sum or integral of {attr[3:]} terms"
        for form in _forms(d):
            if getattr(form, attr) is True:
                return True, f"sign of lhs - rhs decided ({attr[3:]})"
        return False, f"sympy could not decide lhs - rhs {op} 0"
    return False, f"not a decidable fact: {type(fact).__name__}"


def relation(op: str) -> Any:
    return _RELATIONS[op]


# ---- zero tests -----------------------------------------------------------------------------
def _nonzero_at(expr: sp.Expr, point: dict) -> bool:
    """``expr`` is clearly non-zero (above 10^-15) at ``point`` (rationals): evaluated with
    mpmath at 25 digits (sympy's evalf where that cannot)."""
    try:
        f = compile_expr(expr, NUMERIC)
        exact = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
        env: dict = {k: mpmath.mpf(v.numerator) / v.denominator for k, v in exact.items()}
        env["__exact__"] = exact
        with mpmath.workdps(25):
            v = f(env)
            return bool(mpmath.isfinite(v) and abs(v) > mpmath.mpf("1e-15"))
    except Exception:  # not evaluable so: sympy's evalf, or no disproof
        pass
    try:
        value = sp.N(expr.xreplace(point).doit(), 20)
    except Exception:  # cannot evaluate there: no disproof
        return False
    return bool(value.is_number and value.is_finite and abs(value) > sp.Float("1e-15"))


def _points(expr: sp.Expr) -> list[dict]:
    symbols = sorted(expr.free_symbols, key=str)
    return [
        {x: sp.Rational(3 + k, 11 + 2 * k) for k, x in enumerate(symbols)},
        {x: sp.Integer(2 + k) for k, x in enumerate(symbols)},
    ]


def _disproved(expr: Any) -> bool:
    """``expr`` is clearly non-zero at a point of (0, 1) or at small integers."""
    return isinstance(expr, sp.Expr) and any(_nonzero_at(expr, pt) for pt in _points(expr))


def quick_zero(expr: Any) -> tuple[bool, str]:
    """A cheap test of ``expr == 0``: identical, or not disproved at two points and ``cancel``
    gives 0."""
    expr = sp.sympify(expr)
    if expr == 0:
        return True, "identical"
    if not isinstance(expr, sp.Expr) or _disproved(expr):
        return False, "non-zero at a point"
    try:
        return sp.cancel(expr) == 0, "cancel"
    except Exception:  # cancel could not handle it: not shown equal
        return False, "cancel failed"


_ZEROS: dict[Any, tuple[bool, str]] = {}


def zero(expr: Any) -> tuple[bool, str]:
    """:func:`is_zero`, after a quick numerical disproof (remembered: inferences compare the same
    differences again and again).

    Parameters
    ----------
    expr : sympy expression
        The difference to decide.

    Returns
    -------
    tuple of (bool, str)
        Whether it is 0, and how that was decided.

    Examples
    --------
    ``x**2 - x`` is ``2`` at ``x = 2``, so it is not identically 0; ``sin(x)**2 + cos(x)**2 - 1``
    is (Pythagoras):

    >>> import sympy as sp
    >>> from prtheory.theory.inference import zero
    >>> x = sp.Symbol("x", positive=True)
    >>> zero(x**2 - x)
    (False, 'non-zero at a point')
    >>> zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1)
    (True, 'simplify')
    """
    expr = sp.sympify(expr)
    known = _ZEROS.get(expr)
    if known is None:
        if isinstance(expr, sp.Expr) and _disproved(expr):
            known = (False, "non-zero at a point")
        else:
            known = is_zero(expr)
        if len(_ZEROS) > 20000:
            _ZEROS.clear()
        _ZEROS[expr] = known
    return known


# ---- statements compared as statements -------------------------------------------------------
_OPERATORS = (sp.Limit, sp.Integral, sp.Sum, sp.Product, sp.Derivative)


def _operators(e: Any) -> list[Any]:
    """The outermost limits, integrals, sums, products and derivatives in ``e``."""
    out: list[Any] = []

    def walk(x: Any) -> None:
        if isinstance(x, _OPERATORS):
            out.append(x)
            return
        for a in getattr(x, "args", ()):
            walk(a)

    walk(e)
    return out


def _same_operator(a: Any, b: Any, zero_: Zero) -> bool:
    """Two operators are the same expression: same kind, the same function inside (as an
    expression in every variable), the same variables, bounds, point and direction."""
    if type(a) is not type(b):
        return False
    if isinstance(a, sp.Limit):
        fa, xa, pa, da = a.args
        fb, xb, pb, db = b.args
        fb = fb.xreplace({xb: xa})
        return str(da) == str(db) and _equal(pa, pb, zero_) and _equal(fa, fb, zero_)
    if isinstance(a, sp.Derivative):
        if a.variable_count != b.variable_count:
            return False
        return _equal(a.expr, b.expr, zero_)
    # Integral, Sum, Product: the same limits (variables renamed alike), the same function
    if len(a.limits) != len(b.limits):
        return False
    rename = {}
    for la, lb in zip(a.limits, b.limits, strict=True):
        if len(la) != len(lb):
            return False
        rename[lb[0]] = la[0]
        for ea, eb in zip(la[1:], lb[1:], strict=True):
            if not _equal(ea, sp.sympify(eb).xreplace(rename), zero_):
                return False
    return _equal(a.function, b.function.xreplace(rename), zero_)


def _equal(a: Any, b: Any, zero_: Zero) -> bool:
    a, b = sp.sympify(a), sp.sympify(b)
    if a == b:
        return True
    try:
        return zero_(a - b)[0]
    except Exception:  # sympy could not compare them: not shown equal
        return False


def _freeze(*statements: Any, zero_: Zero) -> list[Any]:
    """The statements with every operator replaced by a placeholder symbol, the same
    placeholder for operators that are the same expression (:func:`_same_operator`)."""
    reps: list[tuple[Any, sp.Dummy]] = []
    mapping: dict[Any, sp.Dummy] = {}
    for s in statements:
        for op in _operators(s):
            if op in mapping:
                continue
            for rep, dummy in reps:
                if _same_operator(op, rep, zero_):
                    mapping[op] = dummy
                    break
            else:
                dummy = sp.Dummy(f"op{len(reps)}")
                reps.append((op, dummy))
                mapping[op] = dummy
    return [sp.sympify(s).xreplace(mapping) if mapping else sp.sympify(s) for s in statements]


def same_statement(statement: Any, conclusion: Any, zero_: Zero | None = None) -> tuple[bool, str]:
    """Decide with sympy that ``statement`` says what ``conclusion`` says.

    Limits, integrals, sums, products and derivatives are first replaced by placeholders, equal
    only for operators that are the same expression (not merely the same value). Then equalities
    match when their sides are equal side by side (either orientation: comparing only
    ``lhs - rhs`` would let any identity stand for any other); other relations when they are of
    the same kind (after reversing ``>`` to ``<``) and the differences of their sides agree;
    ``Tuple``, ``Not`` and ``Implies`` argument by argument in order; ``And``, ``Or`` and
    ``Equivalent`` (which sympy stores in a canonical order) by a one-to-one matching of their
    arguments; expressions when their difference is zero; anything else only when it is
    structurally identical. ``zero_`` decides that a difference is 0 (default: numerical
    disproof, then :func:`is_zero`'s simplifications).

    Parameters
    ----------
    statement, conclusion : sympy object
        The two statements.
    zero_ : callable, optional
        Decides that a difference is 0 (default :func:`zero`).

    Returns
    -------
    tuple of (bool, str)
        Whether they say the same thing, and how (or why not).

    Examples
    --------
    ``x < y`` and ``y > x`` are the same relation; ``x - y = 0`` is not ``x = y`` here (their
    sides differ), although the two are equivalent:

    >>> import sympy as sp
    >>> from prtheory.theory.inference import same_statement
    >>> x, y = sp.symbols("x y", positive=True)
    >>> same_statement(sp.Lt(x, y), sp.Gt(y, x))
    (True, 'same relation, equal sides (identical)')
    >>> same_statement(sp.Eq(x - y, 0), sp.Eq(x, y))
    (False, 'the sides are not the derived sides')
    """
    zero_ = zero if zero_ is None else zero_
    s, c = _freeze(statement, conclusion, zero_=zero_)
    return _same(s, c, zero_)


def _identically_zero(e: Any) -> bool:
    """``e`` is 0 at both fingerprint points (an identity's difference)."""
    fp = _fingerprint(e)
    return fp is not None and all(v == (0.0, 0.0) for v in fp)


def _same(s: Any, c: Any, zero_: Zero, differences: bool = False) -> tuple[bool, str]:
    """:func:`same_statement` on frozen statements; with ``differences`` two equations also
    match when lhs - rhs agree up to sign (an inference: a = b says a - b = 0)."""
    if s == c:
        return True, "identical"
    if isinstance(s, sp.Equality) and isinstance(c, sp.Equality):
        for lhs, rhs in ((c.lhs, c.rhs), (c.rhs, c.lhs)):  # either orientation
            ok_l, _ = zero_(s.lhs - lhs)
            ok_r, how = zero_(s.rhs - rhs) if ok_l else (False, "")
            if ok_l and ok_r:
                return True, f"equal sides ({how})"
        if differences and not _identically_zero(c.lhs - c.rhs):
            # an equation that is not an identity (a hypothesis, scaled or substituted) says
            # its difference is 0; an identity says nothing about another identity
            d = s.lhs - s.rhs
            for other in (c.lhs - c.rhs, c.rhs - c.lhs):
                ok, how = zero_(d - other)
                if ok:
                    return True, f"equal side differences ({how})"
        return False, "the sides are not the derived sides"
    if isinstance(s, sp.core.relational.Relational) and isinstance(
        c, sp.core.relational.Relational
    ):
        s = s.reversed if s.rel_op in (">", ">=") else s
        c = c.reversed if c.rel_op in (">", ">=") else c
        if s.rel_op != c.rel_op:
            return False, f"relation {s.rel_op} is not {c.rel_op}"
        ok_l, _ = zero_(s.lhs - c.lhs)
        ok_r, how = zero_(s.rhs - c.rhs) if ok_l else (False, "")
        if ok_l and ok_r:
            return True, f"same relation, equal sides ({how})"
        ok, how = zero_((s.lhs - s.rhs) - (c.lhs - c.rhs))
        return ok, f"same relation, equal side differences ({how})"
    if type(s) is type(c) and isinstance(s, (sp.And, sp.Or, sp.Equivalent)):
        if len(s.args) != len(c.args):
            return False, "different number of parts"
        unused = list(c.args)
        for a in s.args:
            match = next((b for b in unused if _same(a, b, zero_, differences)[0]), None)
            if match is None:
                return False, f"no part of the conclusion says {a}"
            unused.remove(match)
        return True, "part by part"
    if type(s) is type(c) and isinstance(s, (sp.Tuple, sp.Not, sp.Implies)):
        if len(s.args) != len(c.args):
            return False, "different number of parts"
        for a, b in zip(s.args, c.args, strict=True):
            ok, how = _same(a, b, zero_, differences)
            if not ok:
                return False, f"part {a} is not {b} ({how})"
        return True, "part by part"
    if isinstance(s, sp.Expr) and isinstance(c, sp.Expr) and not isinstance(s, sp.Symbol):
        return zero_(s - c)
    return False, "not the same statement"


# ---- inference -------------------------------------------------------------------------------
_CHAIN = {("==", "=="): "==", ("==", "<="): "<=", ("<=", "=="): "<=", ("<=", "<="): "<="}
_CHAIN.update({(a, b): "<" for a in ("==", "<=", "<") for b in ("==", "<=", "<") if "<" in (a, b)})


def _as_le(rel: Any) -> tuple[str, Any, Any] | None:
    """A relation as (op, smaller, larger) with op in ==, <=, <; None for anything else."""
    if not isinstance(rel, sp.core.relational.Relational) or rel.rel_op == "!=":
        return None
    if rel.rel_op in (">", ">="):
        rel = rel.reversed
    return rel.rel_op, rel.lhs, rel.rhs


Fact = tuple[str, Any]  # (where it comes from, e.g. "step 3", the sympy object)


_POINTS = (0.3183098861837907, 0.7071067811865476)


def _coordinate(x: sp.Symbol, base: float) -> sp.Float:
    """The value of symbol ``x`` at a fingerprint point: the same for the same symbol in every
    expression (from a checksum of its name), in (0, 1)."""
    key = x.name + (f"#{x.dummy_index}" if isinstance(x, sp.Dummy) else "")
    u = zlib.crc32(key.encode()) / 2**32
    return sp.Float((base + u) % 1 * 0.98 + 0.01, 30)


_PRINTS: dict[Any, tuple | None] = {}


def _fingerprint(e: Any) -> tuple | None:
    """``e`` at two fixed points (every symbol a number in (0, 1) fixed by its name), rounded:
    equal expressions have equal fingerprints; None where it cannot be evaluated."""
    e = sp.sympify(e)
    if e in _PRINTS:
        return _PRINTS[e]
    if len(_PRINTS) > 20000:
        _PRINTS.clear()
    _PRINTS[e] = found = _fingerprint_of(e)
    return found


def _fingerprint_of(e: Any) -> tuple | None:
    out = []
    for base in _POINTS:
        point = {x: _coordinate(x, base) for x in e.free_symbols if isinstance(x, sp.Symbol)}
        try:
            v = complex(sp.N(e.xreplace(point), 20))
        except Exception:  # cannot evaluate there: no fingerprint
            return None
        if v != v or abs(v) == float("inf"):
            return None
        out.append((round(v.real, 9), round(v.imag, 9)))
    return tuple(out)


class _Rel:
    """A relation as smaller op larger (op in ==, <=, <), with fingerprints of its sides."""

    def __init__(self, op: str, small: Any, large: Any, label: str) -> None:
        self.op, self.small, self.large, self.label = op, small, large, label
        self.fs, self.fl = _fingerprint(small), _fingerprint(large)
        self.origin = id(self)

    @classmethod
    def of(cls, op: str, small: Any, large: Any, fs: Any, fl: Any, label: str) -> _Rel:
        out = cls.__new__(cls)
        out.op, out.small, out.large, out.fs, out.fl, out.label = op, small, large, fs, fl, label
        out.origin = id(out)
        return out

    def relation(self) -> Any:
        rel = {"==": sp.Eq, "<=": sp.Le, "<": sp.Lt}[self.op]
        return rel(self.small, self.large, evaluate=False)

    def forms(self) -> list[_Rel]:
        """Itself, and for an equation the reversed one."""
        if self.op != "==":
            return [self]
        rev = _Rel.of("==", self.large, self.small, self.fl, self.fs, self.label)
        rev.origin = self.origin
        return [self, rev]


def _rels(facts: Sequence[Fact]) -> list[_Rel]:
    out = []
    for k, f in facts:
        le = _as_le(f)
        if le is not None:
            out.append(_Rel(le[0], le[1], le[2], k))
    return out


def _chain(a: _Rel, b: _Rel) -> _Rel | None:
    """a.small op b.large, when a's larger side is b's smaller side."""
    if a.fl is not None and b.fs is not None and a.fl != b.fs:
        return None
    if not _equal(a.large, b.small, zero):
        return None
    label = f"transitivity of {a.label} and {b.label}"
    return _Rel.of(_CHAIN[(a.op, b.op)], a.small, b.large, a.fs, b.fl, label)


def _transitive(rels: Sequence[_Rel], base: Sequence[_Rel]) -> list[_Rel]:
    """Every chain of a relation of ``rels`` with one of ``base`` (either order), matching the
    middle sides by fingerprint before sympy compares them."""
    smalls: dict[Any, list[_Rel]] = {}
    larges: dict[Any, list[_Rel]] = {}
    for b in base:
        for f in b.forms():
            smalls.setdefault(f.fs, []).append(f)
            larges.setdefault(f.fl, []).append(f)
    out: list[_Rel] = []
    seen: set[tuple] = set()

    def keep(c: _Rel | None) -> None:
        if c is None:
            return
        key = (c.op, c.small, c.large)
        if key not in seen:
            seen.add(key)
            out.append(c)

    for a in rels:
        for f in a.forms():
            after = smalls.get(f.fl, []) + (smalls.get(None, []) if f.fl is not None else [])
            if f.fl is None:
                after = [g for gs in smalls.values() for g in gs]
            for g in after:
                if g.origin != f.origin:
                    keep(_chain(f, g))
            before = larges.get(f.fs, []) + (larges.get(None, []) if f.fs is not None else [])
            if f.fs is None:
                before = [g for gs in larges.values() for g in gs]
            for g in before:
                if g.origin != f.origin:
                    keep(_chain(g, f))
    return out


def _derived(facts: Sequence[Fact]) -> Iterator[list[Fact]]:
    """What substituting a cited ``symbol = value`` into another cited fact, then chains of up
    to two, then of up to four cited relations (transitivity) give, batch by batch (a caller
    stops at the first batch that gives what it needs)."""
    known = [(k, f) for k, f in facts if isinstance(f, sp.Basic)]
    extra: list[Fact] = []
    for i, f in known:
        if isinstance(f, sp.Equality) and isinstance(f.lhs, sp.Symbol):
            for j, g in known:
                if j != i and f.lhs in g.free_symbols:
                    extra.append((f"{i} substituted into {j}", g.xreplace({f.lhs: f.rhs})))
    yield extra
    base = _rels(known + extra)
    once = _transitive(base, base)
    yield [(r.label, r.relation()) for r in once]
    twice = _transitive(once, [*base, *once])
    yield [(r.label, r.relation()) for r in twice]


def _scaled(facts: Sequence[Fact]) -> list[Fact]:
    """Each hypothesis d op 0 (op in =, <=, <; also with the cited ``symbol = value`` facts
    substituted) multiplied and divided by every quantity P a cited fact says is positive:
    d P op 0 and d / P op 0."""
    rels = _rels(facts)
    positives = [(r.label, r.large) for r in rels if r.op == "<" and r.small == 0]
    hypotheses = [(k, f) for k, f in facts if k == "the hypothesis"]
    for k, f in list(hypotheses):
        substituted = _substitute(f, facts)
        if substituted is not None:
            hypotheses.append((k, substituted[1]))
    out: list[Fact] = []
    for r in _rels(hypotheses):
        d = r.large - r.small
        rel = {"==": sp.Eq, "<=": sp.Le, "<": sp.Lt}[r.op]
        for label, p in positives:
            if p != d:
                out += [
                    (f"the hypothesis scaled by the positive {label}", rel(0, v, evaluate=False))
                    for v in (d * p, d / p)
                ]
    return out


def _false(f: Any) -> bool:
    """A closed relation that is false (decided exactly or by sympy's evaluation)."""
    if not isinstance(f, sp.core.relational.Relational) or f.free_symbols:
        return False
    try:
        value = type(f)(f.lhs, f.rhs)
    except Exception:  # sympy cannot evaluate it: not shown false
        return False
    return value is sp.false


def _modus_ponens(facts: Sequence[Fact]) -> list[Fact]:
    """F for every cited ``Implies(H, F)`` whose H restates another fact."""
    out = []
    for k, f in facts:
        if isinstance(f, sp.Implies):
            h, c = f.args
            for j, g in facts:
                if j != k and _same_safe(h, g):
                    out += [(f"{k} with {j}", part) for part in _parts(c)]
                    break
    return out


def _refine(e: Any, hypothesis: Any) -> Any:
    """``e`` with each Piecewise whose branch conditions the hypothesis settles replaced by the
    branch that applies."""
    facts = [("", h) for h in _parts(hypothesis)]

    def settle(pw: sp.Piecewise) -> Any:
        for value, cond in pw.args:
            if cond is sp.true or any(_same_safe(cond, h) for _, h in facts):
                return value
            negated = cond.negated if isinstance(cond, sp.core.relational.Relational) else None
            if negated is not None and any(_same_safe(negated, h) for _, h in facts):
                continue
            return pw
        return pw

    return e.replace(lambda x: isinstance(x, sp.Piecewise), settle)


def _settle_hypotheses(e: Any) -> Any:
    """Every ``Implies(A, B)`` of a conclusion with the Piecewise in B that A settles replaced by
    the branch that applies (before operators are frozen, so inside derivatives too)."""
    if isinstance(e, sp.Implies):
        a, b = e.args
        return sp.Implies(a, _refine(b, a), evaluate=False)
    if isinstance(e, (sp.And, sp.Or)):
        return type(e)(*(_settle_hypotheses(x) for x in e.args), evaluate=False)
    if isinstance(e, sp.Tuple):
        return sp.Tuple(*(_settle_hypotheses(x) for x in e.args))
    return e


def _follows(part: Any, facts: Sequence[Fact], depth: int = 0) -> str | None:
    """How ``part`` follows from the facts (all frozen alike), or None."""
    if isinstance(part, (sp.And, sp.Tuple)):
        hows = [_follows(p, facts, depth) for p in part.args]
        return None if None in hows else "; ".join(dict.fromkeys(h for h in hows if h))
    if isinstance(part, sp.Implies) and depth < 2:
        a, b = part.args
        if isinstance(a, sp.Unequality):  # x != y: the two cases x < y and x > y
            cases = [sp.Lt(a.lhs, a.rhs, evaluate=False), sp.Gt(a.lhs, a.rhs, evaluate=False)]
            hows = [_follows(sp.Implies(c, b, evaluate=False), facts, depth) for c in cases]
            return f"in both cases ({'; '.join(hows)})" if all(hows) else None  # type: ignore[arg-type]
        how = _follows(
            _refine(b, a), [*(("the hypothesis", h) for h in _parts(a)), *facts], depth + 1
        )
        return f"under the hypothesis: {how}" if how else None
    if isinstance(part, sp.Equivalent) and len(part.args) == 2 and depth < 2:
        a, b = part.args
        one = _follows(sp.Implies(a, b, evaluate=False), facts, depth)
        two = _follows(sp.Implies(b, a, evaluate=False), facts, depth) if one else None
        return f"each side implies the other ({one}; {two})" if one and two else None
    if isinstance(part, sp.Not) and depth < 2:
        hyp = [("the supposition", h) for h in _parts(part.args[0])]
        every = [*hyp, *facts]
        for k, f in itertools.chain(every, *_derived(every)):
            if _false(f):
                return f"supposing the contrary gives {sp.sstr(f)} ({k})"
        return None
    if part is sp.true:
        return "true as it stands"
    same_sides = isinstance(part, sp.core.relational.Relational) and part.lhs == part.rhs
    if same_sides and part.rel_op in ("==", "<=", ">="):
        return "both sides are the same expression"
    facts = [*facts, *_modus_ponens(facts)]
    targets = [("", part)]
    substituted = _substitute(part, facts)
    if substituted is not None:
        targets.append(substituted)
    for k, f in facts:  # the cheapest test first: the very same object
        if f == part:
            return f"restates {k}"
    for via, target in targets:
        for k, f in facts:
            if isinstance(f, sp.Basic) and _same_safe(target, f):
                return f"restates {k}{via}"
    for derived in (*_derived(facts), _scaled(facts)):
        for via, target in targets:
            tf = _difference_print(target)
            for k, f in derived:
                df = _difference_print(f) if tf is not None else None
                if tf is not None and df is not None and not set(tf) & set(df):
                    continue
                if _same_safe(target, f):
                    return f"{k}{via}"
    return None


def _difference_print(rel: Any) -> tuple | None:
    """Fingerprints of larger - smaller of a relation (both signs for an equation), or None."""
    le = _as_le(rel)
    if le is None:
        return None
    d = _fingerprint(le[2] - le[1])
    if d is None:
        return None
    neg = tuple((-a, -b) for a, b in d)
    return (d, neg) if le[0] == "==" else (d,)


def _substitute(part: Any, facts: Sequence[Fact]) -> tuple[str, Any] | None:
    """``part`` with every cited ``symbol = value`` substituted (a few rounds), or None when
    none applies."""
    rules = {}
    used = []
    for k, f in facts:
        if isinstance(f, sp.Equality):
            if isinstance(f.lhs, sp.Symbol) and not isinstance(f.rhs, sp.Symbol):
                rules[f.lhs] = f.rhs
                used.append(k)
            elif isinstance(f.rhs, sp.Symbol) and not isinstance(f.lhs, sp.Symbol):
                rules[f.rhs] = f.lhs
                used.append(k)
    new = part
    for _ in range(3):
        nxt = rebuild(new, lambda e: e.xreplace(rules)) if rules else new
        if nxt == new:
            break
        new = nxt
    if new == part:
        return None
    return f", after substituting {', '.join(dict.fromkeys(used))}", new


def _same_safe(a: Any, b: Any) -> bool:
    try:
        return _same(a, b, zero, differences=True)[0]
    except Exception:  # sympy could not compare them: not shown to follow
        return False


def _parts(f: Any) -> list[Any]:
    """A fact and, for ``And`` and tuples, each of its parts (each a fact on its own)."""
    if isinstance(f, (sp.And, sp.Tuple)):
        return [f, *(p for a in f.args for p in _parts(a))]
    return [f]


def combine(
    conclusion: Any, facts: Sequence[Fact], expand: Callable[[Any], Any] | None = None
) -> str | None:
    """sympy's check that ``conclusion`` follows from ``facts`` (pairs of a label such as
    ``"step 3"`` and a sympy object; see the module docstring); returns how it follows, or None
    (a prose lemma). ``expand`` substitutes definitions (the domain's) into the conclusion and
    every fact first. Operators are compared as expressions (:func:`same_statement`).

    Parameters
    ----------
    conclusion : sympy object
        What is concluded.
    facts : sequence of (str, sympy object)
        The labelled facts it may rest on.
    expand : callable, optional
        Substitutes definitions into the conclusion and the facts.

    Returns
    -------
    str or None
        How the conclusion follows, or None when no rule gives it.

    Examples
    --------
    ``a < b`` and ``b < c`` give ``a < c`` by transitivity; ``a < b`` alone does not:

    >>> import sympy as sp
    >>> from prtheory.theory.inference import combine
    >>> a, b, c = sp.symbols("a b c", positive=True)
    >>> combine(sp.Lt(a, c), [("step 1", sp.Lt(a, b)), ("step 2", sp.Lt(b, c))])
    'transitivity of step 1 and step 2'
    >>> print(combine(sp.Lt(a, c), [("step 1", sp.Lt(a, b))]))
    None
    """
    if not isinstance(conclusion, sp.Basic):
        return None
    usable = [(k, part) for k, f in facts if isinstance(f, sp.Basic) for part in _parts(f)]
    if expand is not None:
        try:
            conclusion = expand(conclusion)
            usable = [(k, expand(f)) for k, f in usable]
        except Exception:  # a definition does not apply: compare as written
            pass
    conclusion = _settle_hypotheses(conclusion)
    frozen = _freeze(conclusion, *(f for _, f in usable), zero_=zero)
    return _follows(frozen[0], [(k, f) for (k, _), f in zip(usable, frozen[1:], strict=True)])
