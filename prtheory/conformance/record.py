"""What the libraries returned in the run that made ``reports/conformance.md``, kept beside it.

``prtheory conformance`` (the full run) writes ``reports/conformance_results.json`` with the
report: every library's status, every result as the library gave it (its value, or the exception
type, message and whether it is a ``ValueError``, or why the input was not expressible), the
call-pattern predictions of the runner, each differential test's verdict, the CPU time by
library, and the sha256 of every source file that decides those results
(:func:`source_digests`: the adapters, the runner, the classifier, the generated inputs and the
vector files).

The staleness test then needs no rerun of the libraries to know that the report is current: the
recorded digests must equal the files' (else the results may have changed: rerun), the report
must equal what :func:`~prtheory.conformance.report.render` makes of the recorded results with
the current code (classification, diagnosis and text recomputed from the libraries' raw
answers), and a live run of one cheap library must return what is recorded for it.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from prtheory.conformance.adapters import LibraryStatus
from prtheory.conformance.classify import AdapterFault, Outcome, Verdict, classify
from prtheory.conformance.encoding import decode_outcome
from prtheory.conformance.runner import DifferentialRow, Row, Run
from prtheory.conformance.vectors_io import VECTOR_DIR, Vector, load

__all__ = ["RESULTS", "dumps", "loads", "outcome_of", "source_digests"]

RESULTS = Path("reports") / "conformance_results.json"
_PACKAGE = Path(__file__).resolve().parent
#: the sources that decide what a library returns, how a result is classified and what CPU time
#: it is charged
SOURCES = (
    "adapters/*.py",
    "adapters/spark/*.py",
    "runner.py",
    "isolated.py",
    "cputime.py",
    "classify.py",
    "differential.py",
    "confirmation.py",
    "sampling.py",
    "metrics.py",
    "encoding.py",
    "vectors_io.py",
)


def source_digests() -> dict[str, str]:
    """sha256 (16 hex digits) of each source of :data:`SOURCES` and each vector file.

    Returns
    -------
    dict of str to str
        Path relative to the package -> the first 16 hex digits of its sha256.

    Examples
    --------
    >>> import hashlib
    >>> from pathlib import Path
    >>> import prtheory.conformance.classify as classify
    >>> from prtheory.conformance.record import source_digests
    >>> digests = source_digests()
    >>> text = Path(classify.__file__).read_bytes()
    >>> digests["classify.py"] == hashlib.sha256(text).hexdigest()[:16]
    True
    >>> "vectors/ap_min.json" in digests, "report.py" in digests
    (True, False)
    """
    paths = [p for pattern in SOURCES for p in sorted(_PACKAGE.glob(pattern))]
    paths += sorted(VECTOR_DIR.glob("*.json"))
    return {
        p.relative_to(_PACKAGE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for p in paths
    }


def _float(x: float) -> str:
    return "nan" if math.isnan(x) else float(x).hex()


def _value(value: Any) -> Any:
    """A returned value as JSON: a float as C99 hex, a curve as lists of hex."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {k: [_float(float(x)) for x in np.ravel(v)] for k, v in value.items()}
    return _float(float(value))


def _unvalue(obj: Any) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return {k: np.array([float.fromhex(x) for x in v]) for k, v in obj.items()}
    return float.fromhex(obj)


def _predictions(extra: dict[str, Any]) -> dict[str, Any]:
    def one(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: [e.to_json() for e in vals] for k, vals in v.items()}
        return v.to_json()

    return {name: one(v) for name, v in extra.items()}


def _row(r: Row) -> dict[str, Any]:
    unsupported = r.verdict.detail if r.verdict.category == "unsupported" else None
    return {
        "library": r.library,
        "implementation": r.implementation,
        "metric": r.metric,
        "tcId": r.vector.tc_id,
        "value": _value(r.value),
        "error": None if r.error is None else list(r.error),
        "unsupported": unsupported,
        "verdict": r.verdict.to_json() if r.verdict.category in ("timeout", "crashed") else None,
        "warnings": list(r.warnings),
        "claims": list(r.claims),
        "extra": _predictions(r.extra),
    }


def dumps(run: Run) -> str:
    """The record of ``run``: the module docstring's contents, one JSON document.

    Parameters
    ----------
    run : Run
        The run.

    Returns
    -------
    str
        The JSON text, ending in a newline.

    Examples
    --------
    >>> import json
    >>> from prtheory.conformance.record import dumps, source_digests
    >>> from prtheory.conformance.runner import Run
    >>> doc = json.loads(dumps(Run([], [], {"mylib": "No module named 'mylib'"})))
    >>> doc["rows"], doc["import_errors"], doc["sources"] == source_digests()
    ([], {'mylib': "No module named 'mylib'"}, True)
    """
    doc = {
        "sources": source_digests(),
        "statuses": [list(s.__dict__.values()) for s in run.statuses],
        "import_errors": run.import_errors,
        "cpu": run.cpu,
        "rows": [_row(r) for r in run.rows],
        "differential": [
            [t.library, t.implementation, t.metric, list(t.claims), t.verdict.to_json()]
            for t in run.differential
        ],
    }
    return json.dumps(doc, indent=0) + "\n"


