"""The top-level command: ``prtheory --version`` reports the installed distribution's version."""

import importlib.metadata
from pathlib import Path

import pytest

import prtheory.conformance
import prtheory.conformance.adapters
from prtheory.cli import main


def test_version_flag_matches_the_installed_distribution(capsys):
    try:
        installed = importlib.metadata.version("prtheory")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("prtheory is not installed (run from a source tree); the README installs it")
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"prtheory {installed}"


# ---------------------------------------------------------------------------------------------
# --help of every command: a description, examples, valid names; and the writers refuse to write
# outside a checkout without --root


@pytest.mark.parametrize(
    "command", ["verify", "proofs", "tables", "figures", "audit", "conformance"]
)
def test_help_has_a_description_and_examples(command, capsys):
    from prtheory.cli import main

    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text
    assert f"prtheory {command} " in text.split("examples:")[1]
    description = text.split("\n\n")[1]
    assert len(description.split()) >= 8, description


def test_verify_help_names_the_claim_ids(capsys):
    from prtheory.cli import main

    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    text = capsys.readouterr().out
    for prefix in ("B1", "F1", "N1", "G1", "X1"):
        assert prefix in text


def test_conformance_help_names_every_library_and_metric(capsys):
    from prtheory.cli import main

    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    text = capsys.readouterr().out
    libraries = text.split("libraries (--libraries):")[1].split("metrics (--metrics):")[0]
    metrics = text.split("metrics (--metrics):")[1]
    # the names, read independently of the CLI: the adapter modules and the vector files
    adapters_dir = Path(prtheory.conformance.adapters.__file__).parent
    adapters = {p.stem.removesuffix("_adapter") for p in adapters_dir.glob("*_adapter.py")}
    vectors_dir = Path(prtheory.conformance.__file__).parent / "vectors"
    vectors = {p.stem for p in vectors_dir.glob("*.json")} - {"schema", "tcids", "generated"}
    assert {n.strip() for n in libraries.replace("\n", " ").split(",")} >= adapters
    assert {n.strip() for n in metrics.replace("\n", " ").split(",")} == vectors


@pytest.mark.parametrize("command", ["tables", "figures", "proofs"])
def test_writers_refuse_outside_a_checkout(command, tmp_path, monkeypatch, capsys):
    from prtheory.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([command]) == 2
    assert "--root" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_tables_write_under_an_explicit_root_and_in_a_checkout(tmp_path, monkeypatch):
    from prtheory.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["tables", "--root", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "reports" / "boyd2012.md").is_file()
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "prtheory"\n')
    monkeypatch.chdir(checkout)
    assert main(["tables"]) == 0
    assert (checkout / "reports" / "boyd2012.md").is_file()
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[project]\nname = "prtheory-fork"\n')
    monkeypatch.chdir(other)
    assert main(["tables"]) == 2
