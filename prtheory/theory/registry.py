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

import re
import time
import traceback
from collections.abc import Callable, Sequence
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
    verified: bool | None  # None for givens and conclusions (not themselves checked)
    kind: str = "symbolic"  # "symbolic" (sympy), "enumeration", or "logic" (given, conclusion)


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
        self.steps[-1].method = f"establishes the statement from steps {', '.join(map(str, steps))}"
        self.established = conclusion
        return conclusion

    # ---- derivation steps -------------------------------------------------------------
    def given(self, text: str, expr: Any) -> Any:
        """A definition or hypothesis the derivation starts from (not itself checked)."""
        self.steps.append(Step(text, to_latex(expr), "given", None, "logic"))
        return expr

    def conclude(self, text: str, expr: Any, steps: Sequence[int]) -> Any:
        """A logical conclusion from the numbered earlier steps (1-based), which must exist and
        have verified; the inference itself is prose, shown with the steps it rests on."""
        bad = [
            k for k in steps if not 1 <= k <= len(self.steps) or self.steps[k - 1].verified is False
        ]
        if bad or not steps:
            raise StepFailed(f"{text}: rests on missing or failed steps {bad or 'none'}")
        cited = ", ".join(str(k) for k in steps)
        self.steps.append(Step(text, to_latex(expr), f"follows from steps {cited}", None, "logic"))
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
            text, " = ".join(chain), method if how == "identical" else f"{method}, {how}", ok
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
        if shown is not None:
            self._record(text, shown, how, ok)
        elif how == "identical":  # shown once: the computed left side is the expected right side
            self._record(text, rhs, "identical to the computed result", ok)
        else:
            self._record(text, sp.Eq(lhs, rhs, evaluate=False), how, ok)
        return rhs

    def true(self, text: str, fact: Any, method: str, shown: Any = None) -> Any:
        """A symbolic fact (a sympy boolean or a Python bool computed by sympy) that must hold.

        ``shown`` is what the document displays (e.g. the unevaluated inequality whose truth
        ``fact`` records); by default ``fact`` itself.
        """
        ok = bool(fact is True or fact == sp.true)
        self._record(text, fact if shown is None else shown, method, ok)
        return fact

    def _record(self, text: str, expr: Any, method: str, ok: bool) -> None:
        self.steps.append(Step(text, to_latex(expr), method, ok))
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


def _zero(expr: Any) -> tuple[bool, str]:
    """:func:`_is_zero`, after a quick numerical disproof."""
    expr = sp.sympify(expr)
    if isinstance(expr, sp.Expr) and _nonzero_somewhere(expr):
        return False, "non-zero at a point"
    return _is_zero(expr)


def same_statement(statement: Any, conclusion: Any) -> tuple[bool, str]:
    """Decide with sympy that ``statement`` says what ``conclusion`` says.

    Equalities match when their sides are equal side by side (either orientation: comparing
    only ``lhs - rhs`` would let any identity stand for any other); other
    relations when they are of the same kind (after reversing ``>`` to ``<``) and the differences
    of their sides agree; ``And``/``Tuple`` argument by argument in order; ``Not``, ``Implies``,
    ``Equivalent`` likewise; expressions when their difference is zero; anything else only when
    it is structurally identical.
    """
    s, c = sp.sympify(statement), sp.sympify(conclusion)
    if s == c:
        return True, "identical"
    if isinstance(s, sp.Equality) and isinstance(c, sp.Equality):
        for lhs, rhs in ((c.lhs, c.rhs), (c.rhs, c.lhs)):  # either orientation
            ok_l, _ = _zero(s.lhs - lhs)
            ok_r, how = _zero(s.rhs - rhs) if ok_l else (False, "")
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
        ok_l, _ = _zero(s.lhs - c.lhs)
        ok_r, how = _zero(s.rhs - c.rhs)
        if ok_l and ok_r:
            return True, f"same relation, equal sides ({how})"
        ok, how = _zero((s.lhs - s.rhs) - (c.lhs - c.rhs))
        return ok, f"same relation, equal side differences ({how})"
    if type(s) is type(c) and isinstance(
        s, (sp.And, sp.Tuple, sp.Not, sp.Implies, sp.Equivalent, sp.Or)
    ):
        if len(s.args) != len(c.args):
            return False, "different number of parts"
        for a, b in zip(s.args, c.args, strict=True):
            ok, how = same_statement(a, b)
            if not ok:
                return False, f"part {a} is not {b} ({how})"
        return True, "part by part"
    if isinstance(s, sp.Expr) and isinstance(c, sp.Expr) and not isinstance(s, sp.Symbol):
        return _zero(s - c)
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
