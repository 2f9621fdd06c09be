"""The large-n families of the exported vectors: ``vectors/generated.json``.

Inputs of 10^4 to 10^6 items are not listed item by item: each test names the SplitMix64 seed,
the family and the size from which :mod:`prtheory.conformance.sampling` (and any reproduction
of it in another language, as the vectors' README describes) draws the input, the sha256 of the
drawn input (to check a reproduction bit for bit) and the expected value. The expected value is
the correctly rounded float64 of the exact step AP (N2), from :func:`prtheory.average_precision`,
whose result is the oracle's exact value rounded once (checked against
:func:`prtheory.oracle.average_precision` on the 10^4-item tests by the test suite).

Digests: ``y_true`` as one byte per item (0 or 1), ``y_score`` and ``sample_weight`` as
little-endian IEEE 754 float64, each hashed alone.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from prtheory.conformance.sampling import FAMILIES, Sample, sample
from prtheory.metrics.areas import average_precision

__all__ = ["FILE_NAME", "SIZES", "build", "digests"]

FILE_NAME = "generated.json"
SIZES = (10_000, 100_000, 1_000_000)
SEED = 41


def digests(s: Sample) -> dict[str, str]:
    """sha256 (hex) of each array of ``s`` in the canonical byte form (module docstring).

    Parameters
    ----------
    s : Sample
        A drawn input.

    Returns
    -------
    dict of str to str
        ``y_true``, ``y_score`` (and ``sample_weight`` when weighted) -> sha256 hex digest.

    Examples
    --------
    The bytes built another way: one byte per label, ``struct``'s little-endian doubles:

    >>> import hashlib
    >>> import struct
    >>> from prtheory.conformance.large import digests
    >>> from prtheory.conformance.sampling import FAMILIES, sample
    >>> s = sample(42, FAMILIES[5], 4)
    >>> d = digests(s)
    >>> d["y_true"] == hashlib.sha256(bytes(s.y_true.tolist())).hexdigest()
    True
    >>> d["sample_weight"] == hashlib.sha256(struct.pack("<4d", *s.sample_weight)).hexdigest()
    True
    >>> sorted(digests(sample(42, FAMILIES[0], 4)))
    ['y_score', 'y_true']
    """
    out = {
        "y_true": hashlib.sha256(s.y_true.astype(np.uint8).tobytes()).hexdigest(),
        "y_score": hashlib.sha256(s.y_score.astype("<f8").tobytes()).hexdigest(),
    }
    if s.sample_weight is not None:
        out["sample_weight"] = hashlib.sha256(s.sample_weight.astype("<f8").tobytes()).hexdigest()
    return out


def _test(tc_id: int, seed: int, family_index: int, n: int) -> dict[str, Any]:
    family = FAMILIES[family_index]
    s = sample(seed, family, n)
    value = average_precision(s.y_true, s.y_score, sample_weight=s.sample_weight)
    return {
        "tcId": tc_id,
        "metric": "average_precision",
        "family": family.name,
        "seed": seed,
        "n": n,
        "sha256": digests(s),
        "result": "valid",
        "expected": {"float64": float(value).hex()},
    }


def build() -> str:
    """The canonical text of ``generated.json``: every family at every size of :data:`SIZES`.

    Test ``k`` (from 1, sizes in increasing order, families in the order of
    :data:`~prtheory.conformance.sampling.FAMILIES` within a size) is drawn with the seed
    ``SEED + k``; its expected value is the correctly rounded step AP of the drawn input.

    Returns
    -------
    str
        JSON indented by one space, ending in a newline (about a second: the inputs of 10^6
        items are drawn and evaluated).

    See Also
    --------
    prtheory.conformance.generate.build_all : every vector file, this one included.

    Examples
    --------
    Built again, the file is the committed one; its first test is the first family at 10^4
    items, drawn with the seed 41 + 1:

    >>> import json
    >>> from prtheory.conformance.generate import VECTOR_DIR
    >>> from prtheory.conformance.large import FILE_NAME, SIZES, build
    >>> from prtheory.conformance.sampling import FAMILIES
    >>> text = build()
    >>> text == (VECTOR_DIR / FILE_NAME).read_text(encoding="utf-8")
    True
    >>> doc = json.loads(text)
    >>> doc["numberOfTests"] == len(SIZES) * len(FAMILIES)
    True
    >>> first = doc["tests"][0]
    >>> first["n"], first["seed"], first["family"] == FAMILIES[0].name
    (10000, 42, True)
    """
    tests, tc_id = [], 0
    for n in SIZES:
        for i, _family in enumerate(FAMILIES):
            tc_id += 1
            tests.append(_test(tc_id, SEED + tc_id, i, n))
    doc = {
        "generator": "prtheory.conformance.sampling (SplitMix64; see README.md)",
        "metric": "average_precision",
        "description": "Large inputs drawn from a seed: rebuild each with the generator the "
        "README describes, check the sha256 of each array, then compare with expected.float64 "
        "(the correctly rounded step AP, tied scores grouped).",
        "families": {
            f.name: {"permille": f.permille, "scores": f.scores, "weights": f.weights}
            for f in FAMILIES
        },
        "numberOfTests": len(tests),
        "tests": tests,
    }
    return json.dumps(doc, indent=1) + "\n"
