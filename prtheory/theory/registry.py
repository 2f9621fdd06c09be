"""The claim registry: every claim of ``CLAIMS.md``, its derivation, its checks and its verdict.

A claim is registered with :func:`claim`: its *statement* (a sympy object), its *domain* (a
:class:`~prtheory.theory.domain.Domain`: the variables with their ranges, the definitions of its
names) and a *proof function* that receives a :class:`Proof` and records in it

* **steps** -- each a sympy computation or identity verified as it is recorded
  (``Proof.equal``, ``Proof.value``, ``Proof.true``, ``Proof.sign``), a fact verified by
  exhaustive enumeration over a stated finite family (``Proof.enumerated``), a definition or
  hypothesis shown for the reader (``Proof.given``: never a premise), or a conclusion from
  numbered earlier steps (``Proof.conclude``), the last of which establishes the statement
  (``Proof.establish``);
* **checks** -- further confirmations by another method (``Proof.check``), shown and required to
  pass.

Running a claim (:func:`run_claim`) earns its verdict:

1. every step verifies and every check passes;
2. the final step's inference is checked by sympy from the cited steps that are not givens and
   from the domain's definitions and bounds (:func:`~prtheory.theory.inference.combine`): a final
   inference sympy cannot check (prose) fails the claim; and the statement must be that
   conclusion (:func:`~prtheory.theory.inference.same_statement`). A claim may end without
   ``Proof.establish`` only when the registry certifies its statement (step 3);
3. the registry checks the statement object itself over its domain
   (:func:`~prtheory.theory.statement.check_statement`): a point where it is false fails the
   claim, whatever the derivation and the checks say.

The verdict says what was checked: **proved** when the final step rests, through checked
inferences, on steps sympy verified (no prose lemma, no enumeration of a finite family, no
given); the statement itself **certified** when the registry's check is rigorous over the whole
domain, **tested** when it is falsification at points. Only kinds of check that bear on the
statement count (:attr:`ClaimResult.kinds`): ``symbolic`` for a proof, and the arithmetic of the
statement check; the author's checks are shown but do not count.
"""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prtheory.theory.domain import Domain
from prtheory.theory.inference import combine, decide, is_zero, relation, same_statement, zero
from prtheory.theory.statement import StatementCheck, check_statement

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
    "same_statement",
    "to_latex",
]

VERDICTS = ("holds", "holds as corrected", "refuted", "out of reach")
CHECK_KINDS = ("symbolic", "numeric", "exact", "interval", "enumeration", "printed-number")
_OPERATORS = (sp.Integral, sp.Limit, sp.Sum, sp.Product, sp.Derivative)


class StepFailed(AssertionError):
    """A recorded derivation step did not verify.

    Examples
    --------
    By hand, ``(x + 1)**2 = x**2 + 2 x + 1``, not ``x**2 + 1``: the step fails.

    >>> import sympy as sp
    >>> from prtheory.theory.registry import Proof
    >>> x = sp.Symbol("x", positive=True)
    >>> Proof().equal("the square of x + 1", (x + 1) ** 2, x**2 + 1)
    Traceback (most recent call last):
    ...
    prtheory.theory.registry.StepFailed: the square of x + 1: (x + 1)**2 = x**2 + 1 does not verify (no simplification reached 0)
    """


@dataclass
class Step:
    """One line of a derivation: prose, a formula, how it was obtained and whether it verified.

    Examples
    --------
    A conclusion sympy did not check (``verified=None``) is a prose lemma; a given is not:

    >>> from prtheory.theory.registry import Step
    >>> Step("so the bound holds", "p >= 0", "follows from steps 1", None, "conclusion").prose
    True
    >>> Step("precision", "P = TP/(TP + FP)", "given", None, "given").prose
    False
    """

    text: str
    latex: str
    method: str  # how it was established: "simplify", "summation", "given", "follows from ..."
    verified: bool | None  # None: a given, or a conclusion sympy did not check (prose)
    kind: str = "symbolic"  # "symbolic", "enumeration", "given" or "conclusion"
    expr: Any = None  # the fact a later conclusion may cite (None: nothing citable)
    support: str = "verified"  # a conclusion's weakest premise: verified, enumerated, prose
    decided: str = ""  # LaTeX of what sympy decided, when the step displays something else

    @property
    def prose(self) -> bool:
        """A conclusion whose inference sympy did not check (a prose lemma)."""
        return self.kind == "conclusion" and self.verified is None


