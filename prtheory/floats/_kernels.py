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
import math
import os
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from prtheory.floats import dd, logs

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
_NAMES = ("min_precision", "gain", "fbeta", "aucpr_min")


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
#: The logarithmic kernels' bound: the reference path's (:data:`prtheory.floats.aucpr.REL`),
#: whose operations they repeat.
REL_LOG = 2.0**-86


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

    psi_h, psi_l = _coefficients(logs.PSI)
    atanh_h, atanh_l = _coefficients(logs.ATANH)
    psi_dd, atanh_dd, series_max = logs.PSI_DD, logs.ATANH_DD, logs.SERIES_MAX
    ln2_h, ln2_l, sqrt_half = logs.LN2[0], logs.LN2[1], logs.SQRT_HALF

    @_jit(inline="always")
    def horner(ch: Any, cl: Any, low: Any, xh: Any, xl: Any) -> Any:
        """:func:`prtheory.floats.logs.horner` for one element: the same operations."""
        n = ch.size
        tail = ch[0]
        for k in range(1, n - low):
            tail = tail * xh + ch[k]
        sh, sl = tail, 0.0
        for k in range(n - low, n):
            ph, pl = mul(sh, sl, xh, xl)
            sh, sl = add(ph, pl, ch[k], cl[k])
        return sh, sl

    @_jit(inline="always")
    def log(yh: Any, yl: Any) -> Any:
        """:func:`prtheory.floats.logs.log` for one element (``yh`` >= 2**-900): the same
        operations, so its bound (2**-94 relative) holds."""
        m, e = math.frexp(yh)
        if m < sqrt_half:
            m = 2.0 * m
            e = e - 1
        zl = math.ldexp(yl, -e)
        nh, nl = two_sum(m - 1.0, zl)
        dh, dl = add(m, zl, 1.0, 0.0)
        sh, sl = div(nh, nl, dh, dl)
        th, tl = mul(sh, sl, sh, sl)
        ah, al = horner(atanh_h, atanh_l, atanh_dd, th, tl)
        lh, ll = mul(sh, sl, ah, al)
        ef = float(e)
        kh, kl = two_prod(ef, ln2_h)
        kh, kl = fast_two_sum(kh, kl + ef * ln2_l)
        return add(kh, kl, 2.0 * lh, 2.0 * ll)

    @_jit(cache=True)
    def aucpr_min(pi: Any, a: Any, b: Any, out: Any, todo: Any) -> Any:
        # The operations of prtheory.floats.aucpr._aucpr_min_dd without its exact power-of-two
        # scalings, which the range pi >= 2**-600, b - a >= 2**-100 makes unnecessary: w >= 2**-100,
        # x = pi w >= 2**-700, and every term and result stays above 2**-860 (the smallest is
        # pi (1 - pi) w^2 psi(x) >= 2**-600 2**-53 2**-200 / 4), so no error term underflows.
        # Scaling by powers of two is exact, so the reference path's bound (2**-88.5 relative,
        # aucpr module docstring) holds unchanged: REL_LOG = 2**-86 as there.
        for i in range(pi.size):
            p, lo, hi = pi[i], a[i], b[i]
            if not (p >= 2.0**-600 and p < 1.0 and hi - lo >= 2.0**-100):
                out[i] = 0.0
                todo[i] = True
                continue
            omh, oml = two_sum(1.0, -p)
            ph, pl = two_prod(p, lo)
            uh, ul = add(omh, oml, ph, pl)
            dh, dl = two_sum(hi, -lo)
            wh, wl = div(dh, dl, uh, ul)
            xh, xl = mul(wh, wl, p, 0.0)
            if xh <= series_max:
                sh, sl = horner(psi_h, psi_l, psi_dd, xh, xl)
                mh, ml = mul(omh, oml, wh, wl)
                th, tl = mul(mh, ml, sh, sl)
                bh, bl = add(th, tl, lo, 0.0)
                qh, ql = mul(wh, wl, p, 0.0)
                rh, rl = mul(qh, ql, bh, bl)
            else:
                yh, yl = add(xh, xl, 1.0, 0.0)
                lh, ll = log(yh, yl)
                ch, cl = div(omh, oml, p, 0.0)
                fh, fl = add(xh, xl, -lh, -ll)
                th, tl = mul(ch, cl, fh, fl)
                qh, ql = mul(wh, wl, p, 0.0)
                ah, al = mul(qh, ql, lo, 0.0)
                rh, rl = add(th, tl, ah, al)
            y, undecided = decide(rh, rl, REL_LOG)
            out[i] = y
            todo[i] = undecided

    return {"min_precision": min_precision, "gain": gain, "fbeta": fbeta, "aucpr_min": aucpr_min}


def _coefficients(coeffs: list[tuple[float, float]]) -> tuple[Array, Array]:
    """A series' double-double coefficients (highest degree first) as two arrays."""
    return np.array([c[0] for c in coeffs]), np.array([c[1] for c in coeffs])
