"""Load, validate and export the JSON test vectors (``prtheory/conformance/vectors/``)."""

from __future__ import annotations

import functools
import json
import math
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prtheory.conformance.encoding import decode_float, decode_inputs, decode_outcome
from prtheory.conformance.metrics import Inputs

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "VECTOR_DIR",
    "Vector",
    "VectorFileError",
    "export",
    "load",
    "load_file",
    "schema",
    "validate",
]

VECTOR_DIR = Path(__file__).parent / "vectors"
SCHEMA_PATH = VECTOR_DIR / "schema.json"
README_PATH = VECTOR_DIR / "README.md"
LOCK_PATH = VECTOR_DIR / "tcids.json"
GENERATED_PATH = VECTOR_DIR / "generated.json"
NOT_VECTORS = ("schema.json", "tcids.json", "generated.json")


@dataclass(frozen=True)
class Vector:
    """One decoded test: inputs as numpy arrays, expected values as :class:`Value`.

    Examples
    --------
    The first AP@k vector ranks the labels 1, 0, 1, 1, 0, 0, 1, 0 with k = 3: hits at ranks 1
    and 3 have precisions 1 and 2/3, and (1 + 2/3) / min(k, 4 positives) = 5/9:

    >>> from prtheory.conformance.vectors_io import VECTOR_DIR, load_file
    >>> v = load_file(VECTOR_DIR / "ap_at_k.json")[0]
    >>> v.ident, v.inputs.y_true.tolist(), v.inputs.params["k"], v.expected.exact
    ('ap_at_k#1', [1, 0, 1, 1, 0, 0, 1, 0], 3, Fraction(5, 9))
    """

    metric: str
    tc_id: int
    comment: str
    flags: tuple[str, ...]
    inputs: Inputs
    result: str
    expected: Any  # Value, dict[str, list[Value]], or None
    alternatives: dict[str, Any]
    reason: str | None

    @property
    def ident(self) -> str:
        """``metric#tcId``, the vector's name in reports."""
        return f"{self.metric}#{self.tc_id}"