@dataclass
class Check:
    """A further confirmation of the claim by a method other than the derivation.

    Examples
    --------
    ``1/2 + 1/3 = 3/6 + 2/6 = 5/6``, confirmed in Fractions:

    >>> from fractions import Fraction
    >>> from prtheory.theory.registry import Check
    >>> passed = Fraction(1, 2) + Fraction(1, 3) == Fraction(5, 6)
    >>> Check("exact", "1/2 + 1/3 = 5/6 in Fractions", passed, "").passed
    True
    """

    kind: str
    text: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Claim:
    """One registered claim: its id, source, statement, domain and derivation (:func:`claim`
    builds it; :func:`run_claim` runs it).

    Examples
    --------
    Gauss's ``1 + 2 + ... + n = n (n + 1)/2`` (``n = 4``: ``1 + 2 + 3 + 4 = 10 = 4 * 5/2``),
    built directly rather than registered:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> n = sp.Symbol("n", positive=True, integer=True)
    >>> k = sp.Symbol("k", integer=True)
    >>> gauss = sp.Eq(sp.Sum(k, (k, 1, n)), n * (n + 1) / 2)
    >>> def derivation(pf):
    ...     pf.value("the sum of 1..n", sp.Sum(k, (k, 1, n)), n * (n + 1) / 2, "summation")
    ...     pf.establish("so the sum is n (n + 1)/2", gauss, [1])
    >>> y9 = Claim(
    ...     "Y9", "my notes", "eq. 1", "the sum of 1..n", lambda: gauss, ("n >= 1",), "holds",
    ...     derivation, domain=Domain(Integer(n, 1), exhaustive=20),
    ... )
    >>> y9.statement().subs(n, 4).doit()
    True
    """

    id: str
    source: str
    location: str
    title: str
    statement: Callable[[], Any]  # returns a sympy object (built lazily: keeps imports light)
    assumptions: tuple[str, ...]
    verdict: str
    proof: Callable[[Proof], None]
    note: str = ""
    domain: Domain | None = None


