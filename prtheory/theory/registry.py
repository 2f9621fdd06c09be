"""The claim registry: every claim of ``CLAIMS.md``, its derivation, its checks and its verdict.

A claim is registered with :func:`claim` as a *proof function* that receives a :class:`Proof`
and records in it

* **steps** -- each a sympy computation or identity that is verified as it is recorded
  (``Proof.equal``, ``Proof.obtain``, ``Proof.true``, ``Proof.value``), a combinatorial fact
  verified by exhaustive enumeration over a stated finite family (``Proof.enumerated``), a
  definition or hypothesis it starts from (``Proof.given``), or a logical conclusion drawn from
  numbered earlier steps (``Proof.conclude``);
* **checks** -- independent confirmations by another method (``Proof.check``): exact rational
  arithmetic at random points, mpmath at 50 digits, interval arithmetic over a grid, exhaustive
  enumeration, or a comparison with a printed number.

The verdict is declared by the claim (``holds``, ``holds as corrected``, ``refuted``,
``out of reach``) and *earned* by running it: a claim passes only if every step verified, every
check passed, and the checks span at least two independent kinds (``symbolic`` counts as one kind
when any step was verified by sympy; enumerated steps do not count towards it). Claims that are verdicts on printed numbers
(``printed_numbers=True``) and ``out of reach`` claims need one kind. A claim whose proof raises,
whose step fails, or whose check fails is reported as failed, and ``prtheory verify`` exits
non-zero.
"""

from __future__ import annotations

import itertools
import re
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

__all__ = [
    "CHECK_KINDS",
    "REGISTRY",
    "VERDICTS",
    "Check",
    "Claim",
    "ClaimResult",
    "Proof",
    "Step",
    "StepFailed",
    "claim",
    "combine",
    "decide",
    "run_claim",
    "to_latex",
]

VERDICTS = ("holds", "holds as corrected", "refuted", "out of reach")
CHECK_KINDS = ("symbolic", "numeric", "exact", "interval", "enumeration", "printed-number")


class StepFailed(AssertionError):
    """A recorded derivation step did not verify."""


@dataclass
class Step:
    """One line of a derivation: prose, a formula, how it was obtained and whether it verified."""

    text: str
    latex: str
    method: str  # "given", "conclusion", or how it was established: "simplify", "integrate", ...
    verified: bool | None  # None for givens and prose conclusions (not themselves checked)
    kind: str = "symbolic"  # "symbolic" (sympy), "enumeration", or "logic" (given, conclusion)
    expr: Any = None  # the sympy object the step records (what a later conclusion combines)

    @property
    def prose(self) -> bool:
        """A conclusion whose inference sympy did not check (a prose lemma)."""
        return self.kind == "logic" and self.method != "given" and self.verified is None


@dataclass
class Check:
    """An independent confirmation of the claim by a method other than the derivation."""

    kind: str
    text: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Claim:
    id: str
    source: str
    location: str
    title: str
    statement: Callable[[], Any]  # returns a sympy object (built lazily: keeps imports light)
    assumptions: tuple[str, ...]
    verdict: str
    proof: Callable[[Proof], None]
    note: str = ""
    printed_numbers: bool = False


@dataclass
class ClaimResult:
    claim: Claim
    steps: list[Step] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    statement_checked: bool = False  # the final step established the statement (``establish``)
    mutation: Any = None  # cache of :func:`prtheory.theory.mutants.kill_rate` for this result
    established: Any = None  # the conclusion the derivation established, when it did

    @property
    def kinds(self) -> list[str]:
        kinds = []
        if any(s.verified and s.kind == "symbolic" for s in self.steps):
            kinds.append("symbolic")
        for c in self.checks:
            if c.kind not in kinds:
                kinds.append(c.kind)
        return kinds

    @property
    def problems(self) -> list[str]:
        out = []
        if self.error:
            out.append(self.error)
        out += [f"step failed: {s.text}" for s in self.steps if s.verified is False]
        out += [f"check failed: {c.text} ({c.detail})" for c in self.checks if not c.passed]
        needed = 1 if (self.claim.printed_numbers or self.claim.verdict == "out of reach") else 2
        if not self.error and len(self.kinds) < needed:
            out.append(f"needs {needed} independent kinds of check, has {self.kinds}")
        return out

    @property
    def passed(self) -> bool:
        return not self.problems


