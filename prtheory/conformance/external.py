"""Libraries outside Python (R packages, Weka) run in one long-lived process per run.

An adapter for such a library starts its server once, in an implementation's ``prepare()``
(outside the per-vector time limit: R loading its packages, the JVM starting and compiling the
server's source), and sends it one request per vector. The server is a child process of the
process that started it, so the runner's CPU accounting of a library's worker process tree
(:mod:`prtheory.conformance.cputime`) charges the server's start-up to the library's start-up
and each request's CPU to its vector, as it does for a JVM that Spark starts. A server that dies
stays dead (:class:`ServerDied` on every later call, never a restart inside a vector's time):
the isolated runner ends the worker after that vector (:func:`any_died`) and its replacement
starts the server again in its own start-up.

The protocol is JSON lines on the server's standard input and output, with the inputs of a test
in the exported vector format (``prtheory/conformance/vectors/README.md``): a request is ::

    {"id": 7, "fn": "aucpr", "inputs": {"y_true": [1, 0], "y_score": ["0.9", "0.1"],
                                         "params": {"k": 3}}}

(``inputs`` exactly as in a vector file: scores and weights as strings, long inputs as
``runs``), and the answer one line ::

    {"id": 7, "value": "0.83333333333333337"}

with ``value`` a float written with 17 significant digits (or ``"NaN"``, ``"Inf"``,
``"-Inf"``, R's ``"NA"``), or ``"error"`` (the message) and ``"kind"`` (``"rejected"`` for
the library's deliberate rejection of the input, ``"crashed"`` for any other failure of the
library, ``"server"`` for a failure of the server's own code, such as decoding the request,
which is no answer of the library: :class:`ServerFault`) in its place. The servers
(``adapters/r/vectors.R``, ``adapters/java/WekaVectors.java``) are thus also small examples of
reading the vectors from another language.

A server that reads binary inputs (``Server(binary=True)``: the R server) gets an input of more
than :data:`RUNS_FROM` items as a file of little-endian float64 values instead, labels, scores
and (if any) weights one after another, and a request ::

    {"id": 8, "fn": "auc", "inputs": {"binary": "/tmp/.../inputs.f64", "n": 316228,
                                       "weighted": false, "params": {}}}

Writing and parsing hundreds of thousands of decimal strings cost seconds a call (most of the
R packages' CPU time on the generated inputs); the float64 values are also the exact inputs,
where R's own decimal parser (``as.numeric``) is off by an ulp on about 3 values in 10^5.
"""

from __future__ import annotations

import atexit
import json
import math
import subprocess
import tempfile
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

import numpy as np

from prtheory.conformance.encoding import encode_float, encode_inputs

__all__ = [
    "SERVER_DIR",
    "ExternalCrash",
    "ExternalRejection",
    "Server",
    "ServerDied",
    "ServerFault",
    "any_died",
    "close_all",
    "encode_binary_inputs",
    "encode_request_inputs",
    "parse_value",
]

#: where the servers' sources live (installed with the package)
SERVER_DIR = Path(__file__).parent / "adapters"
#: inputs longer than this are sent run-length encoded, as the vector files store them
RUNS_FROM = 1000


#: the servers started by this process, ended by :func:`close_all` (also at exit)
_RUNNING: list[Server] = []


def close_all() -> None:
    """End every server this process started.

    Also registered with :mod:`atexit`; the tests call it after each test module.

    Returns
    -------
    None

    Examples
    --------
    A server that waits for its input to end is a child of this process until then:

    >>> import os
    >>> import sys
    >>> from prtheory.conformance.cputime import descendants
    >>> from prtheory.conformance.external import Server, close_all
    >>> before = set(descendants(os.getpid()))
    >>> Server([sys.executable, "-c", "import sys; sys.stdin.read()"], "idle").start()
    >>> started = set(descendants(os.getpid())) - before
    >>> len(started)
    1
    >>> close_all()
    >>> started & set(descendants(os.getpid()))
    set()
    """
    while _RUNNING:
        _RUNNING[-1].close()


atexit.register(close_all)


class ExternalRejection(ValueError):
    """The external library rejected the input on purpose (an R ``stop()``, a Java
    ``IllegalArgumentException``): a deliberate rejection, as a Python ``ValueError``.

    The classifier counts a ``ValueError`` on malformed input as agreeing, and on legal input
    as ``rejected-valid`` (:mod:`prtheory.conformance.classify`), never as a crash.

    Examples
    --------
    A server answering ``"kind": "rejected"`` (:class:`Server` shows one):

    >>> from prtheory.conformance.external import ExternalCrash, ExternalRejection
    >>> issubclass(ExternalRejection, ValueError), issubclass(ExternalCrash, ValueError)
    (True, False)
    """


