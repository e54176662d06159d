"""Bad input to any command is one line on stderr and a non-zero exit code — never a
traceback — and every option explains itself."""

from __future__ import annotations

import argparse
import json
import os
import stat
from pathlib import Path

import pytest

from tavola.cli import main as cli
from tavola.cli.errors import CliError
from tavola.cli.gameinfo import check_options, check_players, find, local_games

NOWHERE = "127.0.0.1:9"  # nothing listens on the discard port


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exit_:  # argparse's own exits (help, usage errors)
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(autouse=True)
def private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TAVOLA_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("TAVOLA_GRPC_ADDRESS", raising=False)
    monkeypatch.delenv("TAVOLA_LOCALE", raising=False)
    return tmp_path


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "is empty"),
        (b"\xff\xfe\x00\x81binary\x00", "not text"),
        (b'{"format": "tavola-match-record/1", "events": [{"streamId": "m', "cut short"),
        (b'{"format": "something-else/9"}', "something-else/9"),
        (b'{"format": "tavola-match-record/1"}', "no events"),
        (b"[1, 2, 3]", "not a match record"),
    ],
)
def test_verify_file_that_is_not_a_record_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, says: str
) -> None:
    record = tmp_path / "m.json"
    record.write_bytes(content)
    code, out, err = run(capsys, "verify", "--file", str(record))
    assert code == 2
    assert says in one_line(err)
    assert out == ""


def test_verify_file_missing_or_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "verify", "--file", str(tmp_path / "absent.json"))
    assert code == 2 and "no file" in one_line(err)
    code, _, err = run(capsys, "verify", "--file", str(tmp_path))
    assert code == 2 and "folder" in one_line(err)


def test_verify_without_a_match_says_what_it_needs(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify")
    assert code == 2
    assert "--file" in one_line(err) and "MATCH_ID" in err


def test_an_option_without_a_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "fan-tan", "--option", "hands")
    assert code == 2
    line = one_line(err)
    assert "NAME=VALUE" in line and "'hands'" in line


def test_play_without_a_game_or_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--address", NOWHERE)
    assert code == 2
    assert "tavola games" in one_line(err)


def test_a_platform_that_does_not_answer_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["demo", "spades"], ["play", "fan-tan"], ["export", "x"]):
        code, _, err = run(capsys, *command, "--address", NOWHERE)
        assert code == 1
        assert "tavola up" in one_line(err), command


def test_coming_back_to_an_unknown_match_names_tavola_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "play", "--match", "5f0c", "--address", NOWHERE)
    assert code == 1
    assert "tavola matches" in one_line(err)


def test_errors_speak_portuguese_with_locale_pt(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify", "--locale", "pt")
    assert code == 2 and "dê o identificador" in one_line(err)
    code, _, err = run(capsys, "play", "spades", "--option", "x", "--locale", "pt")
    assert code == 2 and "NOME=VALOR" in one_line(err)


def test_unknown_preset_option_value_and_player_count_list_what_is_valid() -> None:
    games = local_games("en")
    doko = find(games, "doppelkopf", "en")
    with pytest.raises(CliError, match="Unknown preset pub: valid presets are official, tavern"):
        check_options(doko, {"preset": "pub"}, "en")
    with pytest.raises(CliError, match="Unknown preset x: spades has no presets"):
        check_options(find(games, "spades", "en"), {"preset": "x"}, "en")
    with pytest.raises(CliError, match="unknown option nines for doppelkopf: valid options are"):
        check_options(doko, {"nines": "1"}, "en")
    with pytest.raises(CliError, match="'forty' is not a value of hands: valid values are 0…100"):
        check_options(find(games, "fan-tan", "en"), {"hands": "forty"}, "en")
    with pytest.raises(CliError, match=r"^spades is played by 4 players$"):
        check_players(find(games, "spades", "en"), 3, "en")
    with pytest.raises(CliError, match="unknown game chess: valid games are fan-tan, spades"):
        find(games, "chess", "en")


def test_games_lists_options_defaults_meanings_and_presets_without_a_platform(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games", "--address", NOWHERE)
    assert code == 0
    assert "no platform answers" in out
    for text in (
        "fan-tan",
        "3 to 7 players",
        "lowest score wins",
        "penalty",
        "per_card",
        "default per_card",
        "house rule",
        "presets",
        "tavern",
        "4 players",
    ):
        assert text in out, text
    code, out, _ = run(capsys, "games", "doppelkopf", "--address", NOWHERE, "--locale", "pt")
    assert code == 0 and "predefinições" in out and "spades" not in out


@pytest.mark.parametrize("locale", ["en", "pt"])
def test_every_option_of_every_command_has_help(locale: str) -> None:
    parser = cli.parser(locale)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    mine = ("up", "games", "demo", "play", "matches", "replay", "verify", "export")
    for name in mine:
        for action in commands.choices[name]._actions:
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)


def test_play_and_demo_take_a_mode() -> None:
    args = cli.parser().parse_args(["play", "dominoes", "--mode", "draw"])
    assert args.mode == "draw"
    args = cli.parser().parse_args(["demo", "dominoes", "--mode", "block"])
    assert args.mode == "block"


def test_the_match_file_is_private_and_keyed_by_platform(private_state: Path) -> None:
    from tavola.cli import matchbook
    from tavola.cli.matchbook import Kept

    matchbook.remember("a:1", Kept("5f0c2a9e-0000", "spades", 0, "secret", "t1"))
    matchbook.remember("b:2", Kept("77aa0000-1111", "barbu", 0, "other"))
    path = private_state / "state" / "matches.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert set(json.loads(path.read_text())["platforms"]) == {"a:1", "b:2"}
    assert [k.seat_token for k in matchbook.find("a:1", "5f0c")] == ["secret"]
    assert matchbook.find("b:2", "5f0c") == []
    matchbook.mark("a:1", "5f0c2a9e-0000", "left")
    assert matchbook.matches("a:1")[0].status == "left"


def test_a_damaged_match_file_is_one_line(
    capsys: pytest.CaptureFixture[str], private_state: Path
) -> None:
    folder = private_state / "state"
    folder.mkdir()
    (folder / "matches.json").write_text("{not json")
    code, _, err = run(capsys, "matches", "--address", NOWHERE)
    assert code == 1 and "matches.json" in one_line(err)
