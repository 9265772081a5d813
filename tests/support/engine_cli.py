"""Running `manage.py engine` in a subprocess, for the engine's command-line tests."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # manage.py's folder


def engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "engine", *args],
        cwd=ROOT,
        input=stdin,
        env={"PATH": os.environ.get("PATH", "")},  # nothing configured, as other tools call it
        capture_output=True,
        text=True,
        timeout=60,
    )


def run(command: str, state: dict[str, Any]) -> dict[str, Any]:
    """`command` on `state` from standard input: exit 0, sorted JSON with two-space indent."""
    result = engine(command, "-", stdin=json.dumps(state))
    assert result.returncode == 0, result.stderr
    output: dict[str, Any] = json.loads(result.stdout)
    assert result.stdout.strip() == json.dumps(output, sort_keys=True, indent=2)
    return output
