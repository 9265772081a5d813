"""`manage.py engine`: the pure rules engine on the command line, exactly as ENGINE.md says.

Bad input exits 2 with one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand

from campaigns import jsoncodec
from campaigns.engine import EngineError, resolve, roll_faces, spawn_consume
from campaigns.engine import bench as engine_bench
from campaigns.engine.dice import check_seed


class BadInput(Exception):
    pass


def sizes_list(text: str) -> tuple[int, ...]:
    """--sizes 1000,10000: whole numbers from 10 to 1,000,000."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("sizes must be whole numbers, e.g. 1000,10000") from None
    if not sizes or not all(10 <= size <= 1_000_000 for size in sizes):
        raise argparse.ArgumentTypeError("each size must be from 10 to 1000000")
    return sizes


class OneLineParser(argparse.ArgumentParser):
    """argparse prints usage and several lines on an error; ENGINE.md wants one line."""

    def error(self, message: str) -> NoReturn:
        raise BadInput(message)


def read_state(path: str) -> dict[str, Any]:
    """The state in the file (- for standard input), read as bytes and parsed in one step."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror}") from None
    try:
        state = jsoncodec.loads_utf8(data)
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise BadInput(f"{path}: malformed JSON: {error}") from None
    if not isinstance(state, dict):
        raise BadInput(f"{path}: the state must be a JSON object")
    return state


class Command(BaseCommand):
    help = "The rules engine: spawn-consume FILE | resolve FILE | roll --seed --key --dice | bench"
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def create_parser(
        self, prog_name: str, subcommand: str, **kwargs: Any
    ) -> argparse.ArgumentParser:
        parser = OneLineParser(prog=f"{prog_name} {subcommand}", description=self.help)
        commands = parser.add_subparsers(dest="action", required=True, parser_class=OneLineParser)
        for action in ("spawn-consume", "resolve"):
            commands.add_parser(action).add_argument("file", help="state JSON, or - for stdin")
        roll = commands.add_parser("roll")
        roll.add_argument("--seed", required=True)
        roll.add_argument("--key", required=True)
        roll.add_argument("--dice", required=True, type=int)
        roll.add_argument("--sides", type=int, default=10)
        bench = commands.add_parser("bench")
        bench.add_argument("--runs", type=int, default=5)
        bench.add_argument(
            "--sizes",
            type=sizes_list,
            default=(1_000, 10_000),
            help="board sizes, comma-separated (default 1000,10000)",
        )
        return parser

    def run_from_argv(self, argv: list[str]) -> None:
        """As manage.py runs it: the output written as bytes, then the process ends at once.

        The cyclic collector is off for the engine's whole call (it would scan the parsed state's
        many dicts again and again while they are built, and find nothing: JSON holds no
        cycles), and on success the process exits without freeing the state, the board and
        the output one object at a time: on a board of 20,000 departments those two steps
        were a fifth of the command's time. Nothing is left to flush or close: the command
        opens no database connection and writes nothing else."""
        try:
            options = vars(self.create_parser(argv[0], argv[1]).parse_args(argv[2:]))
            if options["action"] in ("spawn-consume", "resolve"):
                gc.disable()
            output = self.output(options)
        except (BadInput, EngineError) as error:
            sys.stderr.write(f"error: {' '.join(str(error).split())}\n")
            sys.exit(2)
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.buffer.write(b"\n")  # written apart: appending would copy the output
        sys.stdout.buffer.flush()
        sys.stderr.flush()
        os._exit(0)

    def handle(self, *args: Any, **options: Any) -> str:
        """Called by call_command (tests); errors propagate as exceptions there."""
        return self.output(options).decode("utf-8")

    def output(self, options: dict[str, Any]) -> bytes:
        """What the command prints, as UTF-8 bytes (the engine's JSON is ASCII)."""
        action = options["action"]
        if action == "bench":
            lines = engine_bench.run(sizes=options["sizes"], runs=options["runs"])
            return "\n".join(lines).encode("utf-8")
        if action == "roll":
            seed, dice, sides = options["seed"], options["dice"], options.get("sides", 10)
            check_seed(seed)
            if dice < 0 or sides < 1:
                raise BadInput("--dice must be >= 0 and --sides >= 1")
            result = {"key": options["key"], "faces": roll_faces(seed, options["key"], dice, sides)}
            return json.dumps(result, sort_keys=True, indent=2).encode("utf-8")
        state = read_state(options["file"])
        result = spawn_consume(state) if action == "spawn-consume" else resolve(state)
        # Kept: run_from_argv ends the process without freeing them (see there).
        self.kept = (state, result)
        # The engine writes departments, links and reports from what it parsed (whole
        # numbers, strings); only what it echoes unparsed can hold a float.
        echoed = [state.get(key) for key in ("turn", "seed", "alignments", "orders")]
        return jsoncodec.dumps_engine_bytes(result, may_hold_floats=echoed)