class ExternalCrash(RuntimeError):
    """The external library failed in any other way (an index out of bounds, a null pointer):
    a crash.

    Examples
    --------
    A server answering ``"kind": "crashed"`` (or no kind at all):

    >>> import sys
    >>> import numpy as np
    >>> from prtheory.conformance.external import ExternalCrash, Server
    >>> from prtheory.conformance.metrics import Inputs
    >>> answer = '{"id": 1, "error": "subscript out of bounds", "kind": "crashed"}'
    >>> script = f"import sys; sys.stdin.readline(); print({answer!r}, flush=True)"
    >>> server = Server([sys.executable, "-c", script], "crashing")
    >>> try:
    ...     server.call("auc", Inputs(np.array([1, 0]), np.array([0.5, 0.25])))
    ... except ExternalCrash as exc:
    ...     print(type(exc).__name__, exc)
    ExternalCrash subscript out of bounds
    >>> server.close()
    """


class ServerFault(RuntimeError):
    """The server's own code failed (decoding the request, an unknown function): no answer of
    the library, so neither a rejection nor a crash of it (the runner records it as a fault of
    the adapter, :class:`~prtheory.conformance.classify.AdapterFault`).

    Examples
    --------
    A server answering ``"kind": "server"``:

    >>> import sys
    >>> import numpy as np
    >>> from prtheory.conformance.external import Server, ServerFault
    >>> from prtheory.conformance.metrics import Inputs
    >>> answer = '{"id": 1, "error": "decoding the request: bad number", "kind": "server"}'
    >>> script = f"import sys; sys.stdin.readline(); print({answer!r}, flush=True)"
    >>> server = Server([sys.executable, "-c", script], "decoding")
    >>> try:
    ...     server.call("auc", Inputs(np.array([1, 0]), np.array([0.5, 0.25])))
    ... except ServerFault as exc:
    ...     print(exc)
    the decoding server: decoding the request: bad number
    >>> server.close()
    """


class ServerDied(ExternalCrash):
    """The server process ended (or answered out of turn): a crash, and every later call to the
    same server raises it too.

    Examples
    --------
    A server that exits at once (R without its package, say), with its last words:

    >>> import sys
    >>> import numpy as np
    >>> from prtheory.conformance.external import Server, ServerDied
    >>> from prtheory.conformance.metrics import Inputs
    >>> server = Server([sys.executable, "-c", "import sys; sys.exit('no package ROCR')"], "R")
    >>> x = Inputs(np.array([1, 0]), np.array([0.5, 0.25]))
    >>> for attempt in range(2):
    ...     try:
    ...         server.call("auc", x)
    ...     except ServerDied as exc:
    ...         print(exc)
    the R server died: no package ROCR
    the R server died: no package ROCR
    >>> server.close()
    """


def any_died() -> bool:
    """Whether a server this process started has died (the isolated runner then replaces its
    worker, so that the restart is charged to a start-up, not to a vector).

    Returns
    -------
    bool
        True while a server that died is still listed (until it is closed).

    Examples
    --------
    >>> import sys
    >>> import numpy as np
    >>> from prtheory.conformance.external import Server, ServerDied, any_died
    >>> from prtheory.conformance.metrics import Inputs
    >>> server = Server([sys.executable, "-c", "pass"], "short-lived")
    >>> try:
    ...     server.call("auc", Inputs(np.array([1, 0]), np.array([0.5, 0.25])))
    ... except ServerDied as exc:
    ...     print(exc)
    the short-lived server died: no output
    >>> any_died()
    True
    >>> server.close()
    >>> any_died()
    False
    """
    return any(s.dead is not None for s in _RUNNING)


