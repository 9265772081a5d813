# Shared by ./run and ./test (sourced, not run): make .venv and keep it in step with a
# requirements file. Usage: ensure_venv requirements.txt

# Django 6 needs Python >= 3.12; the machine's default python3 may be older.
find_python() {
  local candidate
  for candidate in python3.13 python3.12 /root/.pyenv/versions/3.1[23]*/bin/python3.1[23] python3; do
    # pyenv shims exist for versions that are not active and fail when run, so run each one.
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

ensure_venv() {
  local requirements=$1
  if [ ! -x .venv/bin/python ]; then
    local python
    if ! python=$(find_python); then
      echo "error: no Python >= 3.12 found (tried python3.13, python3.12, pyenv's, python3)." >&2
      echo "Install Python 3.12 or newer and put it on PATH." >&2
      exit 1
    fi
    echo "Creating .venv with $python ($("$python" --version))"
    "$python" -m venv .venv
  elif ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
    echo "error: .venv has $(.venv/bin/python --version); Django 6 needs 3.12 or newer." >&2
    echo "Remove it (rm -rf .venv) and run this again." >&2
    exit 1
  fi

  # Install only when the requirements changed since the last install. Every file includes
  # requirements.txt (requirements-dev.txt with -r), so hash it together with the one asked for.
  local stamp=".venv/.installed-$requirements" digest
  digest=$(cat requirements.txt "$requirements" | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
    echo "Installing $requirements into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$digest" >"$stamp"
  fi
}
