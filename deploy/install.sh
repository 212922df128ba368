#!/bin/sh
# Install paperclub from the source tree SRC into a new virtual environment VENV, with the
# bundled catalog (package data), and check that it starts. The Dockerfile's build stage runs
# it; tests/test_container.py runs it too, in a fresh venv, since no Docker engine runs there.
#
#     deploy/install.sh SRC VENV
set -eu
src=$1
venv=$2
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$src"
"$venv/bin/paperclub" --version
test -s "$("$venv/bin/python" -c 'from bot.settings import bundled_catalog; print(bundled_catalog())')"
