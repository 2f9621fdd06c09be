"""The three tiers of every float64 closed form.

1. **Fused kernel** (:mod:`prtheory.floats._kernels`, when numba is installed): one compiled
   pass over the arguments evaluates the double-double formula and the rounding test element by
   element. It handles the arguments inside its stated range and marks every other element, and
   every element whose rounding it cannot decide, as *to do*.
2. **Reference path** (numpy, always available): the double-double formula on the elements to do,
   with exact scaling by powers of two so that it covers the whole float64 range, and the
   rounding test. Without numba it handles every element.
3. **Oracle** (:mod:`prtheory.floats._slow`): exact rationals, or mpmath at rising precision,
   for the elements the reference path cannot decide.

Every tier returns either the correctly rounded value or "undecided", so the result does not
depend on which tier decided an element (the tests run both the kernel and the reference path
against the oracle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from prtheory.floats import _kernels, _slow, compiled

Array = np.ndarray


def evaluate(
    name: str,
    args: tuple[Array, ...],
    todo: Array,
    out: Array,
    reference: Callable[..., tuple[Array, Array]],
    slow: Callable[..., float],
) -> Array:
    """Fill ``out`` (shape of the broadcast ``args``) at the elements ``todo``.

    ``reference(*flat_args)`` returns ``(values, undecided)`` for 1-d arguments; ``slow(*floats)``
    the correctly rounded value of one element.
    """
    if not np.any(todo):
        return out
    if compiled.enabled() and _kernels.has(name):
        # a full mask (the common case) needs no gather: the arguments are passed as they lie
        full = bool(np.all(todo))
        sub = tuple(np.ascontiguousarray(a).reshape(-1) if full else a[todo] for a in args)
        if full:
            # into ``out`` itself when it is contiguous (no second array, no copy)
            flat = out.reshape(-1) if out.flags.c_contiguous else None
            y, again = _kernels.run(name, *sub, out=flat)
            if flat is None:
                out[...] = y.reshape(out.shape)
            todo = again.reshape(out.shape)
        else:
            y, again = _kernels.run(name, *sub)
            out[todo] = y
            redo = np.zeros(out.shape, dtype=bool)
            redo[todo] = again
            todo = redo
        if not np.any(todo):
            return out
    y, undecided = reference(*(a[todo] for a in args))
    out[todo] = y
    redo = np.zeros(out.shape, dtype=bool)
    redo[todo] = undecided
    _slow.fill(out, redo, slow, *args)
    return out


def checked(
    name: str,
    args: tuple[Any, ...],
    reference: Callable[..., tuple[Array, Array]],
    slow: Callable[..., float],
) -> Array | None:
    """The evaluation of ``name`` in one compiled pass that also checks the arguments
    (:func:`prtheory.floats._kernels.run_checked`), the reference path and the oracle finishing
    the elements it leaves; None when the arguments are not of the kinds that pass allows, or
    one is invalid (the caller then validates them as usual, and raises)."""
    if not (compiled.enabled() and name in _kernels.CHECKED):
        return None
    done = _kernels.run_checked(name, args)
    if done is None:
        return None
    out, todo = done
    shape = next(v.shape for v in args if isinstance(v, np.ndarray))
    if np.any(todo):
        flat = tuple(np.broadcast_to(np.asarray(v, float), shape).reshape(-1) for v in args)
        y, undecided = reference(*(v[todo] for v in flat))
        out[todo] = y
        redo = np.zeros(out.shape, dtype=bool)
        redo[todo] = undecided
        _slow.fill(out, redo, slow, *flat)
    result: Array = out.reshape(shape)
    return result


def within(ok: Array, fn: Callable[..., tuple[Array, Array]], *args: Array) -> tuple[Array, Array]:
    """``fn`` on the elements where ``ok`` holds (the range where its bound was derived); the
    others are returned undecided, for the next tier."""
    y = np.zeros(ok.shape)
    undecided = ~ok
    if np.any(ok):
        y[ok], undecided[ok] = fn(*(a[ok] for a in args))
    return y, undecided