REGISTRY: dict[str, Claim] = {}


def claim(
    id: str,
    *,
    source: str,
    location: str,
    title: str,
    statement: Callable[[], Any],
    assumptions: tuple[str, ...] | list[str],
    verdict: str = "holds",
    note: str = "",
    printed_numbers: bool = False,
) -> Callable[[Callable[[Proof], None]], Callable[[Proof], None]]:
    """Register the decorated proof function as the derivation of claim ``id``.

    ``id`` is letters followed by digits (``B4``, ``Y12``); the verdict one of :data:`VERDICTS`.
    """
    if not re.fullmatch(r"[A-Za-z]+\d+", id):
        raise ValueError(
            f"id: a claim id is letters followed by digits, e.g. B1 or Y12, got {id!r}"
        )
    if verdict not in VERDICTS:
        raise ValueError(f"verdict: must be one of {VERDICTS}, got {verdict!r}")
    if verdict != "holds" and not note:
        raise ValueError(f"{id}: a '{verdict}' verdict needs a note saying why")

    def register(fn: Callable[[Proof], None]) -> Callable[[Proof], None]:
        if id in REGISTRY:
            raise ValueError(f"claim {id} registered twice")
        REGISTRY[id] = Claim(
            id=id,
            source=source,
            location=location,
            title=title,
            statement=statement,
            assumptions=tuple(assumptions),
            verdict=verdict,
            proof=fn,
            note=note,
            printed_numbers=printed_numbers,
        )
        return fn

    return register


def _is_zero(expr: Any) -> tuple[bool, str]:
    """Decide ``expr == 0`` symbolically; return (verdict, the method that decided it)."""
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
    ``expand_log``; an equation when :func:`_is_zero` reduces ``lhs - rhs`` to 0. Anything
    sympy cannot decide counts as not holding. A Python ``bool`` (or any non-sympy object) is
    refused with ``TypeError``: that would be an assertion, not a verification.
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
            return _is_zero(fact.lhs - fact.rhs)
        d = sp.sympify(fact.lhs - fact.rhs)
        attr = _SIGN[op]
        for form in _forms(d):
            if getattr(form, attr) is True:
                return True, f"sign of lhs - rhs decided ({attr[3:]})"
        return False, f"sympy could not decide lhs - rhs {op} 0"
    return False, f"not a decidable fact: {type(fact).__name__}"


_CHAIN = {("==", "=="): "==", ("==", "<="): "<=", ("<=", "=="): "<=", ("<=", "<="): "<="}
_CHAIN.update({(a, b): "<" for a in ("==", "<=", "<") for b in ("==", "<=", "<") if "<" in (a, b)})


def _as_le(rel: Any) -> tuple[str, Any, Any] | None:
    """A relation as (op, smaller, larger) with op in ==, <=, <; None for anything else."""
    if not isinstance(rel, sp.core.relational.Relational) or rel.rel_op == "!=":
        return None
    if rel.rel_op in (">", ">="):
        rel = rel.reversed
    return rel.rel_op, rel.lhs, rel.rhs


def _transitive(a: Any, b: Any) -> list[Any]:
    """The relations that chain ``a`` and ``b`` gives (either order, equations both ways)."""
    out = []
    for x, y in ((a, b), (b, a)):
        fx, fy = _as_le(x), _as_le(y)
        if fx is None or fy is None:
            continue
        for ox, lx, mx in [fx] + ([("==", fx[2], fx[1])] if fx[0] == "==" else []):
            for oy, my, ry in [fy] + ([("==", fy[2], fy[1])] if fy[0] == "==" else []):
                if _quick_zero(sp.sympify(mx) - sp.sympify(my))[0]:
                    op = _CHAIN[(ox, oy)]
                    rel = {"==": sp.Eq, "<=": sp.Le, "<": sp.Lt}[op]
                    out.append(rel(lx, ry, evaluate=False))
    return out


