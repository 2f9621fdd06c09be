"""Exact average precision of a Parquet file read in chunks: memory is one chunk plus one count
per distinct score, whatever the number of rows.

Usage::

    python examples/big_file_ap.py [FILE.parquet] [--rows N]

Without FILE it first writes ``scores.parquet`` in the working directory: N rows (default
10^6) of a label and a score rounded to 3 decimals (so at most 1001 distinct scores), 20%
positives, seed 0. It then reads the columns ``label`` and ``score`` one chunk of 100,000
rows at a time (pyarrow's ``iter_batches``), adds each chunk to a
:class:`prtheory.streaming.PRAccumulator`, and prints the exact AP as a float, correctly
rounded. The same float comes from ``prtheory.average_precision`` on the whole columns at
once (the script checks it, reading the file whole, which a file too big for memory would not
allow).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import prtheory
from prtheory.streaming import PRAccumulator

CHUNK = 100_000


def write_demo(path: Path, rows: int) -> None:
    """``rows`` labelled scores: positives score N(1, 1), negatives N(0, 1), 3 decimals."""
    rng = np.random.default_rng(0)
    label = rng.random(rows) < 0.2
    score = np.round(1 / (1 + np.exp(-(rng.normal(size=rows) + label))), 3)
    pq.write_table(pa.table({"label": label, "score": score}), path, row_group_size=CHUNK)


def chunked_ap(path: Path) -> PRAccumulator:
    """The accumulator of every chunk of the file's ``label`` and ``score`` columns."""
    acc = PRAccumulator()
    for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK, columns=["label", "score"]):
        acc.update(batch["label"].to_numpy(zero_copy_only=False), batch["score"].to_numpy())
    return acc


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, help="a Parquet file (default: a demo)")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the demo file")
    args = parser.parse_args(argv)
    path = args.file
    if path is None:
        path = Path("scores.parquet")
        write_demo(path, args.rows)
    acc = chunked_ap(path)
    print(f"{acc.n_items} rows, {acc.n_blocks} distinct scores held")
    ap = acc.compute(exact=False)
    print(f"AP = {ap!r}")
    whole = pq.read_table(path, columns=["label", "score"])
    assert ap == prtheory.average_precision(whole["label"].to_numpy(), whole["score"].to_numpy())
    print("equal to prtheory.average_precision of the whole columns")


if __name__ == "__main__":
    main()
