"""`manage.py engine` as ENGINE.md says: JSON out with sorted keys and two-space indent; bad
input exits 2 with one line on standard error and never a traceback."""

import json
from pathlib import Path

import pytest

from tests.support.engine_cli import engine

ROOT = Path(__file__).resolve().parents[2]
SEED = "ab" * 32
STATE = {
    "turn": 1,
    "seed": SEED,
    "departments": [
        {"slug": "mint", "produces": {"type": "money", "amount": 2}, "structure": "alice"},
        {"slug": "watch", "consumes": {"type": "money", "amount": 1}, "structure": "alice"},
    ],
    "links": [{"from": "mint", "to": "watch"}],
    "orders": [],
}


def test_spawn_consume_reads_stdin_and_prints_sorted_json() -> None:
    result = engine("spawn-consume", "-", stdin=json.dumps(STATE))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert result.stdout.strip() == json.dumps(output, sort_keys=True, indent=2)
    assert output["report"]["departments"]["watch"]["status"] == "funded"
    assert output["departments"][0]["stash"] == {"money": 1, "people": 0, "authority": 0}


def test_resolve_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    orders = [{"id": "o1", "player": "alice", "kind": "fly"}]
    path.write_text(json.dumps({**STATE, "orders": orders}))
    result = engine("resolve", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["report"]["orders"]["o1"]["status"] == "rejected"


def test_roll_prints_the_r23_faces() -> None:
    result = engine("roll", "--seed", SEED, "--key", "1:o1:attack", "--dice", "4")
    from campaigns.engine import roll_faces

    assert json.loads(result.stdout) == {
        "key": "1:o1:attack",
        "faces": roll_faces(SEED, "1:o1:attack", 4),
    }


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("resolve", "-"), "{not json", "malformed JSON"),
        (("resolve", "/no/such/file.json"), "", "cannot read"),
        (("resolve", "-"), json.dumps({**STATE, "seed": "xyz"}), "seed"),
        (
            ("spawn-consume", "-"),
            json.dumps({**STATE, "links": [{"from": "mint", "to": "x"}]}),
            "x",
        ),
        (("spawn-consume", "-"), "[1, 2]", "JSON object"),
        (("roll", "--seed", SEED, "--key", "k", "--dice", "many"), "", "--dice"),
        (("fly",), "", "invalid choice"),
        ((), "", "required"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], stdin: str, message: str) -> None:
    result = engine(*args, stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.stderr


def test_bench_prints_the_figures_for_the_sizes_asked() -> None:
    result = engine("bench", "--runs", "1", "--sizes", "40,80")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["spawn-consume", "40"],
        ["spawn-consume", "80"],
        ["resolve", "40"],
        ["resolve", "80"],
    ]
    assert all("lines run per department" in line for line in lines[:2])


@pytest.mark.parametrize("sizes", ["x", "5", "1000,,2000", ""])
def test_bench_refuses_bad_sizes_in_one_line(sizes: str) -> None:
    result = engine("bench", "--sizes", sizes)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error:")
