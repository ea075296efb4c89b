"""The worker pool (tokengen.io.workers): a fork server and its workers end with the process that
started them and are waited for, so their CPU time counts as that process's children's."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tokengen.io import workers

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import resource, sys
from tokengen.io import workers
got = []
workers.run_pool(sum, [range(30_000_000)], [0], 1, lambda i, r: got.append(r), lambda i, why: None)
assert got == [sum(range(30_000_000))], got
me = resource.getrusage(resource.RUSAGE_SELF)
print(me.ru_utime + me.ru_stime)
"""


@pytest.mark.skipif(workers.START_METHOD != "forkserver", reason="spawn's workers are this process's own children")
def test_the_fork_server_and_its_workers_are_waited_for_at_exit(tmp_path: Path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = float(done.stdout)  # the parent's own CPU: it only waits for the sum
    children = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) - own
    assert children > 0.2, (own, children)  # the worker's sum of 30 million numbers, counted


def test_a_pool_after_its_server_was_started_beforehand_gives_every_result():
    workers.start_server(sum)  # started now (or already running): the pool finds it
    got: dict[int, int] = {}
    workers.run_pool(sum, [range(10), range(100)], [0, 1], 2, got.__setitem__, lambda i, why: -1)
    assert got == {0: 45, 1: 4950}