@dataclass
class ClaimResult:
    """What running a claim found (:func:`run_claim`): its steps, checks, statement check and
    the verdict line that says what backs the verdict.

    Examples
    --------
    Gauss's sum (see :class:`Claim`) with the statement ``n**2/2`` instead: at ``n = 1`` the
    sum is ``1``, not ``1/2``, so the statement check refutes it, and the statement is not what
    the derivation established.

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> n = sp.Symbol("n", positive=True, integer=True)
    >>> k = sp.Symbol("k", integer=True)
    >>> gauss = sp.Eq(sp.Sum(k, (k, 1, n)), n * (n + 1) / 2)
    >>> def derivation(pf):
    ...     pf.value("the sum of 1..n", sp.Sum(k, (k, 1, n)), n * (n + 1) / 2, "summation")
    ...     pf.establish("so the sum is n (n + 1)/2", gauss, [1])
    >>> y9 = Claim(
    ...     "Y9", "my notes", "eq. 1", "the sum of 1..n", lambda: gauss, ("n >= 1",), "holds",
    ...     derivation, domain=Domain(Integer(n, 1), exhaustive=20),
    ... )
    >>> wrong = sp.Eq(sp.Sum(k, (k, 1, n)), n**2 / 2)
    >>> r = run_claim(Claim(
    ...     "Y9", "my notes", "eq. 1", "wrong", lambda: wrong, ("n >= 1",), "holds",
    ...     derivation, domain=Domain(Integer(n, 1), exhaustive=20),
    ... ))
    >>> r.passed, r.statement_status
    (False, 'refuted')
    >>> r.verdict_line
    'not proved (the statement is not the conclusion); statement refuted'
    """

    claim: Claim
    steps: list[Step] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    statement_checked: bool = False  # the statement was compared with the final conclusion
    statement_mismatch: str = ""  # why the statement is not that conclusion ("" when it is)
    final_step: int = 0  # 1-based index of the step that establishes the statement (0: none)
    statement_check: StatementCheck | None = None
    mutation: Any = None  # cache of :func:`prtheory.theory.mutants.kill_rate` for this result
    established: Any = None  # the conclusion the derivation established (in this process)
    final_facts: Any = None  # the facts the final inference could use (in this process)

    @property
    def final(self) -> Step | None:
        return self.steps[self.final_step - 1] if self.final_step else None

    @property
    def proved(self) -> bool:
        """The final inference is checked and rests only on steps sympy verified."""
        f = self.final
        return bool(
            f is not None and f.verified and f.support == "verified" and not self.statement_mismatch
        )

    @property
    def kind(self) -> str:
        """proved, certified or tested (the strongest support of the statement)."""
        if self.proved:
            return "proved"
        sc = self.statement_check
        return "certified" if sc is not None and sc.status == "certified" else "tested"

    @property
    def statement_status(self) -> str:
        sc = self.statement_check
        return sc.status if sc is not None else "not checked"

    @property
    def kinds(self) -> list[str]:
        """The kinds of check that bear on the statement: ``symbolic`` for a proof, then the
        arithmetic the registry's statement check used."""
        kinds = ["symbolic"] if self.proved else []
        if self.statement_check is not None and self.statement_check.status in (
            "certified",
            "tested",
        ):
            kinds += [k for k in self.statement_check.kinds if k not in kinds]
        return kinds

    @property
    def verdict_line(self) -> str:
        """What backs the verdict, e.g. 'proved; statement certified' or 'not proved (the final
        step rests on prose steps); statement tested'."""
        sc = self.statement_check
        status = f"statement {sc.status}" if sc is not None else "statement not checked"
        f = self.final
        if self.proved:
            chain = "proved"
        elif f is None:
            chain = "no derivation of the statement"
        elif f.prose:
            chain = "not proved (the final step is prose)"
        elif self.statement_mismatch:
            chain = "not proved (the statement is not the conclusion)"
        else:
            chain = f"not proved (the final step rests on {f.support} steps)"
        return f"{chain}; {status}"

    @property
    def problems(self) -> list[str]:
        out = []
        if self.error:
            out.append(self.error)
        else:
            out += [f"step failed: {s.text}" for s in self.steps if s.verified is False]
        out += [f"check failed: {c.text} ({c.detail})" for c in self.checks if not c.passed]
        sc = self.statement_check
        if self.claim.domain is None:
            out.append(
                "the claim declares no domain (domain=Domain(...)): its statement cannot be "
                "checked over it"
            )
        elif sc is not None and sc.status in ("error", "refuted", "unevaluated"):
            out.append(f"the statement check: {sc.summary()}")
        if not self.error:
            final = self.final
            if final is None and self.statement_status != "certified":
                out.append(
                    "the derivation never established the statement (end it with "
                    "Proof.establish, whose conclusion sympy compares with the claim's statement), "
                    "and the statement check did not certify it"
                )
            elif final is None:
                pass
            elif final.prose:
                out.append(
                    f"the final inference (step {self.final_step}) is prose: sympy cannot derive "
                    "the conclusion from the cited steps (givens are not premises) and the "
                    "domain's definitions"
                )
            elif self.statement_mismatch:
                out.append(
                    "the statement is not what the derivation established: "
                    + self.statement_mismatch
                )
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
    domain: Domain | None = None,
    verdict: str = "holds",
    note: str = "",
) -> Callable[[Callable[[Proof], None]], Callable[[Proof], None]]:
    """Register the decorated proof function as the derivation of claim ``id``.

    ``id`` is letters followed by digits (``B4``, ``Y12``); the verdict one of :data:`VERDICTS`;
    ``domain`` says where the statement is checked (a claim without one fails).

    Parameters
    ----------
    id : str
        Letters followed by digits (``B4``, ``Y12``), not registered before.
    source, location, title : str
        Where the claim comes from and what it says, for the documents.
    statement : callable
        Returns the statement, a sympy object (built lazily).
    assumptions : tuple of str or list of str
        The assumptions, as the reader sees them.
    domain : Domain, optional
        Where the statement is checked (a claim without one fails when run).
    verdict : str
        One of :data:`VERDICTS`.
    note : str
        Why, for a verdict other than ``"holds"`` (required then).

    Returns
    -------
    callable
        The decorator: it registers the proof function in :data:`REGISTRY` and returns it
        unchanged.

    Raises
    ------
    ValueError
        ``id`` is not letters followed by digits or is registered twice; ``verdict`` is not one
        of :data:`VERDICTS`, or is not ``"holds"`` without a ``note``.
    TypeError
        ``domain`` is not a :class:`~prtheory.theory.domain.Domain`.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Real
    >>> from prtheory.theory.registry import REGISTRY, claim
    >>> x = sp.Symbol("x", positive=True)
    >>> @claim(
    ...     "Y90", source="my notes", location="eq. 2", title="(x + 1)^2 expands",
    ...     statement=lambda: sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1), assumptions=("x > 0",),
    ...     domain=Domain(Real(x, 0, 1, open_lo=True)),
    ... )
    ... def y90(pf):
    ...     pf.equal("expand", (x + 1) ** 2, x**2 + 2 * x + 1)
    ...     pf.establish("so", sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1), [1])
    >>> REGISTRY["Y90"].title
    '(x + 1)^2 expands'
    >>> del REGISTRY["Y90"]  # an example's claim leaves the registry as it was

    An id must be letters then digits:

    >>> claim("12", source="", location="", title="", statement=lambda: None, assumptions=())
    Traceback (most recent call last):
    ...
    ValueError: id: a claim id is letters followed by digits, e.g. B1 or Y12, got '12'
    """
    if not re.fullmatch(r"[A-Za-z]+\d+", id):
        raise ValueError(
            f"id: a claim id is letters followed by digits, e.g. B1 or Y12, got {id!r}"
        )
    if verdict not in VERDICTS:
        raise ValueError(f"verdict: must be one of {VERDICTS}, got {verdict!r}")
    if verdict != "holds" and not note:
        raise ValueError(f"{id}: a '{verdict}' verdict needs a note saying why")
    if domain is not None and not isinstance(domain, Domain):
        raise TypeError(f"{id}: domain must be a prtheory.theory.domain.Domain")

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
            domain=domain,
        )
        return fn

    return register