def outcome_of(obj: dict[str, Any]) -> Outcome:
    """The library's answer recorded in a row: its value, a stand-in of its exception (same
    class name and message, a ``ValueError`` where the original was one; an
    :class:`~prtheory.conformance.classify.AdapterFault` as itself), or unsupported.

    Parameters
    ----------
    obj : dict
        A recorded row (``value``, ``error``, ``unsupported``, ``warnings``).

    Returns
    -------
    Outcome
        The answer, as the classifier takes it.

    Examples
    --------
    >>> from prtheory.conformance.record import outcome_of
    >>> row = {"unsupported": None, "error": ["ZeroDivisionError", "division by zero", False],
    ...        "warnings": []}
    >>> err = outcome_of(row).error
    >>> type(err).__name__, str(err), isinstance(err, ValueError)
    ('ZeroDivisionError', 'division by zero', False)
    >>> outcome_of({"unsupported": None, "error": None, "value": "0x1.8p-1", "warnings": []}).value
    0.75
    """
    if obj["unsupported"] is not None:
        return Outcome(unsupported=obj["unsupported"])
    if obj["error"] is not None:
        name, message, deliberate = obj["error"]
        cls = (
            AdapterFault
            if name == AdapterFault.__name__
            else type(name, (ValueError if deliberate else Exception,), {})
        )
        return Outcome(error=cls(message), warnings=list(obj["warnings"]))
    return Outcome(value=_unvalue(obj["value"]), warnings=list(obj["warnings"]))


def _verdict(obj: dict[str, Any]) -> Verdict:
    return Verdict(**obj)


def _loaded_row(obj: dict[str, Any], vectors: dict[tuple[str, int], Vector]) -> Row:
    """A recorded row, classified again by the current classifier."""
    vector = vectors[(obj["metric"], obj["tcId"])]
    extra = {name: decode_outcome(v) for name, v in obj["extra"].items()}
    outcome = outcome_of(obj)
    if obj["verdict"] is not None:  # the runner's own verdict: the process died or ran out
        verdict = _verdict(obj["verdict"])
    else:
        verdict = classify(vector, outcome, extra)
    error = None if obj["error"] is None else tuple(obj["error"])
    return Row(
        obj["library"],
        obj["implementation"],
        obj["metric"],
        vector,
        verdict,
        outcome.value,
        tuple(obj["warnings"]),
        tuple(obj["claims"]),
        extra,
        error,
    )


def loads(text: str) -> Run:
    """The run recorded in ``text``, every result classified again with the current code.

    Only the vector files of the metrics the rows name are read.

    Parameters
    ----------
    text : str
        A record, as :func:`dumps` writes it.

    Returns
    -------
    Run
        The statuses, import errors, differential verdicts and CPU times as recorded; each row
        with its vector and the verdict of :func:`~prtheory.conformance.classify.classify` on
        the recorded answer (the runner's own ``timeout`` and ``crashed`` verdicts as recorded).

    See Also
    --------
    dumps : the record of a run.

    Examples
    --------
    A round trip of one row: a value for ``ap_min`` with 3 positives and 5 negatives, whose
    worst ranking puts the 5 negatives first, AP = (1/6 + 2/7 + 3/8)/3 = 139/504:

    >>> from prtheory.conformance.adapters import Implementation
    >>> from prtheory.conformance.classify import classify
    >>> from prtheory.conformance.record import dumps, loads
    >>> from prtheory.conformance.runner import Row, Run, run_implementation
    >>> from prtheory.conformance.vectors_io import load
    >>> vector = next(v for v in load(["ap_min"]) if v.inputs.params == {"pos": 3, "neg": 5})
    >>> impl = Implementation("mine", "worst AP", "ap_min", lambda x: 139 / 504)
    >>> outcome = run_implementation(impl, vector)
    >>> row = Row("mine", impl.name, impl.metric, vector, classify(vector, outcome), outcome.value)
    >>> back = loads(dumps(Run([], [row], {})))
    >>> back.rows[0].vector is vector, back.rows[0].value == 139 / 504
    (True, True)
    >>> back.rows[0].verdict.category
    'agrees'
    """
    doc = json.loads(text)
    vectors = {(v.metric, v.tc_id): v for v in load(sorted({r["metric"] for r in doc["rows"]}))}
    return Run(
        [LibraryStatus(s[0], s[1], s[2], s[3], s[4], s[5], tuple(s[6])) for s in doc["statuses"]],
        [_loaded_row(r, vectors) for r in doc["rows"]],
        dict(doc["import_errors"]),
        [
            DifferentialRow(lib, name, metric, tuple(claims), _verdict(v))
            for lib, name, metric, claims, v in doc["differential"]
        ],
        {k: dict(v) for k, v in doc["cpu"].items()},
    )