def _param(value: Any) -> Any:
    """A vector parameter as the vector files write it (rationals ``"p/q"``, floats as
    strings, integers and names as they are)."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, float):
        return encode_float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def encode_request_inputs(x: Any) -> dict[str, Any]:
    """A test's ``inputs`` object in the exported vector format, from decoded
    :class:`~prtheory.conformance.metrics.Inputs` (run-length encoded beyond
    :data:`RUNS_FROM` items, as the generator writes the long vectors).

    Parameters
    ----------
    x : Inputs
        Decoded inputs (``y_true``, ``y_score``, ``sample_weight``, ``params``).

    Returns
    -------
    dict
        ``y_true``, ``y_score`` (floats as strings), ``sample_weight`` when weighted, and
        ``params`` when any (rationals as ``"p/q"``, floats as strings).

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.conformance.external import encode_request_inputs
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([1, 0]), np.array([0.9, 0.1]), params={"k": 3, "pi": Fraction(1, 2)})
    >>> encode_request_inputs(x)
    {'y_true': [1, 0], 'y_score': ['0.9', '0.1'], 'params': {'k': 3, 'pi': '1/2'}}
    >>> encode_request_inputs(Inputs(np.array([1, 0]), np.array([0.9, 0.1]), np.array([2.0, 0.5])))
    {'y_true': [1, 0], 'y_score': ['0.9', '0.1'], 'sample_weight': ['2.0', '0.5']}
    """
    out = encode_inputs(
        x.y_true, x.y_score, x.sample_weight, runs=len(np.asarray(x.y_true)) > RUNS_FROM
    )
    if x.params:
        out["params"] = {k: _param(v) for k, v in x.params.items()}
    return out


def encode_binary_inputs(x: Any, path: Path) -> dict[str, Any] | None:
    """The inputs ``x`` written to ``path`` as float64 values (labels, scores, then weights)
    and the request's ``inputs`` naming it; ``None`` (send JSON) for an input of at most
    :data:`RUNS_FROM` items, without scores, or with labels that are not numbers.

    Parameters
    ----------
    x : Inputs
        Decoded inputs.
    path : Path
        The file to write (overwritten).

    Returns
    -------
    dict or None
        ``binary`` (the path), ``n`` (items), ``weighted`` and ``params`` when any; None where
        the input goes as JSON.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from prtheory.conformance.external import encode_binary_inputs
    >>> from prtheory.conformance.metrics import Inputs
    >>> y, s = np.arange(1001) % 2, np.linspace(0, 1, 1001)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "inputs.f64"
    ...     request = encode_binary_inputs(Inputs(y, s), path)
    ...     written = np.fromfile(path, dtype="<f8")
    >>> request["n"], request["weighted"], request["binary"] == str(path)
    (1001, False, True)
    >>> bool((written[:1001] == y).all() and (written[1001:] == s).all())
    True
    >>> encode_binary_inputs(Inputs(y[:1000], s[:1000]), path) is None
    True
    """
    labels = np.asarray(x.y_true)
    if x.y_score is None or labels.size <= RUNS_FROM or labels.dtype.kind not in "biuf":
        return None
    parts = [labels, x.y_score] + ([] if x.sample_weight is None else [x.sample_weight])
    np.concatenate([np.asarray(a, dtype="<f8") for a in parts]).tofile(path)
    out: dict[str, Any] = {
        "binary": str(path),
        "n": int(labels.size),
        "weighted": x.sample_weight is not None,
    }
    if x.params:
        out["params"] = {k: _param(v) for k, v in x.params.items()}
    return out


def parse_value(text: str) -> float:
    """A server's value string as a float: 17 significant digits (exact for every float64),
    or R's ``NaN``/``Inf``/``-Inf`` and Java's ``NaN``/``Infinity``/``-Infinity``, which
    Python's ``float`` reads as they are, or R's ``NA`` (a missing value, a NaN in float64:
    what ``MLmetrics::AUC`` returns for labels and scores of different lengths).

    Parameters
    ----------
    text : str
        The answer's ``value``.

    Returns
    -------
    float
        The value.

    Examples
    --------
    17 significant digits of 5/6 name the float64 nearest 5/6:

    >>> from prtheory.conformance.external import parse_value
    >>> parse_value("0.83333333333333337") == 5 / 6
    True
    >>> parse_value("Inf"), parse_value("-Infinity"), parse_value("NaN"), parse_value("NA")
    (inf, -inf, nan, nan)
    """
    return math.nan if text == "NA" else float(text)


@dataclass
class Server:
    """One long-lived server process: ``argv`` is started by :meth:`start` and answers
    :meth:`call` requests until :meth:`close` (or until this process exits: the server ends at
    the end of its input). ``dead`` says why the server died, once it has.

    Examples
    --------
    A server in a few lines of Python, speaking the protocol of the module docstring: it
    answers ``max`` with the largest score and rejects any other function:

    >>> import sys
    >>> import numpy as np
    >>> from prtheory.conformance.external import ExternalRejection, Server
    >>> from prtheory.conformance.metrics import Inputs
    >>> script = '''
    ... import json, sys
    ... for line in sys.stdin:
    ...     request = json.loads(line)
    ...     scores = [float(v) for v in request["inputs"]["y_score"]]
    ...     if request["fn"] == "max":
    ...         out = {"value": repr(max(scores))}
    ...     else:
    ...         out = {"error": "no function " + request["fn"], "kind": "rejected"}
    ...     print(json.dumps({"id": request["id"], **out}), flush=True)
    ... '''
    >>> server = Server([sys.executable, "-c", script], "demo")
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.25, 0.75, 0.5]))
    >>> server.call("max", x)
    0.75
    >>> try:
    ...     server.call("min", x)
    ... except ExternalRejection as exc:
    ...     print(exc)
    no function min
    >>> server.close()
    """

    argv: list[str]
    name: str
    #: long inputs go as float64 files (:func:`encode_binary_inputs`)
    binary: bool = False
    dead: str | None = None
    _proc: subprocess.Popen[str] | None = field(default=None, repr=False)
    _stderr: IO[str] | None = field(default=None, repr=False)
    _scratch: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)
    _next: int = 0

    def start(self) -> None:
        """Start the server (once; a second call does nothing, and a server that died is not
        started again: :class:`ServerDied`).

        Raises
        ------
        ServerDied
            The server has died.
        """
        if self.dead is not None:
            raise ServerDied(self.dead)
        if self._proc is not None:
            return
        # kept open while the server runs (closed by close()): where its last words go
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115
        self._proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        _RUNNING.append(self)

    def call(self, fn: str, x: Any) -> float:
        """The server's value of ``fn`` on the inputs ``x``; raises
        :class:`ExternalRejection` or :class:`ExternalCrash` as the server reports.

        Parameters
        ----------
        fn : str
            The server's function.
        x : Inputs
            Decoded inputs (sent as JSON, or as a float64 file to a binary server).

        Returns
        -------
        float
            The value.

        Raises
        ------
        ExternalRejection, ExternalCrash
            As the server reports.
        ServerDied
            The server ended, or answered out of turn.
        """
        self.start()
        assert self._proc is not None
        assert self._proc.stdin is not None
        self._next += 1
        request = {"id": self._next, "fn": fn, "inputs": self._inputs(x)}
        try:
            self._proc.stdin.write(json.dumps(request, allow_nan=False) + "\n")
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass
        return self._answer(self._read_answer())

    def _read_answer(self) -> dict[str, Any]:
        """The next JSON object the server writes. A line that is not one is what the runtime
        printed on the same stream (a JVM writes its warnings to standard output, more of them
        on a loaded machine): passed on as a warning, and the answer read from the next line."""
        assert self._proc is not None
        while True:
            try:
                line = self._proc.stdout.readline() if self._proc.stdout else ""
            except BrokenPipeError:
                line = ""
            if not line:
                self.dead = f"the {self.name} server died: {self._last_words()}"
                raise ServerDied(self.dead)
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                answer = None
            if isinstance(answer, dict):
                return answer
            noise = line.strip()[:200]
            warnings.warn(f"{self.name}: not an answer: {noise}", RuntimeWarning, stacklevel=4)

    def _inputs(self, x: Any) -> dict[str, Any]:
        """The request's ``inputs``: a float64 file for a long input to a binary server, else
        JSON."""
        if self.binary:
            if self._scratch is None:
                self._scratch = tempfile.TemporaryDirectory(prefix="prtheory-server-")
            found = encode_binary_inputs(x, Path(self._scratch.name) / "inputs.f64")
            if found is not None:
                return found
        return encode_request_inputs(x)

    def _answer(self, answer: dict[str, Any]) -> float:
        """The value of one answer, or the exception it reports."""
        if answer.get("id") != self._next:
            self.dead = f"the {self.name} server answered out of turn: {answer}"
            raise ServerDied(self.dead)
        for message in answer.get("warnings", []):
            warnings.warn(f"{self.name}: {message}", RuntimeWarning, stacklevel=3)
        if "error" in answer:
            if answer.get("kind") == "server":
                raise ServerFault(f"the {self.name} server: {answer['error']}")
            kind = ExternalRejection if answer.get("kind") == "rejected" else ExternalCrash
            raise kind(str(answer["error"]))
        return parse_value(str(answer["value"]))

    def _last_words(self) -> str:
        """The end of the server's standard error (why it stopped)."""
        if self._stderr is None:
            return "no output"
        self._stderr.seek(0)
        text = self._stderr.read().strip()
        return text[-500:] if text else "no output"

    def close(self) -> None:
        """End the server (closing its input ends its loop)."""
        _RUNNING[:] = [s for s in _RUNNING if s is not self]
        if self._proc is None:
            return
        if self._proc.stdin:
            self._proc.stdin.close()
        if self._proc.stdout:
            self._proc.stdout.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
