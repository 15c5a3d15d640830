"""Fault injection: options that cannot mean anything and adapter paths that are not files.
A timeout of 1e308 seconds overflows the platform's clock; an empty ``--as`` or ``--impl``
(an unset shell variable) would silently change what is checked. (Declared names, versions
and timeouts: ``test_faulty_adapters.py``.)"""

from __future__ import annotations

import pytest

from .common import GOOD, cli


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--timeout", "1e308"], "argument --timeout: must be at most 604,800"),
        (["--as", ""], "argument --as: must not be empty"),
        (["--impl", ""], "argument --impl: must not be empty"),
    ],
)
def test_an_option_that_cannot_mean_anything_is_a_usage_error(capsys, argv, says):
    with pytest.raises(SystemExit) as info:
        cli(capsys, "run", "--impl", GOOD, *argv)
    assert info.value.code == 2
    assert says in capsys.readouterr().err


def test_an_adapter_file_that_is_a_folder_is_named_as_such(capsys, tmp_path):
    folder = tmp_path / "adapter.yaml"
    folder.mkdir()
    status, _, err = cli(capsys, "run", "--impl", str(folder))
    assert status == 2  # bad usage, found before any case runs
    assert f"adapter file {folder}: not a regular file" in err
