"""Fast paths of AUCPR_min and AUCNPR in front of their accurate fused kernels (numba only).

The accurate kernels of :mod:`prtheory.floats._fused` evaluate AUCPR_min to within 2**-88.5
(relative) with a logarithm and a series good to 2**-98: about 35 ns per element. A correctly
rounded result needs far less almost everywhere: the rounding test decides an element whenever
the error interval misses every midpoint, and with a relative error bound of 2**-66 that fails
for about one element in 2700. So each kernel here first evaluates a shorter formula with a
proved bound (:data:`REL_FAST`, derived below), rounds both ends of its error interval
(:func:`prtheory.floats._fused.decide`), and hands only the undecided elements, and those outside
its range, to the accurate kernel, which is unchanged; what that leaves goes on to the numpy
reference path and the oracle (:mod:`prtheory.floats._tiers`). Every tier returns the correctly
rounded value or "undecided", so the result is the same bits as without the fast path.

The formula
-----------
As in :mod:`prtheory.floats.aucpr`: ``u = 1 - pi + pi a``, ``w = (b - a)/u``, ``x = pi w``,
``AUCPR_min = ((1 - pi)/pi) phi(x) + a x`` and the gap ``AUCPR_max - AUCPR_min = ((1 - pi)/pi)
log1p(x)``, with ``phi(x) = x - log1p(x)``. Both ``phi`` and ``log1p`` come from one table
lookup. Let ``1 + x = 2**e t``, ``t`` in [1, 2), ``i`` the top 8 bits of ``t``'s fraction, ``r_i``
the float nearest to ``1/(1 + (i + 1/2)/256)`` (``r_0 = 1``), ``X = 2**e/r_i - 1`` (a table
point) and ``z = r_i 2**-e (1 + x) - 1``, so that ``1 + x = (1 + X)(1 + z)``, ``|z| <= 2**-8``.
Then, exactly,

    phi(x) = phi(X) + X z + z**2 psi(z),      log1p(x) = log1p(X) + z - z**2 psi(z),

with ``psi(z) = (z - log1p(z))/z**2 = sum_k (-z)**k/(k + 2)``. For ``e <= 1`` (``x < 3``) the
table holds ``X`` and ``phi(X)``; every term of the first sum is non-negative except ``X z``, and
on every table interval the sum of the terms' magnitudes is at most ``C_PHI = 4`` times
``phi(x)`` (the worst is ``i = 1``, at its lower end; ``tests/test_floats_quick.py`` computes all
of them, and the other factors below, with mpmath), so the sum never cancels much: this is what
replaces the cancelling ``x - log1p(x)`` near 0. For ``i = 0``, ``e = 0`` (``x < 2**-8``) ``X = 0`` and ``z`` is ``x`` itself. For ``e >= 2``
(``x >= 3``) the table holds ``-ln r_i`` and ``phi(x) = (x - K) - z + z**2 psi(z)`` with ``K =
log1p(X) = e ln 2 - ln r_i``: the terms' magnitudes add up to at most 1.01 ``phi(x)``, and
``x + K`` to at most ``2.72 phi(x)`` (``(x + log1p x)/phi(x)`` decreases in ``x``; 2.718 at 3).
``log1p(X)`` for ``e <= 1`` is ``X - phi(X)`` (the two table values; at most a factor 3.33
between their magnitudes and the result). The terms of ``log1p(x)`` add up to at most
``C_L = 2`` times it.

Error bound (u = 2**-53; every double-double below has ``|lo| <= u |hi|``)
--------------------------------------------------------------------------
Primitives. TwoSum, Fast2Sum and TwoProd (here by one FMA: the same, exact, result as Dekker's
product in :mod:`prtheory.floats.dd`) are exact. ``mul`` is DWTimesDW1 (7u**2, as in
:mod:`~prtheory.floats.dd`). :func:`mul_f` (DWTimesFP3 of Joldes, Muller & Popescu): one rounding,
of ``xl y + (xh y - ch)``, at most ``u (2u |xh y|)``: 2.01u**2. :func:`add_loose` (SloppyDWPlusDW):
the roundings of ``xl + yl`` and of ``e + v`` are at most ``u (|xl| + |yl|)`` and
``u (|e| + |v|)``, below ``3.01u**2 (|x| + |y|)`` (absolute), and Fast2Sum's condition holds
whenever the terms' magnitudes are less than 2**50 times their sum. :func:`add3`: two TwoSums,
then four float additions of terms each below ``u`` times ``|a|``, ``|b|``, ``|c|``, ``|s1|`` or
``|s|``: at most ``4.01u (3.01u S) < 12.1u**2 S``, ``S = |a| + |b| + |c|``. :func:`recip`: ``q =
RN(1/h)``, ``rho = RN(1 - q h)`` (exact in fact; counted as one rounding, ``u**2``), and
``1/(h + l) = q/((1 - rho)(1 + l/h)) = q (1 + rho - l/h + r2)`` with ``|r2| <= 4.04u**2``; the
correction ``q (rho - l q)`` has three roundings and drops ``rho l/h``: below 11.2u**2.

1. Setup, for ``2**-300 <= pi < 1``, ``b - a >= 2**-100``: ``1 - pi`` and ``pi a`` exact (an
   underflowed error term of ``pi a`` is below 2**-1074 against ``u >= 2**-53``); ``u`` by
   :func:`add_loose` of non-negative terms (3.01u**2), ``1/u`` by :func:`recip` (11.2u**2),
   ``w = (b - a)(1/u)`` by ``mul`` (7u**2), ``x = w pi`` by :func:`mul_f` (2.01u**2): ``x``
   within 23.3u**2 < 2**-97.4, and ``2**-400 <= x <= 2**53``.
2. Reduction: ``1 + x`` by DWPlusFP (2u**2 of ``1 + x``); ``e``, ``i`` and ``t`` read off the
   bits, ``t``'s low word scaled exactly by ``2**-e``; ``r_i t`` by TwoProd, ``r_i t_h - 1``
   exact (Sterbenz), one rounding in the low word (``2.02u**2``), TwoSum: ``z`` is within
   ``4.05u**2`` (absolute) of the ``z`` of the computed ``x``. Its effect on ``phi`` is at most
   ``(X + |z|) 4.05u**2``, on ``log1p`` ``1.01 * 4.05u**2``: below 2**-92.9 of either (on ``e = 0``,
   ``i >= 1``: ``x >= 2**-8``, ``phi(x) >= 0.3 x**2``, ``X <= 1.5 x``, ``|z| <= x``,
   ``log1p(x) >= 2**-8.1``; on ``e >= 1`` the factors are smaller). For ``i = 0``, ``e = 0``,
   ``z = x`` exactly.
3. ``psi(z)``: ``1/2 - z/3 + z**2/4 - z**3 Q(z)``, ``Q`` the next eight terms (``k = 3..10``) in
   float64 (Horner with FMA): the truncation is below ``Z**11/13 < 2**-91.7`` (``Z = 2**-8 (1 +
   2**-40)`` bounds ``|z|``); ``Q`` is within ``8.01u * 0.2 * 1.01``
   (coefficients and steps) plus the effect of using ``zh``, so ``z**3 Q`` (two more roundings,
   ``z**2`` and ``z`` rounded) is within ``2.44u Z**3 < 2**-75.7``; ``z**2`` (TwoProd, one FMA)
   within ``4.1u**2 z**2``; ``z/3`` (TwoProd with the high word of 1/3, two FMAs) within
   ``2.2u**2 |z|``; the two Fast2Sums are exact and the four float additions of the low words
   add below 2**-78.3: ``psi`` within 2**-75.4 absolute, 2**-74.4 relative (``psi >= 0.497``).
   ``W = z**2 psi`` by ``mul`` (DWTimesDW1's analysis with ``|sl| <= 3u |sh|``: below 16u**2):
   ``eps_W < 2**-74.3``. (Where ``z`` is so small that ``z**2`` underflows, ``W`` and the
   error of ``X z`` are below 2**-1000 against ``phi(x) >= 2**-17``.)
4. Table values: ``X``, ``phi(X)``, ``-ln r_i`` from mpmath at 80 digits, each the nearest float
   and the nearest float to the remainder (2**-105.9 relative). ``K = e ln 2 - ln r_i`` for ``e >=
   2``: ``e ln2_h`` exact (``ln2_h`` has 42 bits, ``e <= 54``), one TwoSum, one FMA and one
   addition; ``ln2_h + ln2_l`` is within 2**-95.8 of ``ln 2``: ``K`` within 2**-89 relative
   (``K >= 1.38``). ``x - K`` by :func:`add_loose`: within ``3.01u**2 * 2.72 phi(x)``, plus
   ``x``'s ``1.86 * 23.3u**2 phi(x)`` and ``K``'s ``0.86 * 2**-89 phi(x)``: 2**-88.9 ``phi(x)``.
   ``X z`` by ``mul`` (7u**2 and the table's 2**-105.9).
5. ``phi(x)``: :func:`add3` of the three terms; errors: ``eps_W W``, ``7.1u**2 |X z|``,
   ``12.1u**2 S``, 2**-88.9 ``phi`` and the 2**-92.9 of step 2, with ``W, |X z|, S <= C_PHI
   phi(x)``: ``eps_phi <= 4 (2**-74.3 + 19.2u**2) + 2**-88.8 < 2**-72.2``.
6. ``c = (1 - pi)/pi``: ``q = RN(1/pi)``, ``q RN(1 - q pi)`` (three roundings counted, and the
   dropped ``rho**2``: 3.02u**2), times ``1 - pi`` by ``mul``: 10.1u**2. ``c phi`` by ``mul``,
   ``a x`` by :func:`mul_f`, their sum by :func:`add_loose` (non-negative terms, 3.01u**2; an
   underflowed ``a x`` costs at most 2**-1074 against AUCPR_min >= 2**-854): AUCPR_min within
   ``eps_phi + 20.2u**2 < 2**-72.1``.
7. ``log1p(x)`` by :func:`add3` of ``K``, ``z``, ``-W`` (``K`` within 2**-89, or for ``e <= 1``
   ``X - phi(X)`` by :func:`add_loose`, within ``3.33 (3.01u**2 + 2**-105.9)``; ``W <= 2**-8
   log1p(x)``): within ``C_L (2**-89 + 12.1u**2 + 2**-8 * 2**-74.3) < 2**-81``; the gap, times
   ``c`` by ``mul``, within 2**-80.9.

So AUCPR_min and the gap are within 2**-72.1 (relative) of their true values: the rounding test
is given ``REL_FAST = 2**-66``, a margin of a factor 64. AUCNPR is then formed exactly as in
:func:`prtheory.floats._fused.aucnpr_at`, whose bound ``2 REL (1 + ratio)`` holds for any
``REL`` bounding both AUCPR_min and the gap (and at least 16u**2).

Range: ``2**-300 <= pi < 1`` and ``b - a >= 2**-100`` (so ``x >= 2**-400``, ``z**2 psi(z) >=
2**-801``, ``phi(x) >= 2**-801``, ``c <= 2**300``, AUCPR_min ``>= 2**-854`` and the gap ``>=
2**-454``: no error term of a product underflows). The other elements go to the accurate kernel.

numba compiles :mod:`~prtheory.floats.dd` and the helpers of :mod:`~prtheory.floats._fused`
into these kernels and caches them keyed on this file alone: after editing those modules,
clear the cache (``__pycache__/_quick*.nb*``) or touch this file.

Speed: the formula has no branch, so LLVM vectorises the loop; the kernels ask for 512-bit
vectors (:func:`wide_vectors`) where the CPU has them. Arguments are checked on the way: the
fast path's range test fails for every invalid element (a NaN, a value outside [0, 1], ``a >=
b``, an ``aucpr`` outside [0, 1]) as for pi = 0 and 1, and :func:`finish`, which takes the
elements the fast pass leaves, returns True at the first invalid one; the caller then runs the
public function's own validation, which raises the documented error.
"""

