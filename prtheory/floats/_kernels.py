"""Fused compiled kernels of the float64 closed forms (optional: needs numba, extra ``fast``).

Why a compiled kernel: the double-double formulas are tens of arithmetic operations per element.
As numpy array operations each is a pass over memory (hundreds of passes per closed form,
40-100x the time of the naive formula); fused into one loop they run from registers, and LLVM
vectorises the branch-free ones. They are compiled with the tools of
:mod:`prtheory.floats.compiled` (the very functions of :mod:`prtheory.floats.dd`), so the kernels
and the numpy reference path share one implementation of every double-double operation and its
proof. numba is an optional dependency: without it (or after ``set_backend("numpy")``) the numpy
path does everything, with the same results. This module only runs the kernels; whether they
run is :func:`prtheory.floats.compiled.enabled`.

Each kernel takes flat float64 arrays and returns the values and a mask of the elements *to do*:
those outside the kernel's stated range (chosen so that no intermediate underflows below
2**-969 or overflows, where the double-double bounds of :mod:`~prtheory.floats.dd` hold without
scaling) and those whose rounding the test cannot decide. Those go to the reference path
(:mod:`prtheory.floats._tiers`). The kernels themselves are in :mod:`prtheory.floats._fused`
(imported on first use), where the relative error bound of each is stated and derived; the
rounding test is :func:`prtheory.floats._fused.decide`.

Kernels with a series or a logarithm run a block of elements at a time: the elements are sorted
by branch into contiguous lists and every step loops over a list, so that LLVM vectorises it
(one element's chain of dependent double-double operations is bound by latency, not by
arithmetic). Per element the operations, and so the bounds, are those of the reference path.

The compiled code is cached on disk by numba (``__pycache__``); numba does not notice changes in
:mod:`~prtheory.floats.dd` alone, so after editing that module clear the cache (or touch
``_fused.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CHECKED", "has", "run", "run_checked"]

Array = np.ndarray


_KERNELS: dict[str, Any] = {}
_NAMES = ("min_precision", "gain", "fbeta", "aucpr_min", "aucnpr", "ap_min", "expected_random_ap")


def has(name: str) -> bool:
    """Whether closed form ``name`` has a fused kernel."""
    return name in _NAMES


def run(name: str, *args: Array, out: Array | None = None) -> tuple[Array, Array]:
    """Values and to-do mask of kernel ``name`` over flat float64 arguments of equal length; the
    values are written into ``out`` (a flat, C-contiguous float64 array) when it is given."""
    kernel = _KERNELS.get(name)
    if kernel is None:
        kernel = _KERNELS[name] = _build()[name]
    n = args[0].size
    if out is None:
        out = np.empty(n)
    todo = np.empty(n, dtype=np.uint8)
    kernel(*(np.ascontiguousarray(a, dtype=np.float64) for a in args), out, todo)
    return out, todo.view(bool)


_BUILT: dict[str, Any] = {}


def _build() -> dict[str, Any]:
    if not _BUILT:
        from prtheory.floats import _fused, _quick  # the kernels themselves (numba only)

        _BUILT.update(_fused.KERNELS)
        _BUILT.update(_quick.KERNELS)  # fast paths in front of two of them
    return _BUILT


#: Closed forms whose kernel also checks the arguments and applies the end-point conventions
#: (:mod:`prtheory.floats._quick`), with how many leading arguments are per element (the
#: trailing recall range ``a, b`` is per element too, or one range for every element).
CHECKED = {"aucpr_min": 1, "aucnpr": 2}


def run_checked(name: str, args: tuple[Any, ...]) -> tuple[Array, Array] | None:
    """The whole evaluation of ``name`` by its kernel when its arguments allow it: float64
    arrays of one shape (C-contiguous) for the leading arguments, and for ``a, b`` either two
    such arrays or two scalars (Python floats, numpy float64 or ints). Returns the values and
    the to-do mask (flat), or None when the arguments are of another kind or one is invalid
    (then the public function's own validation runs and raises its error)."""
    lead = CHECKED[name]
    arrays = args[:lead]
    if not all(
        type(v) is np.ndarray and v.dtype == np.float64 and v.flags.c_contiguous and v.ndim
        for v in arrays
    ):
        return None
    shape = arrays[0].shape
    if any(v.shape != shape for v in arrays):
        return None
    pair = args[lead:]
    if all(isinstance(v, float) or (type(v) is int and abs(v) <= 2**53) for v in pair):
        pair = tuple(float(v) for v in pair)
    elif not all(
        type(v) is np.ndarray
        and v.dtype == np.float64
        and v.shape == shape
        and v.flags.c_contiguous
        for v in pair
    ):
        return None
    flat = tuple(v.reshape(-1) if isinstance(v, np.ndarray) else v for v in arrays + pair)
    kernel = _KERNELS.get(name)
    if kernel is None:
        kernel = _KERNELS[name] = _build()[name]
    n = flat[0].size
    out, todo = np.empty(n), np.empty(n, dtype=np.uint8)
    if kernel(*flat, out, todo):
        return None
    return out, todo.view(bool)
