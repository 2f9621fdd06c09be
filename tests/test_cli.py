"""The top-level command: ``prtheory --version`` reports the installed distribution's version."""

import importlib.metadata

import pytest

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