from __future__ import annotations

import contextlib
import math
import types
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types as nbt
from numba.extending import intrinsic, overload

from prtheory.floats import _fused, dd
from prtheory.floats.compiled import jit

Array = np.ndarray

#: Relative error bound given to the rounding test (derived above: 2**-72.1, times 64).
REL_FAST = 2.0**-66
#: Table points per binade of ``1 + x`` (the top 8 bits of the fraction).
POINTS = 256


# ---------------------------------------------------------------------------------------------
# LLVM intrinsics


@intrinsic
def _fma(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """``a b + c`` rounded once (LLVM's ``llvm.fma``: the FMA instruction, or libm's fma)."""
    sig = nbt.float64(nbt.float64, nbt.float64, nbt.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _bits_of(typingctx: Any, x: Any) -> Any:
    """The bits of a float64 as an int64."""
    sig = nbt.int64(nbt.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.IntType(64))

    return sig, codegen


@intrinsic
def _float_of(typingctx: Any, n: Any) -> Any:
    """The float64 with the bits of an int64."""
    sig = nbt.float64(nbt.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


@intrinsic
def _wide_vectors(typingctx: Any) -> Any:
    """Mark the calling kernel ``"prefer-vector-width"="512"``: LLVM otherwise vectorises with
    256-bit registers on CPUs that have 512-bit ones (about 30% slower here). Only the speed
    depends on it (no fast-math: every operation is the same IEEE operation); if llvmlite's
    attribute set ever refuses the string, nothing is added."""
    sig = nbt.none()

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        with contextlib.suppress(TypeError):  # a future llvmlite: no attribute, same results
            set.add(builder.function.attributes, '"prefer-vector-width"="512"')
        return context.get_dummy_value()

    return sig, codegen


fma: Any = _fma
bits_of: Any = _bits_of
float_of: Any = _float_of
wide_vectors: Any = _wide_vectors


# ---------------------------------------------------------------------------------------------
# primitives


def _two_prod(a: Any, b: Any) -> Any:
    """TwoProd by one FMA: the exact error of ``a b``, the same result as Dekker's product."""
    p = a * b
    return p, fma(a, b, -p)


def _primitives() -> dict[str, Any]:
    """The functions of :mod:`prtheory.floats.dd` compiled with :func:`_two_prod` in place of
    Dekker's product (every other primitive calls this one)."""
    namespace: dict[str, Any] = {"_SPLITTER": dd._SPLITTER, "fma": fma}
    namespace["two_prod"] = jit(inline="always")(
        types.FunctionType(_two_prod.__code__, namespace, "two_prod")
    )
    for fn in dd.PRIMITIVES:
        if fn.__name__ != "two_prod":
            clone = types.FunctionType(fn.__code__, namespace, fn.__name__)
            namespace[fn.__name__] = jit(inline="always")(clone)
    return namespace


_P = _primitives()
two_sum, fast_two_sum, two_prod = _P["two_sum"], _P["fast_two_sum"], _P["two_prod"]
add_fp, mul = _P["add_fp"], _P["mul"]


@jit(inline="always")
def mul_f(ah: Any, al: Any, b: Any) -> Any:
    """``a b`` for a double-double ``a`` and a float ``b`` (DWTimesFP3): within 2.01u**2."""
    p, e = two_prod(ah, b)
    return fast_two_sum(p, fma(al, b, e))


@jit(inline="always")
def add_loose(ah: Any, al: Any, bh: Any, bl: Any) -> Any:
    """``a + b`` (SloppyDWPlusDW): within ``3.01u**2 (|a| + |b|)`` (module docstring)."""
    s, e = two_sum(ah, bh)
    return fast_two_sum(s, e + (al + bl))


@jit(inline="always")
def add3(ah: Any, al: Any, bh: Any, bl: Any, ch: Any, cl: Any) -> Any:
    """``a + b + c``: within ``12.1u**2 (|a| + |b| + |c|)`` (module docstring)."""
    s, e1 = two_sum(ah, bh)
    s, e2 = two_sum(s, ch)
    return fast_two_sum(s, (e1 + e2) + ((al + bl) + cl))


@jit(inline="always")
def recip(h: Any, lo: Any) -> Any:
    """``1/(h + lo)`` with one division: within 11.2u**2 (module docstring)."""
    q = 1.0 / h
    rho = fma(-q, h, 1.0)
    return fast_two_sum(q, q * (rho - lo * q))


# ---------------------------------------------------------------------------------------------
# tables


def _tables() -> tuple[Array, Array, Array, Array, Array]:
    """``r_i``, and per ``(min(e, 2), i)`` two double-doubles: ``X`` and ``phi(X)`` for ``e <= 1``,
    ``1/r_i`` and ``-ln r_i`` for ``e >= 2`` (mpmath at 80 digits, each the nearest float and
    the nearest float to the remainder)."""
    import mpmath

    r = [1.0] + [1.0 / (1.0 + (i + 0.5) / POINTS) for i in range(1, POINTS)]
    a_h: list[float] = []
    a_l: list[float] = []
    b_h: list[float] = []
    b_l: list[float] = []
    with mpmath.workdps(80):
        for e in (0, 1, 2):
            for i in range(POINTS):
                ri = mpmath.mpf(r[i])
                if e < 2:
                    first = mpmath.mpf(2) ** e / ri - 1
                    second = first - mpmath.log1p(first)
                else:
                    first, second = 1 / ri, -mpmath.log(ri)
                for v, hi, lo in ((first, a_h, a_l), (second, b_h, b_l)):
                    hi.append(float(v))
                    lo.append(float(v - hi[-1]))
    return np.array(r), np.array(a_h), np.array(a_l), np.array(b_h), np.array(b_l)


def _ln2() -> tuple[float, float]:
    """ln 2 as a 42-bit high word (so ``e ln2_h`` is exact for ``e < 2**11``) and the nearest
    float to the rest."""
    import mpmath

    with mpmath.workdps(60):
        v = mpmath.log(2)
        hi = math.ldexp(math.floor(math.ldexp(float(v), 42)), -42)
        return hi, float(v - hi)


#: 1/(1 + (i + 1/2)/256) rounded (r_0 = 1), and the table columns (:func:`_tables`)
table_r, table_ah, table_al, table_bh, table_bl = _tables()
ln2_h, ln2_l = _ln2()
third_h, third_l = dd.dd_constant(1, 3)
#: ``Q(z) = sum_{k=3..10} (-z)**(k-3)/(k+2)``, highest degree first
series_q = np.array([1.0 / (k + 2) for k in range(10, 2, -1)])
rel_fast = REL_FAST


@jit(inline="always")
def reduce(xh: Any, xl: Any) -> Any:
    """``e``, ``i`` and ``z`` (module docstring, step 2) for ``x >= 0``: ``e, i, zh, zl``."""
    yh, yl = add_fp(xh, xl, 1.0)
    bits = bits_of(yh)
    e = ((bits >> 52) & 0x7FF) - 1023
    i = (bits >> 44) & 0xFF
    th = float_of((bits & 0xFFFFFFFFFFFFF) | 0x3FF0000000000000)
    tl = yl * float_of((1023 - max(min(e, 1000), -1000)) << 52)
    r = table_r[i]
    q, qe = two_prod(r, th)
    zh, zl = two_sum(q - 1.0, fma(r, tl, qe))
    first = (e == 0) & (i == 0)
    return e, i, xh if first else zh, xl if first else zl


@jit(inline="always")
def z2_psi(zh: Any, zl: Any) -> Any:
    """``z**2 psi(z) = z - log1p(z)`` for ``|z| <= 2**-8`` (module docstring, step 3)."""
    sh, sl = two_prod(zh, zh)
    sl = fma(2.0 * zh, zl, sl)
    mh, me = two_prod(zh, third_h)
    ml = fma(zh, third_l, fma(zl, third_h, me))
    c = series_q[0]
    for k in range(1, series_q.size):
        c = fma(-zh, c, series_q[k])
    c3 = (sh * zh) * c
    ah, ae = fast_two_sum(0.5, -mh)
    ah, ae2 = fast_two_sum(ah, 0.25 * sh)
    ah, al = fast_two_sum(ah, ((ae + ae2) - ml) + (0.25 * sl - c3))
    return mul(sh, sl, ah, al)


@jit(inline="always")
def quick(p: Any, lo: Any, hi: Any, gap: Any) -> Any:
    """AUCPR_min and (when ``gap``) the gap for one element, each within 2**-72.1 relative in
    the range of the module docstring: ``rh, rl, gh, gl``."""
    omh, oml = two_sum(1.0, -p)
    ph, pl = two_prod(p, lo)
    uh, ul = add_loose(omh, oml, ph, pl)
    dh, dl = two_sum(hi, -lo)
    ih, il = recip(uh, ul)
    wh, wl = mul(dh, dl, ih, il)
    xh, xl = mul_f(wh, wl, p)
    e, i, zh, zl = reduce(xh, xl)
    wz_h, wz_l = z2_psi(zh, zl)
    j = max(min(e, 2), 0) * POINTS + i
    ah, al, bh, bl = table_ah[j], table_al[j], table_bh[j], table_bl[j]
    ef = float(e)
    kh, ke = two_sum(ef * ln2_h, bh)
    kh, kl = fast_two_sum(kh, ke + fma(ef, ln2_l, bl))  # log1p(X) for e >= 2
    small = e <= 1
    if small:  # phi(X) + X z
        th, tl, mh, ml = bh, bl, ah, al
    else:  # (x - log1p(X)) - z
        th, tl = add_loose(xh, xl, -kh, -kl)
        mh, ml = -1.0, 0.0
    xzh, xzl = mul(mh, ml, zh, zl)
    fh, fl = add3(th, tl, xzh, xzl, wz_h, wz_l)
    q = 1.0 / p
    ch, cl = mul(omh, oml, q, q * fma(-q, p, 1.0))
    m1h, m1l = mul(ch, cl, fh, fl)
    m2h, m2l = mul_f(xh, xl, lo)
    rh, rl = add_loose(m1h, m1l, m2h, m2l)
    if gap:
        if small:
            kh, kl = add_loose(ah, al, -bh, -bl)  # X - phi(X)
        lh, ll = add3(kh, kl, zh, zl, -wz_h, -wz_l)
        gh, gl = mul(ch, cl, lh, ll)
    else:
        gh, gl = 0.0, 0.0
    return rh, rl, gh, gl


# ---------------------------------------------------------------------------------------------
# kernels


def at(v: Any, i: Any) -> Any:
    """``v[i]`` for an array, ``v`` itself for a scalar (compiled: :func:`_at`)."""
    return v if np.ndim(v) == 0 else v[i]


@overload(at, inline="always")
def _at(v: Any, i: Any) -> Any:
    def scalar(v: Any, i: Any) -> Any:
        return v

    def element(v: Any, i: Any) -> Any:
        return v[i]

    return scalar if isinstance(v, nbt.Float) else element


@jit(inline="always")
def fast_pass(
    area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any, npr: Any, accurate: Any
) -> Any:
    """The fast pass over every element, then the elements it leaves, one by one.

    ``area`` (used when ``npr``) and ``pi`` are arrays of ``out``'s length; ``a`` and ``b``
    arrays too, or two floats (one recall range for every element: LLVM then hoists what
    depends on them alone out of the loop). Writes AUCPR_min (or AUCNPR) into ``out`` and "to
    do" into ``todo``: the elements that the fast path decides, then (if ``accurate``) those
    that :func:`finish` does. Returns whether any argument is invalid (NaN, outside [0, 1],
    ``a >= b``)."""
    wide_vectors()
    left = 0
    for i in range(pi.size):
        p, lo, hi, s = pi[i], at(a, i), at(b, i), area[i]
        rh, rl, gh, gl = quick(p, lo, hi, npr)
        if npr:
            y, undecided = _fused.aucnpr_at(s, lo, hi, rh, rl, gh, gl, rel_fast)
        else:
            y, undecided = _fused.decide(rh, rl, rel_fast)
        # the fast path's range; NaN, every invalid argument and pi = 0 or 1 fail it too
        inside = (p >= 2.0**-300) & (p < 1.0) & (lo >= 0.0) & (hi <= 1.0)
        inside &= hi - lo >= 2.0**-100
        if npr:
            inside &= (s >= 0.0) & (s <= 1.0)
        flag = undecided | ~inside
        out[i] = y
        todo[i] = flag
        left += flag
    return finish(area, pi, a, b, out, todo, npr, left) if accurate else False


@jit(inline="always")
def finish(area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any, npr: Any, left: Any) -> Any:
    """The ``left`` elements that :func:`fast_pass` leaves: arguments checked (returns True at
    the first invalid one), pi = 0 and 1 by the conventions, the rest by the accurate kernel
    (:mod:`prtheory.floats._fused`), whose own to-do elements stay to do."""
    if left == 0:
        return False
    at_ = np.empty(left, np.int64)
    m = 0
    for i in range(pi.size):
        if todo[i]:
            p, lo, hi, s = pi[i], at(a, i), at(b, i), area[i]
            valid = (p >= 0.0) & (p <= 1.0) & (lo >= 0.0) & (lo < hi) & (hi <= 1.0)
            if npr:
                valid &= (s >= 0.0) & (s <= 1.0)
            if not valid:
                return True
            if p == 0.0 or p == 1.0:
                out[i] = (0.0 if p == 0.0 else 1.0) if npr else (0.0 if p == 0.0 else hi - lo)
                todo[i] = False
            else:
                at_[m] = i
                m += 1
    if m:
        sp, sa, sb, ss = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
        for k in range(m):
            i = at_[k]
            sp[k], sa[k], sb[k], ss[k] = pi[i], at(a, i), at(b, i), area[i]
        sout, stodo = np.empty(m), np.empty(m, np.uint8)
        if npr:
            _fused.aucnpr(ss, sp, sa, sb, sout, stodo)
        else:
            _fused.aucpr_min(sp, sa, sb, sout, stodo)
        for k in range(m):
            out[at_[k]] = sout[k]
            todo[at_[k]] = stodo[k]
    return False


@jit(cache=True)
def aucpr_min(pi: Any, a: Any, b: Any, out: Any, todo: Any) -> Any:
    # the fast pass (REL_FAST, module docstring), then _fused.aucpr_min on what it leaves
    return fast_pass(pi, pi, a, b, out, todo, False, True)


@jit(cache=True)
def aucnpr(area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any) -> Any:
    # the fast pass (REL_FAST for AUCPR_min and the gap; aucnpr_at's bound), then
    # _fused.aucnpr on what it leaves
    return fast_pass(area, pi, a, b, out, todo, True, True)


@jit(cache=True)
def values(pi: Any, a: Any, b: Any, out: Any) -> Any:
    """The fast path's own double-doubles, for the tests: ``out[0], out[1]`` AUCPR_min,
    ``out[2], out[3]`` the gap (elements in the range of the module docstring)."""
    for i in range(pi.size):
        out[0, i], out[1, i], out[2, i], out[3, i] = quick(pi[i], a[i], b[i], True)


@jit(cache=True)
def fast_only(area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any, npr: Any) -> Any:
    """The fast pass alone (for the tests): its values, and "to do" where it cannot decide."""
    return fast_pass(area, pi, a, b, out, todo, npr, False)


KERNELS: dict[str, Any] = {"aucpr_min": aucpr_min, "aucnpr": aucnpr}
