"""Fused compiled kernels of the float64 closed forms (optional: needs numba, extra ``fast``).

Why a compiled kernel: the double-double formulas are tens of arithmetic operations per element.
As numpy array operations each is a pass over memory (hundreds of passes per closed form,
40-100x the time of the naive formula); fused into one loop they run from registers, and LLVM
vectorises the branch-free ones. numba compiles the very functions of :mod:`prtheory.floats.dd`
(their code objects, with the compiled primitives as globals), so the kernels and the numpy
reference path share one implementation of every double-double operation and its proof. numba is
an optional dependency: without it (or after ``set_backend("numpy")``) the numpy path does
everything, with the same results.

Each kernel takes flat float64 arrays and returns the values and a mask of the elements *to do*:
those outside the kernel's stated range (chosen so that no intermediate underflows below
2**-969 or overflows, where the double-double bounds of :mod:`~prtheory.floats.dd` hold without
scaling) and those whose rounding the test cannot decide. Those go to the reference path
(:mod:`prtheory.floats._tiers`). The relative error bound of each kernel is stated and derived
at the kernel; the rounding test is :func:`_decide`.

The compiled code is cached on disk by numba (``__pycache__``); numba does not notice changes in
:mod:`~prtheory.floats.dd` alone, so after editing that module clear the cache (or touch this
file).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from prtheory.floats import dd

#: numba when it is installed (extra ``fast``), else None
numba: Any = importlib.import_module("numba") if importlib.util.find_spec("numba") else None

Array = np.ndarray

#: The backend in use: "numba" when numba is importable (and PRTHEORY_FLOATS_BACKEND is not
#: "numpy"), otherwise "numpy".
_state = {
    "backend": "numba"
    if numba is not None and os.environ.get("PRTHEORY_FLOATS_BACKEND", "numba") != "numpy"
    else "numpy"
}


def enabled() -> bool:
    return _state["backend"] == "numba"


def set_backend(name: str) -> str:
    """Select the first tier: ``"numba"`` (fused kernels) or ``"numpy"`` (the reference path
    only). Returns the previous backend. Results are identical; only the speed differs."""
    if name not in ("numba", "numpy"):
        from prtheory.errors import InvalidInputError

        raise InvalidInputError("backend", f'must be "numba" or "numpy", got {name!r}')
    if name == "numba" and numba is None:
        from prtheory.errors import InvalidInputError

        raise InvalidInputError("backend", 'numba is not installed (pip install "prtheory[fast]")')
    previous = _state["backend"]
    _state["backend"] = name
    return previous


def backend() -> str:
    """The first tier in use: ``"numba"`` (fused kernels) or ``"numpy"`` (the reference path)."""
    return _state["backend"]


# ---------------------------------------------------------------------------------------------
# compilation


_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(**options: Any) -> Callable[[_F], _F]:
    """numba's ``njit`` with numpy's error model (division by zero gives inf/NaN, no exception)."""
    return cast("Callable[[_F], _F]", numba.njit(error_model="numpy", **options))


def _compiled_primitives() -> dict[str, Any]:
    """The functions of :mod:`dd` compiled by numba, each calling the others' compiled forms."""
    namespace: dict[str, Any] = {"_SPLITTER": dd._SPLITTER}
    for fn in dd.PRIMITIVES:
        clone = types.FunctionType(fn.__code__, namespace, fn.__name__)
        namespace[fn.__name__] = _jit(inline="always")(clone)
    return namespace


_KERNELS: dict[str, Any] = {}
_NAMES = ("min_precision", "gain", "fbeta")


def has(name: str) -> bool:
    """Whether closed form ``name`` has a fused kernel."""
    return name in _NAMES


def run(name: str, *args: Array) -> tuple[Array, Array]:
    """Values and to-do mask of kernel ``name`` over flat float64 arguments of equal length."""
    kernel = _KERNELS.get(name)
    if kernel is None:
        kernel = _KERNELS[name] = _build()[name]
    n = args[0].size
    out = np.empty(n)
    todo = np.empty(n, dtype=np.uint8)
    kernel(*(np.ascontiguousarray(a, dtype=np.float64) for a in args), out, todo)
    return out, todo.view(bool)


_BUILT: dict[str, Any] = {}


def _build() -> dict[str, Any]:
    if not _BUILT:
        _BUILT.update(_define(**_compiled_primitives()))
    return _BUILT


# ---------------------------------------------------------------------------------------------
# the kernels

#: Arguments and intermediates of the rational kernels stay at or above this magnitude (or are
#: exactly 0), so no product's error term underflows (that needs about 2**-969).
TINY = 2.0**-900
#: Relative error bound passed to the rounding test by the rational kernels (each derivation
#: below ends at or under 2**-96).
REL = 2.0**-90


