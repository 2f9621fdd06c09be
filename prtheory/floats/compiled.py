"""The compiled tier's switch and tools: whether numba runs, and how kernels are compiled.

A leaf of the float layer (it imports only :mod:`prtheory.floats.dd` and the error types), so
that every kernel module -- the closed forms' (:mod:`prtheory.floats._fused`,
:mod:`prtheory.floats._quick`) and the ranking metrics' (:mod:`prtheory.metrics._area_fused`)
-- compiles from it without importing the modules that run the kernels.

numba is an optional dependency (extra ``fast``). With it the kernels run by default;
:func:`set_backend` (``"numpy"`` or ``"numba"``) or the environment variable
``PRTHEORY_FLOATS_BACKEND=numpy`` selects the numpy paths alone. Results are identical; only
the speed differs.

numba compiles the very functions of :mod:`prtheory.floats.dd` (their code objects, with the
compiled primitives as globals: :func:`compiled_primitives`), so the kernels and the numpy
paths share one implementation of every double-double operation and its proof.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

from prtheory.errors import InvalidInputError
from prtheory.floats import dd

__all__ = ["backend", "compiled_primitives", "enabled", "jit", "numba", "set_backend"]

#: numba when it is installed (extra ``fast``), else None
numba: Any = importlib.import_module("numba") if importlib.util.find_spec("numba") else None

#: The backend in use: "numba" when numba is importable (and PRTHEORY_FLOATS_BACKEND is not
#: "numpy"), otherwise "numpy".
_state = {
    "backend": "numba"
    if numba is not None and os.environ.get("PRTHEORY_FLOATS_BACKEND", "numba") != "numpy"
    else "numpy"
}


def enabled() -> bool:
    """Whether the compiled kernels run (numba installed and the backend is ``"numba"``).

    Returns
    -------
    bool
        Whether the compiled kernels run.

    See Also
    --------
    backend

    Examples
    --------
    >>> from prtheory.floats import compiled
    >>> compiled.enabled() == (compiled.backend() == "numba")
    True
    """
    return _state["backend"] == "numba"


def set_backend(name: str) -> str:
    """Select the first tier: ``"numba"`` (compiled kernels) or ``"numpy"`` (the numpy paths
    only). Returns the previous backend. Results are identical; only the speed differs.

    Parameters
    ----------
    name : {"numba", "numpy"}
        The first tier.

    Returns
    -------
    str
        The previous backend.

    Raises
    ------
    InvalidInputError
        An unknown name, or ``"numba"`` without numba installed.

    See Also
    --------
    backend, enabled

    Examples
    --------
    >>> from prtheory import floats
    >>> previous = floats.set_backend("numpy")
    >>> floats.backend()
    'numpy'
    >>> _ = floats.set_backend(previous)
    """
    if name not in ("numba", "numpy"):
        raise InvalidInputError("backend", f'must be "numba" or "numpy", got {name!r}')
    if name == "numba" and numba is None:
        raise InvalidInputError(
            "backend",
            "numba is not installed (pip install -e '.[fast]' from a checkout of prtheory)",
        )
    previous = _state["backend"]
    _state["backend"] = name
    return previous


def backend() -> str:
    """The first tier in use: ``"numba"`` (compiled kernels) or ``"numpy"`` (the numpy paths).

    Returns
    -------
    str
        ``"numba"`` or ``"numpy"``.

    See Also
    --------
    set_backend, enabled

    Examples
    --------
    >>> from prtheory import floats
    >>> floats.backend() in ("numba", "numpy")
    True
    """
    return _state["backend"]


_F = TypeVar("_F", bound=Callable[..., Any])


def jit(**options: Any) -> Callable[[_F], _F]:
    """numba's ``njit`` with numpy's error model (division by zero gives inf/NaN, no exception).

    Only for modules imported when numba is installed.

    Parameters
    ----------
    **options
        Further options of ``numba.njit``.

    Returns
    -------
    callable
        A decorator that compiles a function (needs numba).

    See Also
    --------
    compiled_primitives

    Examples
    --------
    With numpy's error model a compiled division by zero gives inf, not an exception:

    >>> from prtheory.floats import compiled
    >>> def ratio(a, b):
    ...     return a / b
    >>> if compiled.numba is not None:
    ...     assert compiled.jit()(ratio)(1.0, 0.0) == float("inf")
    """
    return cast("Callable[[_F], _F]", numba.njit(error_model="numpy", **options))


def compiled_primitives() -> dict[str, Any]:
    """The functions of :mod:`~prtheory.floats.dd` compiled by numba, each calling the others'
    compiled forms (keyed by name: ``two_sum``, ``add``, ``mul``, ``div``, ...).

    Returns
    -------
    dict of str to callable
        The compiled double-double primitives (needs numba).

    See Also
    --------
    jit

    Examples
    --------
    Where numba is installed, the compiled 2Sum keeps the error of ``1 + 2**-60``:

    >>> from prtheory.floats import compiled
    >>> if compiled.numba is not None:
    ...     s, e = compiled.compiled_primitives()["two_sum"](1.0, 2.0**-60)
    ...     assert (s, e) == (1.0, 2.0**-60)
    """
    namespace: dict[str, Any] = {"_SPLITTER": dd._SPLITTER}
    for fn in dd.PRIMITIVES:
        clone = types.FunctionType(fn.__code__, namespace, fn.__name__)
        namespace[fn.__name__] = jit(inline="always")(clone)
    return namespace