def _decode_params(params: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k in ("threshold", "max_fpr"):
            out[k] = decode_float(v)
        elif k == "beta" and v == "inf":
            out[k] = math.inf
        elif k in ("beta", "pi", "aucpr"):
            out[k] = Fraction(v)
        else:
            out[k] = v
    return out


def _decode_test(metric: str, t: dict[str, Any]) -> Vector:
    inp = t["inputs"]
    y: np.ndarray | None
    s: np.ndarray | None
    w: np.ndarray | None
    if "y_true" in inp or "runs" in inp:
        y, s, w = decode_inputs(inp)
    else:
        y = s = w = None
    return Vector(
        metric,
        t["tcId"],
        t["comment"],
        tuple(t["flags"]),
        Inputs(y, s, w, _decode_params(inp.get("params", {}))),
        t["result"],
        decode_outcome(t.get("expected")),
        {k: decode_outcome(v) for k, v in t.get("alternatives", {}).items()},
        t.get("reason"),
    )


def schema() -> dict[str, Any]:
    """The JSON schema of the vector files (``vectors/schema.json``).

    Returns
    -------
    dict
        The schema, parsed.

    Examples
    --------
    >>> from prtheory.conformance.vectors_io import schema
    >>> "testGroups" in schema()["required"]
    True
    """
    doc: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return doc


class VectorFileError(ValueError):
    """A vector file that breaks the schema or whose values disagree with each other.

    Raised by :func:`validate` when ``jsonschema`` is not installed (with it, its
    ``ValidationError``); a ``ValueError``.

    Examples
    --------
    >>> from prtheory.conformance.vectors_io import VectorFileError
    >>> issubclass(VectorFileError, ValueError)
    True
    """


def _schema_error() -> type[Exception]:
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - jsonschema is in the test and conformance extras
        return VectorFileError
    error: type[Exception] = jsonschema.ValidationError
    return error


def _outcome_values(outcome: Any) -> list[dict[str, Any]]:
    if outcome is None:
        return []
    if "float64" in outcome:
        return [outcome]
    return [v for vals in outcome.values() for v in vals]


def rounded(q: Fraction) -> float:
    """``q`` rounded to the nearest float64, ``±inf`` beyond the largest one (where
    ``float(q)`` raises OverflowError instead)."""
    try:
        return float(q)
    except OverflowError:
        return -math.inf if q < 0 else math.inf


def _value_problem(v: dict[str, Any]) -> str | None:
    """Why the three encodings of one value disagree, or None. The float64 must be the decimal
    rounded to nearest (and, for a rational, the exact value rounded); the 40 digits must be
    within half a unit of their last place of the exact value."""
    try:
        f64 = float.fromhex(v["float64"])
    except ValueError:
        return f"float64 {v['float64']!r} is not C99 hex"
    dec = Fraction(v["decimal"])
    if v["exact"] is not None:
        exact = Fraction(v["exact"])
        if rounded(exact) != f64:
            return f"float64 {v['float64']} is not the exact {v['exact']} rounded"
        digits = Fraction(10) ** (int(v["decimal"].split("e")[1]) - 39)
        if abs(dec - exact) > digits / 2:
            return f"decimal {v['decimal']} is not the exact {v['exact']} to 40 digits"
    elif rounded(dec) != f64:
        return f"float64 {v['float64']} is not the decimal {v['decimal']} rounded"
    return None


def _lengths(inputs: dict[str, Any]) -> set[int]:
    return {len(inputs[k]) for k in ("y_true", "y_score", "sample_weight") if k in inputs}


def validate(doc: dict[str, Any]) -> None:
    """Raise unless ``doc`` is a well-formed vector file whose values agree with each other.

    The JSON schema (``jsonschema.ValidationError`` when jsonschema is installed); then
    ``numberOfTests`` and unique tcIds, a note for every flag, the exact, 40-digit and float64
    forms of every value agreeing (:func:`_value_problem`), equal input lengths for every test
    that is not meant to be invalid, and curves whose arrays have equal lengths.

    Parameters
    ----------
    doc : dict
        A parsed vector file.

    Returns
    -------
    None
        When the file is well formed.

    Raises
    ------
    jsonschema.ValidationError or VectorFileError
        The first problem found (:class:`VectorFileError` when ``jsonschema`` is not installed).

    Examples
    --------
    >>> import json
    >>> from prtheory.conformance.vectors_io import VECTOR_DIR, validate
    >>> doc = json.loads((VECTOR_DIR / "ap_min.json").read_text())
    >>> validate(doc)
    >>> doc["numberOfTests"] += 1
    >>> try:
    ...     validate(doc)
    ... except Exception as err:  # jsonschema's ValidationError (installed with the extra)
    ...     print(type(err).__name__, err)
    ValidationError numberOfTests or tcIds inconsistent
    """
    error = _schema_error()
    if error is not VectorFileError:
        import jsonschema

        jsonschema.validate(doc, schema(), cls=jsonschema.Draft202012Validator)
    count = sum(len(g["tests"]) for g in doc["testGroups"])
    ids = [t["tcId"] for g in doc["testGroups"] for t in g["tests"]]
    if count != doc["numberOfTests"] or len(set(ids)) != count:
        raise error("numberOfTests or tcIds inconsistent")
    flags = {f for g in doc["testGroups"] for t in g["tests"] for f in t["flags"]}
    missing = flags - set(doc["notes"])
    if missing:
        raise error(f"flags without a note: {sorted(missing)}")
    for g in doc["testGroups"]:
        for t in g["tests"]:
            where = f"{doc['metric']} tcId {t['tcId']}"
            if t["result"] != "invalid" and len(_lengths(t["inputs"])) > 1:
                raise error(f"{where}: y_true, y_score and sample_weight lengths differ")
            outcomes = [t.get("expected"), *t.get("alternatives", {}).values()]
            for outcome in outcomes:
                curve = isinstance(outcome, dict) and "float64" not in outcome
                if curve and len({len(vals) for vals in outcome.values()}) > 1:
                    raise error(f"{where}: curve arrays of different lengths")
                for v in _outcome_values(outcome):
                    problem = _value_problem(v)
                    if problem:
                        raise error(f"{where}: {problem}")


def files(directory: Path = VECTOR_DIR) -> list[Path]:
    """The vector files of ``directory`` (every ``*.json`` but the schema, the tcId record and
    ``generated.json``), sorted by name.

    Parameters
    ----------
    directory : Path
        Where the files are (the package's vectors by default).

    Returns
    -------
    list of Path
        One file per metric.

    Examples
    --------
    >>> from prtheory.conformance.vectors_io import files
    >>> files()[0].name
    'ap_at_k.json'
    """
    return sorted(p for p in directory.glob("*.json") if p.name not in NOT_VECTORS)


def load_file(path: Path, *, check: bool = True) -> list[Vector]:
    """Decoded vectors of one file (decoded once per file version; treat them as read-only).

    The file is validated first (:func:`validate`) unless ``check=False``: a malformed file or
    one whose values disagree raises instead of loading.

    Parameters
    ----------
    path : Path
        The vector file.
    check : bool, default True
        Validate it first.

    Returns
    -------
    list of Vector
        Its tests in file order.

    Raises
    ------
    jsonschema.ValidationError or VectorFileError
        As :func:`validate`, for a file that breaks it.

    Examples
    --------
    >>> import json
    >>> from prtheory.conformance.vectors_io import VECTOR_DIR, load_file
    >>> path = VECTOR_DIR / "ap_min.json"
    >>> len(load_file(path)) == json.loads(path.read_text())["numberOfTests"]
    True
    """
    return list(_load_cached(path, path.stat().st_mtime_ns, check))


@functools.lru_cache(maxsize=32)
def _load_cached(path: Path, mtime_ns: int, check: bool) -> tuple[Vector, ...]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    if check:
        validate(doc)
    return tuple(_decode_test(doc["metric"], t) for g in doc["testGroups"] for t in g["tests"])


def load(metrics: list[str] | None = None, directory: Path = VECTOR_DIR) -> Iterator[Vector]:
    """Every vector (of the given metrics), in file and tcId order.

    Parameters
    ----------
    metrics : list of str, optional
        The metrics whose vectors to load (all by default).
    directory : Path
        Where the vector files are (the package's by default).

    Yields
    ------
    Vector
        Decoded: inputs as arrays, expected values as
        :class:`~prtheory.conformance.encoding.Value` (checked against the schema once per file).

    Examples
    --------
    >>> from prtheory.conformance.vectors_io import load
    >>> v = next(load(["average_precision"]))
    >>> v.ident, v.comment
    ('average_precision#1', 'distinct scores, mixed labels')
    >>> # AP of 1 0 1 1 0 0 1 0 (scores decreasing): (1/1 + 2/3 + 3/4 + 4/7) / 4
    >>> # = (84 + 56 + 63 + 48) / 84 / 4 = 251/336
    >>> v.expected.exact
    Fraction(251, 336)
    """
    for path in files(directory):
        if metrics is None or path.stem in metrics:
            yield from load_file(path)


def export(target: Path) -> list[Path]:
    """Copy the plain-JSON vector files, their schema, the tcId record, the large-n families
    (``generated.json``) and the README for consumers in other languages into ``target``.

    Parameters
    ----------
    target : Path
        A directory (made if missing).

    Returns
    -------
    list of Path
        The files written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from prtheory.conformance.vectors_io import export
    >>> with tempfile.TemporaryDirectory() as d:
    ...     names = {p.name for p in export(Path(d))}
    >>> {"average_precision.json", "schema.json", "README.md"} <= names
    True
    """
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for p in [*files(), SCHEMA_PATH, LOCK_PATH, GENERATED_PATH, README_PATH]:
        out.append(Path(shutil.copy2(p, target / p.name)))
    return out