def _follows(part: Any, facts: list[tuple[int, Any]]) -> str | None:
    """How ``part`` follows from the cited facts, or None."""
    known = [(k, f) for k, f in facts if isinstance(f, sp.Basic)]
    for k, f in known:
        if _says(part, f):
            return f"restates step {k}"
    for (i, f), (j, g) in itertools.combinations(known, 2):
        if any(_says(part, c) for c in _transitive(f, g)):
            return f"transitivity of steps {i} and {j}"
    for i, f in known:
        if isinstance(f, sp.Equality) and isinstance(f.lhs, sp.Symbol):
            for j, g in known:
                if j != i and _says(part, g.xreplace({f.lhs: f.rhs})):
                    return f"step {i} substituted into step {j}"
    return None


def _says(a: Any, b: Any) -> bool:
    try:
        return same_statement(a, b, _quick_zero)[0]
    except Exception:  # sympy could not compare them: not shown to follow
        return False


def combine(conclusion: Any, facts: list[tuple[int, Any]]) -> str | None:
    """sympy's check that ``conclusion`` follows from the numbered ``facts`` (see
    :meth:`Proof.conclude`); returns how it follows, or None when it does not (a prose lemma).
    An ``And`` (or ``Tuple``) follows when each of its parts does."""
    if not isinstance(conclusion, sp.Basic):
        return None
    whole = _follows(conclusion, facts)
    if whole is not None or not isinstance(conclusion, (sp.And, sp.Tuple)):
        return whole
    hows = [_follows(part, facts) for part in conclusion.args]
    return None if None in hows else "; ".join(dict.fromkeys(h for h in hows if h))


