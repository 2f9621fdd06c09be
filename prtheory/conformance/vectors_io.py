"""Load, validate and export the JSON test vectors (``prtheory/conformance/vectors/``)."""

from __future__ import annotations

import functools
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from prtheory.conformance.encoding import decode_float, decode_inputs, decode_value
from prtheory.conformance.metrics import Inputs

__all__ = ["VECTOR_DIR", "Vector", "export", "load", "load_file", "schema", "validate"]

VECTOR_DIR = Path(__file__).parent / "vectors"
SCHEMA_PATH = VECTOR_DIR / "schema.json"


@dataclass(frozen=True)
class Vector:
    """One decoded test: inputs as numpy arrays, expected values as :class:`Value`."""

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
        return f"{self.metric}#{self.tc_id}"


def _decode_outcome(obj: Any) -> Any:
    if obj is None:
        return None
    if "float64" in obj:
        return decode_value(obj)
    return {k: [decode_value(v) for v in vals] for k, vals in obj.items()}


def _decode_params(params: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k == "threshold":
            out[k] = decode_float(v)
        elif k in ("beta", "pi", "aucpr"):
            out[k] = Fraction(v)
        else:
            out[k] = v
    return out


def _decode_test(metric: str, t: dict[str, Any]) -> Vector:
    inp = t["inputs"]
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
        _decode_outcome(t.get("expected")),
        {k: _decode_outcome(v) for k, v in t.get("alternatives", {}).items()},
        t.get("reason"),
    )


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validate(doc: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``doc`` is a well-formed vector file."""
    import jsonschema

    jsonschema.validate(doc, schema(), cls=jsonschema.Draft202012Validator)
    count = sum(len(g["tests"]) for g in doc["testGroups"])
    ids = [t["tcId"] for g in doc["testGroups"] for t in g["tests"]]
    if count != doc["numberOfTests"] or len(set(ids)) != count:
        raise jsonschema.ValidationError("numberOfTests or tcIds inconsistent")
    flags = {f for g in doc["testGroups"] for t in g["tests"] for f in t["flags"]}
    missing = flags - set(doc["notes"])
    if missing:
        raise jsonschema.ValidationError(f"flags without a note: {sorted(missing)}")


def files(directory: Path = VECTOR_DIR) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if p.name != "schema.json")


def load_file(path: Path) -> list[Vector]:
    """Decoded vectors of one file (decoded once per file version; treat them as read-only)."""
    return list(_load_cached(path, path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=32)
def _load_cached(path: Path, mtime_ns: int) -> tuple[Vector, ...]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return tuple(_decode_test(doc["metric"], t) for g in doc["testGroups"] for t in g["tests"])


def load(metrics: list[str] | None = None, directory: Path = VECTOR_DIR) -> Iterator[Vector]:
    """Every vector (of the given metrics), in file and tcId order."""
    for path in files(directory):
        if metrics is None or path.stem in metrics:
            yield from load_file(path)


def export(target: Path) -> list[Path]:
    """Copy the plain-JSON vector files and their schema into ``target`` (for other languages)."""
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for p in [*files(), SCHEMA_PATH]:
        out.append(Path(shutil.copy2(p, target / p.name)))
    return out
