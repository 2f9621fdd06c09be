"""Generate the conformance test vectors (``prtheory/conformance/vectors/*.json``) from the oracle.

Provenance
----------
Every expected value comes from :mod:`prtheory.oracle` (exact rationals, or mpmath at 60 digits
with the float64 correctly rounded by :func:`prtheory.oracle.rounded`), through the metric table
of :mod:`prtheory.conformance.metrics`; values under alternative conventions come from the same
oracle with another named option or a named input transformation. The inputs are data, written
out by hand in :mod:`prtheory.conformance.cases`, except the ``random-search`` group: a
deterministic search driven by ``random.Random(SEED)`` (only ``random()`` is used, whose stream is
stable across Python versions) for small rankings on which tie conventions disagree.

Run ``python -m prtheory.conformance.generate`` (or ``prtheory conformance --write-vectors``) to
rewrite the files; it takes about 15 seconds of CPU time (most of it on the
10^6-item vectors). The output is deterministic: a test compares the
committed files with a fresh generation and fails when they are stale.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

from prtheory._version import __version__
from prtheory.conformance import large
from prtheory.conformance.cases import NOTES, Case, cases_for
from prtheory.conformance.encoding import encode_outcome
from prtheory.conformance.metrics import (
    METRICS,
    Inputs,
    combination_base,
    evaluate,
    selected_metrics,
)
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "TCID_LOCK",
    "VECTOR_DIR",
    "assign_ids",
    "build_all",
    "build_file",
    "build_test",
    "dumps",
    "generator_version",
    "input_key",
    "load_lock",
    "main",
    "oracle_digest",
]

VECTOR_DIR = Path(__file__).parent / "vectors"

ORACLE_SOURCES = ("oracle", "_input.py", "errors.py")


def oracle_digest() -> str:
    """sha256 (12 hex digits) of the source that computes expected values: ``prtheory/oracle``,
    ``_input.py`` (validation) and ``errors.py``, file by file in path order.

    Returns
    -------
    str
        12 hex digits.

    Examples
    --------
    The digest every committed vector file records (its ``generatorVersion``):

    >>> import json
    >>> from prtheory.conformance.generate import VECTOR_DIR, oracle_digest
    >>> doc = json.loads((VECTOR_DIR / "ap_min.json").read_text())
    >>> doc["generatorVersion"].endswith("+oracle." + oracle_digest())
    True
    """
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    paths: list[Path] = []
    for name in ORACLE_SOURCES:
        p = root / name
        paths += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    for p in paths:
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def generator_version() -> str:
    """``<prtheory version>+oracle.<digest>`` (:func:`oracle_digest`), written in every file.

    Returns
    -------
    str
        The version that made the vectors; a change under ``prtheory/oracle`` changes it.

    Examples
    --------
    >>> import prtheory
    >>> from prtheory.conformance.generate import generator_version, oracle_digest
    >>> generator_version() == f"{prtheory.__version__}+oracle.{oracle_digest()}"
    True
    """
    return f"{__version__}+oracle.{oracle_digest()}"


# ------------------------------------------------------------------------------------------
# evaluation and output


def _outcome(metric: str, x: Inputs, alt: Any = None) -> tuple[str, Any]:
    try:
        return "valid", encode_outcome(evaluate(metric, x, alt))
    except UndefinedMetricError as exc:
        return "undefined", str(exc)
    except InvalidInputError as exc:
        return "invalid", str(exc)


def build_test(metric: str, tc_id: int, case: Case) -> dict[str, Any]:
    """One test of a vector file: the case's inputs, the oracle's result and value (or reason),
    and its values under the metric's other conventions where they differ.

    Parameters
    ----------
    metric : str
        The metric.
    tc_id : int
        The test's id (:func:`assign_ids`).
    case : Case
        The inputs and intent.

    Returns
    -------
    dict
        The test as the file writes it.

    Raises
    ------
    AssertionError
        When the oracle's result is not the one the case is meant to have.

    Examples
    --------
    >>> from prtheory.conformance.cases import Case
    >>> from prtheory.conformance.generate import build_test
    >>> # one positive above one negative: AP = 1
    >>> test = build_test("average_precision", 1, Case("best", ["best-ranking"], [1, 0], [0.9, 0.1]))
    >>> test["result"], test["expected"]["exact"]
    ('valid', '1')
    """
    x = case.inputs()
    result, value = _outcome(metric, x)
    acceptable = case.intent == "acceptable"
    if acceptable and result == "valid":  # a value, and a refusal would be defensible too
        result = "acceptable"
    if case.intent is not None and result != case.intent:
        raise AssertionError(
            f"{metric} #{tc_id} ({case.comment}): meant {case.intent}, oracle says {result}: {value}"
        )
    test: dict[str, Any] = {
        "tcId": tc_id,
        "comment": case.comment,
        "flags": sorted(set(case.flags)),
        "inputs": case.encoded_inputs(),
        "result": result,
    }
    if result in ("valid", "acceptable"):
        test["expected"] = value
    else:
        test["reason"] = value
    if acceptable:
        test["reason"] = case.reason
    if result != "invalid":
        alternatives = _alternatives(metric, case, x, result, value)
        if alternatives:
            test["alternatives"] = alternatives
    return test


def _alternatives(metric: str, case: Case, x: Inputs, result: str, value: Any) -> dict[str, Any]:
    """The test's values under the metric's other conventions, where they change something."""
    alternatives: dict[str, Any] = {}
    for alt in METRICS[metric].alternatives:
        if alt.options.get("ties") == "expected" and (case.sample_weight is not None or case.runs):
            # defined for unit weights only; over 10^6 tied items its exact value has
            # hundreds of thousands of digits
            continue
        r, v = _outcome(metric, x, alt)
        if r != "valid":
            continue
        base = combination_base(alt.name, alternatives)
        if base is not None:
            if alternatives[base] == v:
                continue  # a combination that changes nothing beyond its first stored part
        elif result == "valid" and v == value:
            continue  # a convention that changes nothing here
        # a combination that differs from its first stored part is stored even when it
        # equals the expected value, so that one left out always equals that part
        alternatives[alt.name] = v
    return alternatives


TCID_LOCK = VECTOR_DIR / "tcids.json"


def input_key(inputs: dict[str, Any], seen: dict[str, int]) -> str:
    """A test's identity: sha256 (16 hex digits) of its encoded inputs (canonical JSON), with
    ``#n`` appended for the n-th repeat of the same inputs within one metric.

    Parameters
    ----------
    inputs : dict
        The test's encoded inputs.
    seen : dict of str to int
        How often each key was met so far in the metric (updated).

    Returns
    -------
    str
        The key.

    Examples
    --------
    >>> import hashlib
    >>> from prtheory.conformance.generate import input_key
    >>> inputs = {"y_true": [1, 0], "y_score": ["0.5", "0.25"]}
    >>> text = '{"y_score":["0.5","0.25"],"y_true":[1,0]}'  # sorted keys, no spaces
    >>> seen = {}
    >>> input_key(inputs, seen) == hashlib.sha256(text.encode()).hexdigest()[:16]
    True
    >>> input_key(inputs, seen).endswith("#2")
    True
    """
    text = json.dumps(inputs, sort_keys=True, separators=(",", ":"), allow_nan=False)
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    seen[key] = seen.get(key, 0) + 1
    return key if seen[key] == 1 else f"{key}#{seen[key]}"


def load_lock(path: Path = TCID_LOCK) -> dict[str, dict[str, str]]:
    """metric -> {tcId: input key} for every test ever published (ids are never reused).

    Parameters
    ----------
    path : Path
        The lock file (the package's ``tcids.json`` by default).

    Returns
    -------
    dict
        Its contents; empty when there is no file.

    Examples
    --------
    >>> import json
    >>> from prtheory.conformance.generate import VECTOR_DIR, load_lock
    >>> lock = load_lock()
    >>> doc = json.loads((VECTOR_DIR / "ap_min.json").read_text())
    >>> len(lock["ap_min"]) >= doc["numberOfTests"]
    True
    >>> load_lock(VECTOR_DIR / "no such file.json")
    {}
    """
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def assign_ids(metric: str, keys: list[str], lock: dict[str, dict[str, str]]) -> list[int]:
    """The tcId of each key: its recorded id, or a new one above every id ever recorded for the
    metric (recorded in ``lock``). Adding, removing or reordering cases renumbers nothing.

    Parameters
    ----------
    metric : str
        The metric.
    keys : list of str
        The tests' keys (:func:`input_key`), in file order.
    lock : dict
        The recorded ids (:func:`load_lock`), updated with the new ones.

    Returns
    -------
    list of int
        The tcId of each key.

    Examples
    --------
    ``b`` keeps its id 2; ``c`` is new and gets 3 (above every recorded id, 1 being ``a``'s
    even though ``a`` is gone):

    >>> from prtheory.conformance.generate import assign_ids
    >>> lock = {"ap": {"1": "a", "2": "b"}}
    >>> assign_ids("ap", ["c", "b"], lock), lock["ap"]["3"]
    ([3, 2], 'c')
    """
    recorded = lock.setdefault(metric, {})
    by_key = {key: int(tc) for tc, key in recorded.items()}
    next_id = max((int(tc) for tc in recorded), default=0) + 1
    ids = []
    for key in keys:
        if key not in by_key:
            by_key[key] = next_id
            recorded[str(next_id)] = key
            next_id += 1
        ids.append(by_key[key])
    return ids


def build_file(metric: str, lock: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The vector file of ``metric``: its header, notes and every group of tests.

    Parameters
    ----------
    metric : str
        The metric.
    lock : dict
        The recorded test ids (:func:`load_lock`), updated with new ones.

    Returns
    -------
    dict
        The document :func:`dumps` writes.

    Examples
    --------
    Built again, a metric's file is the committed one:

    >>> from prtheory.conformance.generate import VECTOR_DIR, build_file, dumps, load_lock
    >>> text = dumps(build_file("ap_min", load_lock()))
    >>> text == (VECTOR_DIR / "ap_min.json").read_text(encoding="utf-8")
    True
    """
    spec = METRICS[metric]
    grouped = cases_for(metric)
    seen: dict[str, int] = {}
    keys = [input_key(c.encoded_inputs(), seen) for _, cases in grouped for c in cases]
    ids = iter(assign_ids(metric, keys, lock))
    groups = []
    used_flags: set[str] = set()
    for group_name, cases in grouped:
        tests = []
        for case in cases:
            test = build_test(metric, next(ids), case)
            used_flags.update(test["flags"])
            tests.append(test)
        groups.append({"type": f"{spec.kind}-test", "comment": group_name, "tests": tests})
    notes: dict[str, dict[str, Any]] = {}
    for f in sorted(used_flags):
        bug, description, effect, links = NOTES[f]
        notes[f] = {"bugType": bug, "description": description, "effect": effect}
        if links:
            notes[f]["links"] = list(links)
    return {
        "schema": "schema.json",
        "generator": "prtheory.conformance.generate",
        "generatorVersion": generator_version(),
        "metric": metric,
        "kind": spec.kind,
        "description": spec.description,
        "claims": list(spec.claims),
        "conventions": dict(spec.defaults),
        "alternativeConventions": [a.name for a in spec.alternatives],
        "notes": notes,
        "numberOfTests": len(keys),
        "testGroups": groups,
    }


def dumps(doc: dict[str, Any]) -> str:
    """The canonical text of a vector file (stable key order, one test per few lines).

    Parameters
    ----------
    doc : dict
        A vector file's document.

    Returns
    -------
    str
        JSON indented by one space, non-ASCII kept, ending in a newline.

    Raises
    ------
    ValueError
        A NaN or infinite number in ``doc`` (the files write them as strings).

    Examples
    --------
    >>> from prtheory.conformance.generate import dumps
    >>> print(dumps({"metric": "ap_min", "pi": "1/2"}), end="")
    {
     "metric": "ap_min",
     "pi": "1/2"
    }
    """
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def build_all(
    lock: dict[str, dict[str, str]] | None = None, *, metrics: Collection[str] | None = None
) -> dict[str, str]:
    """File name -> canonical text, for every metric (or those of ``metrics``), ``tcids.json``
    (the updated lock) and ``generated.json`` (the large-n AP tests, :mod:`.large`).

    Parameters
    ----------
    lock : dict, optional
        The recorded test ids (:func:`load_lock`; the package's by default), updated with new
        ones.
    metrics : collection of str, optional
        Build only these metrics' files (all of :data:`~prtheory.conformance.metrics.METRICS`
        by default): a second where the whole takes about 15, to see a case being edited.
        ``tcids.json`` is always built (the ids of the other metrics as recorded);
        ``generated.json`` when ``average_precision`` is among them.

    Returns
    -------
    dict of str to str
        File name -> text.

    Raises
    ------
    InvalidInputError
        A name in ``metrics`` that is not a metric of the vectors, or ``metrics`` given as one
        string.

    Examples
    --------
    Built again, two metrics' files and the lock are the committed ones:

    >>> from prtheory.conformance.generate import VECTOR_DIR, build_all
    >>> built = build_all(metrics=["ap_min", "aucnpr"])
    >>> sorted(built)
    ['ap_min.json', 'aucnpr.json', 'tcids.json']
    >>> all(text == (VECTOR_DIR / name).read_text(encoding="utf-8")
    ...     for name, text in built.items())
    True
    >>> build_all(metrics=["ap"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    prtheory.errors.InvalidInputError: metrics: unknown ['ap']; known: average_precision, ...
    """
    chosen = selected_metrics(metrics)
    lock = load_lock() if lock is None else lock
    out = {f"{m}.json": dumps(build_file(m, lock)) for m in chosen}
    out[TCID_LOCK.name] = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    if "average_precision" in chosen:
        out[large.FILE_NAME] = large.build()
    return out


def main(directory: Path = VECTOR_DIR, *, metrics: Collection[str] | None = None) -> list[Path]:
    """Write every vector file, ``tcids.json`` and ``generated.json`` into ``directory``
    (``python -m prtheory.conformance.generate``).

    Parameters
    ----------
    directory : Path
        Where to write (the package's vectors by default); its ``tcids.json``, if any, keeps
        the published test ids.
    metrics : collection of str, optional
        Write only these metrics' files (and ``tcids.json``; ``generated.json`` with
        ``average_precision``), as :func:`build_all`.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    InvalidInputError
        A name in ``metrics`` that is not a metric of the vectors.

    Examples
    --------
    Into a new directory, with the published ids: the file written is the committed one.

    >>> import shutil
    >>> import tempfile
    >>> from pathlib import Path
    >>> from prtheory.conformance.generate import VECTOR_DIR, main
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = shutil.copy(VECTOR_DIR / "tcids.json", folder)
    ...     written = main(Path(folder), metrics=["aucnpr"])
    ...     names = [p.name for p in written]
    ...     same = written[0].read_bytes() == (VECTOR_DIR / "aucnpr.json").read_bytes()
    >>> names, same
    (['aucnpr.json', 'tcids.json'], True)
    """
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in build_all(load_lock(directory / TCID_LOCK.name), metrics=metrics).items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in main():
        print(p)