def plain(expr: Any) -> str:
    """A formula as plain text (``sstr``), for messages."""
    return expr if isinstance(expr, str) else sp.sstr(expr)


class Proof:
    """Recorder for one claim's derivation and checks (see the module docstring).

    Examples
    --------
    By hand, ``(x + 1)**2 - x**2 = 2 x + 1``, which is positive for ``x > 0``; the conclusion
    ``(x + 1)**2 > x**2`` follows from the two steps:

    >>> import sympy as sp
    >>> from prtheory.theory.registry import Proof
    >>> x = sp.Symbol("x", positive=True)
    >>> pf = Proof()
    >>> pf.equal("the difference", (x + 1) ** 2 - x**2, 2 * x + 1)
    2*x + 1
    >>> pf.sign("it is positive", 2 * x + 1)
    2*x + 1 > 0
    >>> pf.establish("so", sp.Gt((x + 1) ** 2, x**2), [1, 2])
    (x + 1)**2 > x**2
    >>> [s.verified for s in pf.steps], pf.final_step
    ([True, True, True], 3)
    """

    def __init__(self, domain: Domain | None = None) -> None:
        self.steps: list[Step] = []
        self.checks: list[Check] = []
        self.established: Any = None
        self.final_step = 0
        self.final_facts: list[tuple[str, Any]] = []
        self.domain = domain

    # ---- conclusions ---------------------------------------------------------------------
    def _facts(self, steps: Sequence[int]) -> list[tuple[str, Any]]:
        """The cited steps that can be premises (not givens, with a fact), then the domain's
        bounds (its definitions are applied by substitution: :meth:`Domain.expand`)."""
        facts = [
            (f"step {k}", self.steps[k - 1].expr)
            for k in steps
            if self.steps[k - 1].kind != "given" and self.steps[k - 1].expr is not None
        ]
        if self.domain is not None:
            facts += [("the domain", f) for f in self.domain.constraints()]
        return facts

    def expand(self, expr: Any) -> Any:
        """``expr`` with the domain's definitions substituted (itself without a domain)."""
        return self.domain.expand(expr) if self.domain is not None else expr

    def _inference(self, text: str, expr: Any, steps: Sequence[int], final: bool) -> Step:
        bad = [
            k for k in steps if not 1 <= k <= len(self.steps) or self.steps[k - 1].verified is False
        ]
        if bad or not steps:
            raise StepFailed(f"{text}: rests on missing or failed steps {bad or 'none'}")
        cited = [self.steps[k - 1] for k in steps]
        numbers = ", ".join(str(k) for k in steps)
        facts = self._facts(steps)
        if final:
            self.final_facts = facts
        how = combine(expr, facts, self.expand)
        if how is None:
            if not final and not any(s.verified for s in cited):
                raise StepFailed(
                    f"{text}: a prose conclusion must rest on at least one verified step; "
                    f"steps {numbers} are givens or prose"
                )
            return Step(
                text,
                to_latex(expr),
                f"follows from steps {numbers} (prose lemma)",
                None,
                "conclusion",
                expr,
                "prose",
            )
        support = _weakest(s for s in cited if s.kind != "given")
        return Step(
            text,
            to_latex(expr),
            f"follows from steps {numbers} ({how})",
            True,
            "conclusion",
            expr,
            support,
        )

    def conclude(self, text: str, expr: Any, steps: Sequence[int]) -> Any:
        """A logical conclusion from the numbered earlier steps (1-based), which must exist and
        not have failed.

        sympy checks the inference where it can (:func:`~prtheory.theory.inference.combine`):
        from the cited steps that are not givens and from the domain's definitions and bounds,
        the conclusion restates a fact, or follows by transitivity, by substitution, part by
        part, or as an implication. The step is then *checked*; it counts as verified support
        when every cited premise is verified. Otherwise it is a *prose lemma* (it must cite a
        verified step): shown with the steps it rests on, labelled as such."""
        step = self._inference(text, expr, steps, final=False)
        self.steps.append(step)
        return expr

    def establish(self, text: str, conclusion: Any, steps: Sequence[int]) -> Any:
        """The final step: ``conclusion`` is what the derivation arrived at (built from the
        derived expressions, never from the claim's statement), inferred from the numbered steps
        as in :meth:`conclude`. :func:`run_claim` requires the inference to be checked (a prose
        final step fails the claim) and the claim's ``statement`` to be this conclusion."""
        step = self._inference(text, conclusion, steps, final=True)
        cited = ", ".join(map(str, steps))
        step.method = step.method.replace(
            f"follows from steps {cited}", f"establishes the statement from steps {cited}", 1
        )
        self.steps.append(step)
        self.established = conclusion
        self.final_step = len(self.steps)
        return conclusion

    # ---- derivation steps -------------------------------------------------------------------
    def given(self, text: str, expr: Any) -> Any:
        """A definition or hypothesis shown for the reader (not checked; never a premise of a
        conclusion: definitions that premises need belong in the claim's domain)."""
        self.steps.append(Step(text, to_latex(expr), "given", None, "given", expr))
        return expr

    def enumerated(self, text: str, expr: Any, outcome: tuple[bool, str]) -> Any:
        """A fact verified by exhaustive enumeration over a finite family (``checks.exhaustive``).

        The step holds for the enumerated family only: a conclusion resting on it is not a
        proof of a statement about larger cases."""
        ok, detail = outcome
        self.steps.append(
            Step(
                text,
                to_latex(expr),
                f"exhaustive enumeration: {detail}",
                bool(ok),
                "enumeration",
                expr,
                "enumerated",
            )
        )
        if not ok:
            raise StepFailed(f"{text}: enumeration failed: {detail}")
        return expr

    def value(
        self,
        text: str,
        shown: Any,
        expected: Any,
        method: str,
        computed: Any = None,
        branch: Callable[[Any], Any] | None = None,
    ) -> Any:
        """The value of ``shown`` must be ``expected``; returns the computed value.

        When ``shown`` holds a limit, integral, sum, product or derivative, the registry
        computes it (``doit``; ``branch`` picks the branch of a ``Piecewise`` answer) and
        ``computed`` (optional) must agree: the recorded fact is ``shown = expected``. When
        ``shown`` is a symbol the domain defines by an expression, that expression is
        compared; a symbol the domain does not define is a label, and the step records
        ``computed = expected`` only. Displayed as ``shown = computed = expected`` (the middle
        omitted when it coincides)."""
        shown_e = sp.sympify(shown)
        fact: Any = None
        if any(isinstance(a, _OPERATORS) for a in sp.preorder_traversal(shown_e)):
            got = shown_e.doit()
            got = branch(got) if branch is not None else got
            if computed is not None and not zero(sp.sympify(computed) - got)[0]:
                self._fail(text, shown, got, computed, method, "is not what was passed as computed")
            computed = got
            left = shown_e
        elif isinstance(shown_e, sp.Symbol) and not (
            self.domain is not None and shown_e in self.domain.symbols
        ):
            if computed is None:
                raise TypeError(f"value: {shown} is a label; pass computed=")
            defined = self.domain.expand(shown_e) if self.domain is not None else shown_e
            left = shown_e if defined != shown_e else sp.sympify(computed)
            if defined != shown_e and not zero(defined - sp.sympify(computed))[0]:
                self._fail(
                    text, shown, defined, computed, method, "is not what was passed as computed"
                )
        else:
            left = shown_e
            computed = shown_e if computed is None else computed
        ok, how = zero(sp.sympify(computed) - sp.sympify(expected))
        if not ok:
            self._fail(text, shown, computed, expected, method, f"({how})")
        fact = sp.Eq(left, sp.sympify(expected), evaluate=False)
        chain = [to_latex(shown), to_latex(computed)]
        if sp.sympify(computed) != sp.sympify(expected):
            chain.append(to_latex(expected))
        self.steps.append(
            Step(
                text,
                " = ".join(chain),
                method if how == "identical" else f"{method}, {how}",
                True,
                expr=fact,
            )
        )
        return computed

    def _fail(self, text: str, shown: Any, got: Any, expected: Any, method: str, why: str) -> None:
        message = f"{text}: {plain(shown)} = {plain(got)}, which is not {plain(expected)} {why}"
        self.steps.append(Step(text, to_latex(shown), method, False))
        raise StepFailed(message.rstrip())

    def obtain(self, text: str, expr: Any, method: str) -> Any:
        """A result that sympy *computed* (``integrate``, ``limit``, ``solve``, ``diff``, ...),
        shown for the reader.

        The step verifies only that sympy finished (no unevaluated ``Integral``/``Limit``/
        ``Derivative`` in ``expr``); it records no fact a conclusion could cite (what a
        computation equals is recorded by :meth:`value` or :meth:`equal`)."""
        ok = (
            not any(isinstance(a, _OPERATORS) for a in sp.preorder_traversal(expr))
            if isinstance(expr, sp.Basic)
            else True
        )
        self.steps.append(Step(text, to_latex(expr), method, ok))
        if not ok:
            raise StepFailed(f"{text}: sympy did not finish ({plain(expr)})")
        return expr

    def equal(self, text: str, lhs: Any, rhs: Any, shown: Any = None) -> Any:
        """An identity ``lhs == rhs`` established by symbolic simplification of ``lhs - rhs``.

        ``shown`` (optional) is what the document displays instead of ``lhs = rhs``, e.g. the
        identity written with a named sub-expression.
        """
        lhs_e, rhs_e = sp.sympify(lhs), sp.sympify(rhs)
        ok, how = is_zero(lhs_e - rhs_e)
        identity = sp.Eq(lhs_e, rhs_e, evaluate=False)
        if not ok:
            self.steps.append(Step(text, to_latex(identity), how, False))
            raise StepFailed(f"{text}: {plain(lhs_e)} = {plain(rhs_e)} does not verify ({how})")
        if shown is not None:
            self.steps.append(Step(text, to_latex(shown), how, True, expr=identity))
        elif how == "identical":  # shown once: the computed left side is the expected right side
            self.steps.append(
                Step(text, to_latex(rhs), "identical to the computed result", True, expr=identity)
            )
        else:
            self.steps.append(Step(text, to_latex(identity), how, True, expr=identity))
        return rhs

    def true(self, text: str, fact: Any, method: str, shown: Any = None) -> Any:
        """A symbolic fact that sympy decides here: a relation (evaluated or not), a sympy
        boolean, or ``And``/``Or``/``Not`` of them (see :func:`decide`).

        A Python ``bool`` is refused (``TypeError``): it would be a verdict the author computed,
        recorded as if sympy had verified it. ``shown`` is what the document displays; when it
        differs from ``fact`` the document also shows what sympy decided.
        """
        ok, how = decide(fact)
        step = Step(
            text, to_latex(fact if shown is None else shown), f"{method}; {how}", ok, expr=fact
        )
        if shown is not None and shown != fact:
            step.decided = to_latex(fact)
        self.steps.append(step)
        if not ok:
            raise StepFailed(f"{text}: sympy did not decide {plain(fact)} ({how})")
        return fact

    def sign(
        self,
        text: str,
        expr: Any,
        relation_: str = ">",
        subs: dict | None = None,
        how: str = "sign from the positivity assumptions",
        where: Any = None,
    ) -> Any:
        """``expr > 0`` (``relation_=">"``), ``>= 0``, ``< 0`` or ``<= 0``, decided by sympy
        from the symbols' assumptions after the substitutions ``subs`` (applied one at a time,
        in order, so a later one may rewrite an earlier one's result: ``{p: pi + d, pi: 1/(1+t)}``).

        The substitutions must cover the claim's domain, unless ``where`` names the condition
        they encode (``p > pi`` for ``p = pi + d``): the fact recorded is then
        ``Implies(where, expr > 0)``. Shown as the inequality (and its condition); returns the
        fact."""
        e = sp.sympify(expr)
        for old, new in (subs or {}).items():
            e = e.xreplace({old: new})
        rel = relation(relation_)
        ok, why = decide(rel(e, 0, evaluate=False))
        fact = rel(expr, 0, evaluate=False)
        if where is not None:
            fact = sp.Implies(where, fact, evaluate=False)
        self.steps.append(Step(text, to_latex(fact), f"{how}; {why}", ok, expr=fact))
        if not ok:
            raise StepFailed(f"{text}: sympy did not decide {plain(fact)} ({why})")
        return fact

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
        self.steps.append(Step(text, shown, "solveset", bool(ok)))
        if not ok:
            raise StepFailed(f"{text}: solveset gives {plain(found)}, not {plain(want)}")
        return found

    # ---- further checks -------------------------------------------------------------------
    def check(self, kind: str, text: str, outcome: tuple[bool, str]) -> bool:
        """Record a further check: ``outcome`` is ``(passed, detail)`` (see ``checks``). It must
        pass; it does not count among the kinds of check that bear on the statement."""
        if kind not in CHECK_KINDS:
            raise ValueError(f"kind: must be one of {CHECK_KINDS}, got {kind!r}")
        passed, detail = outcome
        self.checks.append(Check(kind, text, bool(passed), detail))
        return bool(passed)