class Proof:
    """Recorder for one claim's derivation and checks (see the module docstring)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.checks: list[Check] = []
        self.established: Any = None

    def establish(self, text: str, conclusion: Any, steps: Sequence[int]) -> Any:
        """The final step: ``conclusion`` is the sympy object the derivation arrived at (built
        from the derived expressions, never from the claim's statement), resting on the numbered
        verified steps. :func:`run_claim` then requires sympy to decide that the claim's
        ``statement`` is this conclusion (:func:`same_statement`); a statement that says anything
        else fails the claim."""
        self.conclude(text, conclusion, steps)
        step = self.steps[-1]
        cited = ", ".join(map(str, steps))
        step.method = (
            f"establishes the statement from steps {cited} ({step.method.split('(', 1)[1]}"
            if step.verified
            else f"establishes the statement from steps {cited} (prose lemma)"
        )
        self.established = conclusion
        return conclusion

    # ---- derivation steps -------------------------------------------------------------
    def given(self, text: str, expr: Any) -> Any:
        """A definition or hypothesis the derivation starts from (not itself checked)."""
        self.steps.append(Step(text, to_latex(expr), "given", None, "logic", expr))
        return expr

    def conclude(self, text: str, expr: Any, steps: Sequence[int]) -> Any:
        """A logical conclusion from the numbered earlier steps (1-based), which must exist and
        have verified.

        sympy checks the inference where it can (:func:`combine`): the conclusion restates a
        cited step, or follows from cited relations by transitivity, or from a cited equation
        ``symbol = value`` by substitution into another cited step; an ``And`` part by part.
        The step then counts as verified. Otherwise it is a *prose lemma*: shown with the steps
        it rests on, labelled as such, and counted apart in the ledger."""
        bad = [
            k for k in steps if not 1 <= k <= len(self.steps) or self.steps[k - 1].verified is False
        ]
        if bad or not steps:
            raise StepFailed(f"{text}: rests on missing or failed steps {bad or 'none'}")
        cited = ", ".join(str(k) for k in steps)
        how = combine(expr, [(k, self.steps[k - 1].expr) for k in steps])
        if how is None:
            step = Step(text, to_latex(expr), f"follows from steps {cited} (prose lemma)", None)
        else:
            step = Step(text, to_latex(expr), f"follows from steps {cited} ({how})", True)
        step.kind, step.expr = "logic", expr
        self.steps.append(step)
        return expr

    def enumerated(self, text: str, expr: Any, outcome: tuple[bool, str]) -> Any:
        """A fact verified by exhaustive enumeration over a finite family (``checks.exhaustive``).

        The step holds for the enumerated family only; the text says what the general argument is.
        """
        ok, detail = outcome
        self.steps.append(
            Step(text, to_latex(expr), f"exhaustive enumeration: {detail}", bool(ok), "enumeration")
        )
        if not ok:
            raise StepFailed(f"{text}: enumeration failed: {detail}")
        return expr

    def value(self, text: str, shown: Any, computed: Any, expected: Any, method: str) -> Any:
        """sympy computed ``computed`` for ``shown`` (a limit, a sum, ...); it must equal ``expected``.

        Displayed as ``shown = computed = expected`` (the middle omitted when they coincide).
        """
        ok, how = _is_zero(sp.sympify(computed) - sp.sympify(expected))
        chain = [to_latex(shown), to_latex(computed)]
        if sp.sympify(computed) != sp.sympify(expected):
            chain.append(to_latex(expected))
        self._record(
            text,
            " = ".join(chain),
            method if how == "identical" else f"{method}, {how}",
            ok,
            sp.Eq(shown, computed, evaluate=False) if isinstance(shown, sp.Basic) else None,
        )
        return computed

    def obtain(self, text: str, expr: Any, method: str) -> Any:
        """A result that sympy *computed* (``integrate``, ``limit``, ``solve``, ``diff``, ...).

        The computation is the verification; ``expr`` must not contain unevaluated
        ``Integral``/``Limit``/``Derivative`` objects, which would mean sympy gave up.
        """
        ok = (
            not any(
                isinstance(a, (sp.Integral, sp.Limit, sp.Derivative))
                for a in sp.preorder_traversal(expr)
            )
            if isinstance(expr, sp.Basic)
            else True
        )
        self._record(text, expr, method, ok)
        return expr

    def equal(self, text: str, lhs: Any, rhs: Any, shown: Any = None) -> Any:
        """An identity ``lhs == rhs`` established by symbolic simplification of ``lhs - rhs``.

        ``shown`` (optional) is what the document displays instead of ``lhs = rhs``, e.g. the
        identity written with a named sub-expression.
        """
        ok, how = _is_zero(sp.sympify(lhs) - sp.sympify(rhs))
        identity = sp.Eq(sp.sympify(lhs), sp.sympify(rhs), evaluate=False)
        if shown is not None:
            self._record(text, shown, how, ok, identity)
        elif how == "identical":  # shown once: the computed left side is the expected right side
            self._record(text, rhs, "identical to the computed result", ok, identity)
        else:
            self._record(text, identity, how, ok)
        return rhs

    def true(self, text: str, fact: Any, method: str, shown: Any = None) -> Any:
        """A symbolic fact that sympy decides here: a relation (evaluated or not), a sympy
        boolean, or ``And``/``Or``/``Not`` of them (see :func:`decide`).

        A Python ``bool`` is refused (``TypeError``): it would be a verdict the author computed,
        recorded as if sympy had verified it. ``shown`` is what the document displays; by
        default ``fact`` itself.
        """
        ok, how = decide(fact)
        self._record(text, fact if shown is None else shown, f"{method}; {how}", ok, fact)
        return fact

    def sign(
        self,
        text: str,
        expr: Any,
        relation: str = ">",
        subs: dict | None = None,
        how: str = "sign from the positivity assumptions",
    ) -> None:
        """``expr > 0`` (``relation=">"``), ``>= 0``, ``< 0`` or ``<= 0``, decided by sympy from
        the symbols' assumptions after the substitutions ``subs`` (applied one at a time, in
        order, so a later one may rewrite an earlier one's result: ``{p: pi + d, pi: 1/(1+t)}``).
        Shown as the inequality itself."""
        e = sp.sympify(expr)
        for old, new in (subs or {}).items():
            e = e.xreplace({old: new})
        rel = _RELATIONS[relation]
        ok, why = decide(rel(e, 0, evaluate=False))
        self._record(text, rel(expr, 0, evaluate=False), f"{how}; {why}", ok)

    def solved(
        self, text: str, equation: Any, symbol: sp.Symbol, expected: Any, domain: Any = None
    ) -> Any:
        """sympy's ``solveset`` of ``equation`` for ``symbol`` over ``domain`` (the reals by
        default) must be the set ``expected`` (a ``FiniteSet``, an interval, a list of values).
        Returns the solution set."""
        domain = sp.S.Reals if domain is None else domain
        found = sp.solveset(equation, symbol, domain)
        want = sp.FiniteSet(*expected) if isinstance(expected, (list, tuple)) else expected
        ok = found == want or (
            sp.Complement(found, want) == sp.S.EmptySet
            and sp.Complement(want, found) == sp.S.EmptySet
        )
        shown = rf"\left\{{{sp.latex(symbol)} : {to_latex(equation)}\right\}} = {sp.latex(want)}"
        self._record(text, shown, "solveset", bool(ok))
        return found

    def _record(self, text: str, expr: Any, method: str, ok: bool, fact: Any = None) -> None:
        """Record a verified step: ``expr`` is what the document shows, ``fact`` the sympy
        object a later conclusion may combine (``expr`` itself when it is one)."""
        fact = expr if fact is None and isinstance(expr, sp.Basic) else fact
        self.steps.append(Step(text, to_latex(expr), method, ok, expr=fact))
        if not ok:
            raise StepFailed(f"{text}: {method} did not verify {expr}")

    # ---- independent checks -----------------------------------------------------------
    def check(self, kind: str, text: str, outcome: tuple[bool, str]) -> bool:
        """Record an independent check: ``outcome`` is ``(passed, detail)`` (see ``checks``)."""
        if kind not in CHECK_KINDS:
            raise ValueError(f"kind: must be one of {CHECK_KINDS}, got {kind!r}")
        passed, detail = outcome
        self.checks.append(Check(kind, text, bool(passed), detail))
        return bool(passed)


def _nonzero_somewhere(expr: sp.Expr) -> bool:
    """True when ``expr`` evaluates (20 digits) to a clearly non-zero number at a point
    of (0, 1) for every free symbol: a quick disproof of ``expr == 0`` before simplifying."""
    point = {
        x: sp.Rational(3 + k, 11 + 2 * k) for k, x in enumerate(sorted(expr.free_symbols, key=str))
    }
    try:
        value = sp.N(expr.xreplace(point).doit(), 20)
    except Exception:  # cannot evaluate: no disproof
        return False
    return bool(value.is_number and value.is_finite and abs(value) > sp.Float("1e-20"))


def _quick_zero(expr: Any) -> tuple[bool, str]:
    """A cheap test of ``expr == 0`` for matching cited steps (:func:`combine`): identical, or not
    disproved at two points (integers >= 2, then a point of (0, 1)) and ``cancel`` gives 0."""
    expr = sp.sympify(expr)
    if expr == 0:
        return True, "identical"
    if not isinstance(expr, sp.Expr):
        return False, "not an expression"
    symbols = sorted(expr.free_symbols, key=str)
    try:
        at = sp.N(expr.xreplace({x: sp.Integer(2 + k) for k, x in enumerate(symbols)}).doit(), 15)
        if at.is_number and at.is_finite and abs(at) > sp.Float("1e-12"):
            return False, "non-zero at a point"
    except Exception:  # cannot evaluate there: try the other point
        pass
    if _nonzero_somewhere(expr):
        return False, "non-zero at a point"
    try:
        return sp.cancel(expr) == 0, "cancel"
    except Exception:  # cancel could not handle it: not shown equal
        return False, "cancel failed"


def _zero(expr: Any) -> tuple[bool, str]:
    """:func:`_is_zero`, after a quick numerical disproof."""
    expr = sp.sympify(expr)
    if isinstance(expr, sp.Expr) and _nonzero_somewhere(expr):
        return False, "non-zero at a point"
    return _is_zero(expr)


def same_statement(
    statement: Any, conclusion: Any, zero: Callable[[Any], tuple[bool, str]] | None = None
) -> tuple[bool, str]:
    """Decide with sympy that ``statement`` says what ``conclusion`` says.

    Equalities match when their sides are equal side by side (either orientation: comparing
    only ``lhs - rhs`` would let any identity stand for any other); other
    relations when they are of the same kind (after reversing ``>`` to ``<``) and the differences
    of their sides agree; ``Tuple``, ``Not`` and ``Implies`` argument by argument in order;
    ``And``, ``Or`` and ``Equivalent`` (which sympy stores in a canonical order) by a one-to-one
    matching of their arguments; expressions when their difference is zero; anything else only when
    it is structurally identical. ``zero`` decides that a difference is 0 (default: numerical
    disproof, then :func:`_is_zero`'s simplifications).
    """
    zero = _zero if zero is None else zero
    s, c = sp.sympify(statement), sp.sympify(conclusion)
    if s == c:
        return True, "identical"
    if isinstance(s, sp.Equality) and isinstance(c, sp.Equality):
        for lhs, rhs in ((c.lhs, c.rhs), (c.rhs, c.lhs)):  # either orientation
            ok_l, _ = zero(s.lhs - lhs)
            ok_r, how = zero(s.rhs - rhs) if ok_l else (False, "")
            if ok_l and ok_r:
                return True, f"equal sides ({how})"
        return False, "the sides are not the derived sides"
    if isinstance(s, sp.core.relational.Relational) and isinstance(
        c, sp.core.relational.Relational
    ):
        s = s.reversed if s.rel_op in (">", ">=") else s
        c = c.reversed if c.rel_op in (">", ">=") else c
        if s.rel_op != c.rel_op:
            return False, f"relation {s.rel_op} is not {c.rel_op}"
        ok_l, _ = zero(s.lhs - c.lhs)
        ok_r, how = zero(s.rhs - c.rhs) if ok_l else (False, "")
        if ok_l and ok_r:
            return True, f"same relation, equal sides ({how})"
        ok, how = zero((s.lhs - s.rhs) - (c.lhs - c.rhs))
        return ok, f"same relation, equal side differences ({how})"
    if type(s) is type(c) and isinstance(s, (sp.And, sp.Or, sp.Equivalent)):
        # sympy stores these in a canonical order of their arguments, which need not pair a
        # statement's part with the conclusion part that says the same: match them one to one
        if len(s.args) != len(c.args):
            return False, "different number of parts"
        unused = list(c.args)
        for a in s.args:
            match = next((b for b in unused if same_statement(a, b, zero)[0]), None)
            if match is None:
                return False, f"no part of the conclusion says {a}"
            unused.remove(match)
        return True, "part by part"
    if type(s) is type(c) and isinstance(s, (sp.Tuple, sp.Not, sp.Implies)):
        if len(s.args) != len(c.args):
            return False, "different number of parts"
        for a, b in zip(s.args, c.args, strict=True):
            ok, how = same_statement(a, b, zero)
            if not ok:
                return False, f"part {a} is not {b} ({how})"
        return True, "part by part"
    if isinstance(s, sp.Expr) and isinstance(c, sp.Expr) and not isinstance(s, sp.Symbol):
        return zero(s - c)
    return False, "not the same statement"


def to_latex(expr: Any) -> str:
    if isinstance(expr, str):
        return expr
    if isinstance(expr, bool):
        return r"\text{True}" if expr else r"\text{False}"
    return sp.latex(expr)


def run_claim(c: Claim) -> ClaimResult:
    """Run one claim's derivation and checks; never raises (failures land in the result)."""
    pf = Proof()
    res = ClaimResult(c)
    t0 = time.perf_counter()
    try:
        c.proof(pf)
    except StepFailed as exc:
        res.error = str(exc)
    except Exception:  # a crashing proof is a failed claim, reported with its traceback
        res.error = "proof raised:\n" + traceback.format_exc(limit=4)
    res.steps, res.checks = pf.steps, pf.checks
    if not res.error and pf.established is None:
        res.error = (
            "the derivation never established the statement (end it with Proof.establish, "
            "whose conclusion sympy compares with the claim's statement)"
        )
    if not res.error and pf.established is not None:
        try:
            ok, how = same_statement(c.statement(), pf.established)
        except Exception as exc:  # an unbuildable statement is a failed claim
            ok, how = False, f"statement raised {exc!r}"
        res.statement_checked, res.established = True, pf.established
        if not ok:
            res.error = f"the statement is not what the derivation established: {how}"
    res.seconds = time.perf_counter() - t0
    return res