def _define(
    two_sum: Any,
    fast_two_sum: Any,
    split: Any,
    two_prod: Any,
    add: Any,
    add_fp: Any,
    mul: Any,
    mul_fp: Any,
    div: Any,
    _SPLITTER: float,
) -> dict[str, Any]:
    """Compile the kernels over the compiled primitives (names as in :mod:`dd`)."""

    @_jit(inline="always")
    def decide(h: Any, lo: Any, rel: Any) -> Any:
        """Rounding test of :func:`prtheory.floats.dd.decide` at scale 1: ``fl(h + t)`` rounds
        ``h + t`` correctly even below 2**-1022, so no rescaling is needed."""
        r = 2.0 * rel * abs(h)
        y_lo = h + (lo - r)
        y_hi = h + (lo + r)
        return y_lo, y_lo != y_hi

    @_jit(cache=True)
    def min_precision(r: Any, pi: Any, out: Any, todo: Any) -> Any:
        # pi r / ((1 - pi) + pi r): pi r exact (TwoProd, >= 2**-900), 1 - pi exact (2Sum), one
        # AccurateDWPlusDW (3u^2) and one DWDivDW2 (15u^2 + 56u^3): below 19u^2 < 2**-97
        for i in range(r.size):
            nh, nl = two_prod(pi[i], r[i])
            oh, ol = two_sum(1.0, -pi[i])
            uh, ul = add(oh, ol, nh, nl)
            qh, ql = div(nh, nl, uh, ul)
            y, undecided = decide(qh, ql, REL)
            out[i] = y
            todo[i] = undecided | (nh < TINY)

    @_jit(cache=True)
    def gain(x: Any, pi: Any, out: Any, todo: Any) -> Any:
        # (x - pi) / ((1 - pi) x): x - pi exact (2Sum); (1 - pi) x by DWTimesFP1 (1.5u^2 + 4u^3),
        # >= 2**-953; one DWDivDW2: below 17u^2 < 2**-97. |result| <= 2**953: no overflow.
        for i in range(x.size):
            nh, nl = two_sum(x[i], -pi[i])
            oh, ol = two_sum(1.0, -pi[i])
            dh, dl = mul_fp(oh, ol, x[i])
            qh, ql = div(nh, nl, dh, dl)
            y, undecided = decide(qh, ql, REL)
            out[i] = y
            todo[i] = undecided | (x[i] < TINY) | (abs(nh) < TINY)

    @_jit(cache=True)
    def fbeta(p: Any, r: Any, beta: Any, out: Any, todo: Any) -> Any:
        # F = (1 + c) x y / (c x + y) with (x, y, c) = (p, r, beta^2) for beta <= 1 and
        # (r, p, (1/beta)^2) for beta > 1, so that c <= 1. Range: 2**-100 <= beta <= 2**100,
        # p and r 0 or >= 2**-300. c: exact (TwoProd) or 1/beta by DWDivDW2 then squared by
        # DWTimesDW1: 2 (15.1u^2) + 7u^2 < 38u^2; |d ln F / d ln c| < 1 carries that to F.
        # Then DWPlusFP (2u^2), exact TwoProd, DWTimesDW1 (7u^2), DWTimesFP1 (1.5u^2), DWPlusFP
        # (2u^2, both terms positive), DWDivDW2 (15.1u^2): below 66u^2 < 2**-96.
        for i in range(p.size):
            b = beta[i]
            swap = b > 1.0
            x = r[i] if swap else p[i]
            y = p[i] if swap else r[i]
            ih, il = div(1.0, 0.0, b if swap else 1.0, 0.0)
            bh = ih if swap else b
            bl = il if swap else 0.0
            ch, cl = mul(bh, bl, bh, bl)
            oh, ol = add_fp(ch, cl, 1.0)
            xyh, xyl = two_prod(x, y)
            nh, nl = mul(oh, ol, xyh, xyl)
            th, tl = mul_fp(ch, cl, x)
            dh, dl = add_fp(th, tl, y)
            qh, ql = div(nh, nl, dh, dl)
            v, undecided = decide(qh, ql, REL)
            zero = (x == 0.0) | (y == 0.0)
            out[i] = 0.0 if zero else v
            outside = (b < 2.0**-100) | (b > 2.0**100) | (x < 2.0**-300) | (y < 2.0**-300)
            todo[i] = (undecided | outside) & ~zero

    return {"min_precision": min_precision, "gain": gain, "fbeta": fbeta}
