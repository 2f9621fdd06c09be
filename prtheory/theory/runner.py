"""Running claims: the project's own and a user's, one after another or in parallel processes.

A user's claims live in an ordinary Python file or module that registers them with
:func:`prtheory.theory.claim` (see ``examples/my_claim.py``); :func:`load_claims` imports it and
returns the ids it registered. :func:`run_claims` runs claims with the registry's rules
(:func:`prtheory.theory.registry.run_claim`), in ``jobs`` worker processes when asked, and hands
each result to ``on_result`` as soon as it is known, so a command line can stream them.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import importlib.util
import multiprocessing
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from prtheory.theory.registry import REGISTRY, Claim, ClaimResult, run_claim

__all__ = ["load_claims", "run_claims"]

_LOADED: dict[str, list[str]] = {}  # source -> ids it registered (importing twice is a no-op)


def load_claims(source: str | Path) -> list[str]:
    """Import a file (``path/to/claims.py``) or a module (``package.claims``) of claims.

    Returns the ids it registered, in registration order. Raises ``ValueError`` naming
    ``source`` when it cannot be found, is not valid Python (with the line of the syntax error)
    or registers no claim; any other error inside the file propagates with its own traceback.

    Parameters
    ----------
    source : str or Path
        A ``.py`` file or an importable module that registers claims with
        :func:`prtheory.theory.claim`.

    Returns
    -------
    list of str
        The ids it registered (the same list again when it was loaded before).

    Raises
    ------
    ValueError
        ``source`` is no such file, not valid Python, not importable, or registers no claim.

    Examples
    --------
    A file with one claim, ``x (x + 2) + 1 = (x + 1)**2`` (by hand: ``x**2 + 2 x + 1`` both):

    >>> import pathlib
    >>> import tempfile
    >>> from prtheory.theory import REGISTRY, load_claims, run_claims
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "my_claims.py"
    >>> _ = path.write_text('''
    ... import sympy as sp
    ... from prtheory.theory import claim
    ... from prtheory.theory.domain import Domain, Real
    ... x = sp.Symbol("x", positive=True)
    ... square = sp.Eq(x * (x + 2) + 1, (x + 1) ** 2)
    ... @claim("Y91", source="my notes", location="eq. 1", title="completing the square",
    ...        statement=lambda: square, assumptions=("x > 0",),
    ...        domain=Domain(Real(x, 0, 1, open_lo=True)))
    ... def y91(pf):
    ...     pf.equal("expand both sides", x * (x + 2) + 1, (x + 1) ** 2)
    ...     pf.establish("so", square, [1])
    ... ''')
    >>> load_claims(path)
    ['Y91']
    >>> del REGISTRY["Y91"]  # an example's claim leaves the registry as it was
    >>> load_claims("no_such_file.py")
    Traceback (most recent call last):
    ...
    ValueError: claims: no such file 'no_such_file.py'
    """
    from prtheory.theory import all_claims

    key = str(source)
    if key in _LOADED:
        return _LOADED[key]
    all_claims()  # the project's claims, which the file may import, are not the file's
    before = set(REGISTRY)
    path = Path(key)
    if key.endswith(".py") or path.is_file():
        if not path.is_file():
            raise ValueError(f"claims: no such file {key!r}")
        name = f"prtheory_user_claims_{len(_LOADED)}_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"claims: cannot import {key!r} as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            del sys.modules[name]
            raise ValueError(
                f"claims: {key}, line {exc.lineno}: {type(exc).__name__}: {exc.msg}"
            ) from None
    else:
        try:
            importlib.import_module(key)
        except ModuleNotFoundError as exc:
            raise ValueError(
                f"claims: {key!r} is neither a .py file nor an importable module"
            ) from exc
    ids = [cid for cid in REGISTRY if cid not in before]
    if not ids:
        raise ValueError(f"claims: {key!r} registered no claim (use @prtheory.theory.claim)")
    _LOADED[key] = ids
    return ids


def _init_worker(sources: tuple[str, ...]) -> None:
    from prtheory.theory import all_claims

    all_claims()
    for s in sources:
        load_claims(s)


def _run_in_worker(cid: str) -> tuple[str, dict[str, Any]]:
    """Run one claim in a worker; the statement was compared there, with the real objects.

    The established conclusion does not travel back: pickling rebuilds sympy relations with
    evaluation on (``20691/21800 > 9991/10600`` comes back as ``True``), and a comparison made
    with such a copy (the mutation kill rate) would accept statements the real one rejects.
    """
    r = run_claim(REGISTRY[cid])
    fields = {
        "steps": r.steps,
        "checks": r.checks,
        "error": r.error,
        "seconds": r.seconds,
        "statement_checked": r.statement_checked,
        "statement_mismatch": r.statement_mismatch,
        "final_step": r.final_step,
        "statement_check": r.statement_check,
    }
    return cid, fields


def run_claims_in(
    claims: Iterable[Claim],
    *,
    jobs: int = 1,
    sources: tuple[str, ...] = (),
    on_result: Callable[[ClaimResult], None] | None = None,
) -> list[ClaimResult]:
    """Run ``claims``; results come back in the given order, ``on_result`` sees them as they
    finish. ``jobs > 1`` runs them in that many processes (each loads the project's claims and
    ``sources``); their results carry no ``established`` object (see :func:`_run_in_worker`)."""
    claims = list(claims)
    if jobs < 1:
        raise ValueError(f"jobs: must be >= 1, got {jobs}")
    done: dict[str, ClaimResult] = {}
    if jobs == 1 or len(claims) <= 1:
        for c in claims:
            done[c.id] = run_claim(c)
            if on_result:
                on_result(done[c.id])
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with concurrent.futures.ProcessPoolExecutor(
            max_workers=min(jobs, len(claims)),
            mp_context=multiprocessing.get_context(method),
            initializer=_init_worker,
            initargs=(sources,),
        ) as pool:
            futures = [pool.submit(_run_in_worker, c.id) for c in claims]
            for fut in concurrent.futures.as_completed(futures):
                cid, fields = fut.result()
                done[cid] = ClaimResult(REGISTRY[cid], **fields)
                if on_result:
                    on_result(done[cid])
    return [done[c.id] for c in claims]


def run_claims(
    ids: list[str] | None = None,
    *,
    jobs: int = 1,
    sources: Iterable[str | Path] = (),
    on_result: Callable[[ClaimResult], None] | None = None,
) -> list[ClaimResult]:
    """Run the named claims (all when ``ids`` is empty or None) and return their results.

    With ``sources`` (files or modules of a user's claims, :func:`load_claims`) the default is
    the claims those sources register, not the project's.

    Parameters
    ----------
    ids : list of str, optional
        The claims to run (every claim of ``sources``, or of the project, when empty).
    jobs : int
        Worker processes (``1``: in this process).
    sources : iterable of str or Path
        Files or modules of a user's claims to load first.
    on_result : callable, optional
        Receives each result as soon as it is known.

    Returns
    -------
    list of ClaimResult
        In the order of the registry (the project's order, then the user's).

    Raises
    ------
    ValueError
        An id is not registered, ``jobs < 1``, or a source cannot be loaded.

    Examples
    --------
    A file with one claim, ``x (x + 2) + 1 = (x + 1)**2`` (by hand: ``x**2 + 2 x + 1`` both),
    run alone; then an id no source registers:

    >>> import pathlib
    >>> import tempfile
    >>> from prtheory.theory import REGISTRY, load_claims, run_claims
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "my_claims.py"
    >>> _ = path.write_text('''
    ... import sympy as sp
    ... from prtheory.theory import claim
    ... from prtheory.theory.domain import Domain, Real
    ... x = sp.Symbol("x", positive=True)
    ... square = sp.Eq(x * (x + 2) + 1, (x + 1) ** 2)
    ... @claim("Y91", source="my notes", location="eq. 1", title="completing the square",
    ...        statement=lambda: square, assumptions=("x > 0",),
    ...        domain=Domain(Real(x, 0, 1, open_lo=True)))
    ... def y91(pf):
    ...     pf.equal("expand both sides", x * (x + 2) + 1, (x + 1) ** 2)
    ...     pf.establish("so", square, [1])
    ... ''')
    >>> [(r.claim.id, r.passed, r.proved) for r in run_claims(sources=[path])]
    [('Y91', True, True)]
    >>> del REGISTRY["Y91"]  # an example's claim leaves the registry as it was
    >>> run_claims(["Z999"])
    Traceback (most recent call last):
    ...
    ValueError: ids: unknown claim id(s) Z999
    """
    from prtheory.theory import all_claims

    src = tuple(str(s) for s in sources)
    own: list[str] = []
    for s in src:
        own += load_claims(s)
    claims = all_claims()
    if ids:
        unknown = [i for i in ids if i not in REGISTRY]
        if unknown:
            raise ValueError(f"ids: unknown claim id(s) {', '.join(unknown)}")
        wanted = set(ids)
    else:
        wanted = set(own) if src else {c.id for c in claims}
    ordered = [c for c in claims if c.id in wanted]
    return run_claims_in(ordered, jobs=jobs, sources=src, on_result=on_result)