_RANK = {"verified": 0, "enumerated": 1, "prose": 2}


def _weakest(steps: Any) -> str:
    """The weakest support among premises: a verified step is verified; an enumeration is
    enumerated; a conclusion carries its own support (prose when sympy did not check it)."""
    worst = "verified"
    for s in steps:
        if s.kind == "enumeration":
            here = "enumerated"
        elif s.kind == "conclusion":
            here = s.support if s.verified else "prose"
        else:
            here = "verified"
        if _RANK[here] > _RANK[worst]:
            worst = here
    return worst


def to_latex(expr: Any) -> str:
    r"""A formula as LaTeX: a string unchanged, a Python bool as ``\text{True}`` or
    ``\text{False}``, anything else through ``sympy.latex``.

    Parameters
    ----------
    expr : str, bool or sympy object
        What to show.

    Returns
    -------
    str
        Its LaTeX.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.registry import to_latex
    >>> print(to_latex(sp.Rational(1, 2)), to_latex(True), to_latex("p \\ge 0"))
    \frac{1}{2} \text{True} p \ge 0
    """
    if isinstance(expr, str):
        return expr
    if isinstance(expr, bool):
        return r"\text{True}" if expr else r"\text{False}"
    return sp.latex(expr)


def run_claim(c: Claim, recorder: Proof | None = None) -> ClaimResult:
    """Run one claim's derivation, its checks and the statement check; never raises (failures
    land in the result). ``recorder`` replaces the :class:`Proof` (the mutation tests pass one
    whose ``establish`` changes the conclusion).

    Parameters
    ----------
    c : Claim
        The claim to run.
    recorder : Proof, optional
        The recorder its proof function receives (a fresh :class:`Proof` by default).

    Returns
    -------
    ClaimResult
        Its steps, checks, statement check and verdict line.

    Examples
    --------
    Gauss's ``1 + 2 + ... + n = n (n + 1)/2`` (``n = 3``: ``1 + 2 + 3 = 6 = 3 * 4/2``),
    derived by summation and checked over every ``n >= 1``:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> n = sp.Symbol("n", positive=True, integer=True)
    >>> k = sp.Symbol("k", integer=True)
    >>> gauss = sp.Eq(sp.Sum(k, (k, 1, n)), n * (n + 1) / 2)
    >>> def derivation(pf):
    ...     pf.value("the sum of 1..n", sp.Sum(k, (k, 1, n)), n * (n + 1) / 2, "summation")
    ...     pf.establish("so the sum is n (n + 1)/2", gauss, [1])
    >>> r = run_claim(Claim(
    ...     "Y9", "my notes", "eq. 1", "the sum of 1..n", lambda: gauss, ("n >= 1",), "holds",
    ...     derivation, domain=Domain(Integer(n, 1), exhaustive=20),
    ... ))
    >>> r.passed, r.proved, r.final_step
    (True, True, 2)
    """
    pf = recorder if recorder is not None else Proof(c.domain)
    pf.domain = c.domain
    res = ClaimResult(c)
    t0 = time.perf_counter()
    try:
        c.proof(pf)
    except StepFailed as exc:
        res.error = str(exc)
    except Exception:  # a crashing proof is a failed claim, reported with its traceback
        res.error = "proof raised:\n" + traceback.format_exc(limit=4)
    res.steps, res.checks = pf.steps, pf.checks
    res.final_step, res.final_facts = pf.final_step, pf.final_facts
    try:
        stated = c.statement()
    except Exception as exc:  # an unbuildable statement is a failed claim
        res.error = res.error or f"the statement raised {exc!r}"
        stated = None
    if stated is not None and c.domain is not None:
        res.statement_check = check_statement(stated, c.domain)
    if stated is not None and pf.established is not None and not res.error:
        try:
            ok, how = same_statement(stated, pf.established)
        except Exception as exc:  # sympy could not compare them: not the same
            ok, how = False, f"sympy could not compare them ({exc!r})"
        res.statement_checked, res.established = True, pf.established
        if not ok:
            res.statement_mismatch = how
    res.seconds = time.perf_counter() - t0
    return res
