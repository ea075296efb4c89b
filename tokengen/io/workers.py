"""Worker processes that stop when told: the batch's process pool.

``concurrent.futures.ProcessPoolExecutor`` finishes every queued job before an exception in the
parent can end the run (Ctrl-C, SIGTERM): a 20-job batch went on for 6-12 s after Ctrl-C. Here
each worker holds one job at a time, handed out by the parent as the previous one returns, so
nothing is queued in a worker; when the parent is interrupted it sends SIGTERM to every worker,
whose handler removes the temporary files it is writing (:func:`tokengen.io.atomic.remove_live_parts`)
and ends at once, and waits for them.

Workers are started with a method every platform has: ``forkserver`` where there is one (a
server process imports the job function's module, and the modules the caller names as the job's
imports, once and forks each worker from it), else
``spawn`` (Windows, and :data:`START_METHOD` forced); never ``fork``, which Windows lacks and
which copies a parent's threads' locks. A worker therefore shares nothing with the parent but
its job function (by module and name: it must be a module-level function), its argument and
its result, all pickled. Workers ignore SIGINT (it is blocked while they start, so none arrives
before their handler is set): Ctrl-C reaches the whole process group, and the parent decides.
A worker that dies (killed, out of memory) fails its job only; a new worker takes the rest.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from . import atomic

T = TypeVar("T")
R = TypeVar("R")

#: The start method of the workers: ``forkserver`` where the platform has it, else ``spawn``.
#: Set it to ``spawn`` to run as on Windows.
START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _stop(signum: int, frame: Any) -> None:
    """A worker's SIGTERM/SIGHUP handler: remove the temporary files it is writing, then end."""
    atomic.remove_live_parts()
    os._exit(128 + signum)


def _worker(conn: Connection, fn: Callable[[Any], Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _stop)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        index, item = message
        conn.send((index, fn(item)))


class _Slot:
    """One worker process and the parent's end of its pipe (``target(child_conn, fn, *more)`` runs in it)."""

    def __init__(self, context: Any, fn: Callable[[Any], Any], target: Callable[..., None] = _worker, more: tuple[Any, ...] = ()):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=target, args=(child, fn, *more), daemon=True)
        # SIGINT blocked while the worker (or the fork server) starts: the new process inherits the
        # mask, so a Ctrl-C during its start-up is no traceback; this one receives it once unblocked
        blocking = hasattr(signal, "pthread_sigmask")
        if blocking:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process.start()
        finally:
            if blocking:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        child.close()
        self.index: int | None = None


def _context(fn: Callable[[Any], Any], preload: Sequence[str] = ()) -> Any:
    """The multiprocessing context of :data:`START_METHOD`; a fork server preloads ``fn``'s module
    and the modules named in ``preload`` (and is ended at exit, :func:`_stop_server`). A server
    already running (started by an earlier pool of this process) keeps the modules it preloaded:
    its workers import the others as they need them."""
    context = multiprocessing.get_context(START_METHOD)
    if START_METHOD == "forkserver":
        context.set_forkserver_preload(["__main__", fn.__module__, *preload])
        if not _STOP_AT_EXIT:
            _STOP_AT_EXIT.append(atexit.register(_stop_server))
    return context


def start_server(fn: Callable[[Any], Any], preload: Sequence[str] = ()) -> None:
    """Start the fork server now, for a :func:`run_pool` of ``fn`` to come: it starts Python and
    imports ``fn``'s module and ``preload`` while this process goes on (a second core's work), and
    the pool's first worker finds it ready. Nothing with ``spawn``, or when a server is running."""
    if START_METHOD == "forkserver":
        from multiprocessing import forkserver

        _context(fn, preload)
        forkserver.ensure_running()


#: Holds :func:`_stop_server` once it is registered to run at exit.
_STOP_AT_EXIT: list[Callable[[], None]] = []


def _stop_server() -> None:
    """End the fork server and wait for it, at exit. multiprocessing leaves the server to notice
    on its own that this process is gone, unwaited: its CPU time and its workers' (it waits for
    them) then never count as this process's children's (``getrusage(RUSAGE_CHILDREN)``, ``time``,
    the benchmarks' CPU ratios). Uses multiprocessing's private ``_forkserver._stop`` (Python 3.8
    on); where it is missing, nothing is done."""
    from multiprocessing import forkserver

    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        with contextlib.suppress(Exception):  # exiting anyway: never a traceback from here
            stop()


def run_pool(fn: Callable[[T], R], items: Sequence[T], indices: Sequence[int], workers: int,
             on_result: Callable[[int, R], None], on_crash: Callable[[int, str], R], preload: Sequence[str] = ()) -> None:
    """Call ``fn(items[i])`` for each ``i`` of ``indices`` in ``workers`` worker processes.

    Args:
        fn: a module-level function (pickled by name); must not raise (return an error value
            instead); its argument and result are pickled.
        on_result: called in this process with (index, result) as each call returns.
        on_crash: makes the result of a call whose worker died, from (index, reason).
        preload: modules ``fn`` imports when it runs (``"pypdfium2"``): a fork server imports
            them once, before it forks the workers, instead of every worker importing them
            (with ``spawn``, nothing: each worker imports what it uses).
    Raises:
        Whatever interrupts this process (KeyboardInterrupt, SystemExit from a signal handler):
        every worker is then sent SIGTERM and waited for before it propagates; calls not yet
        handed out never run.
    """
    context = _context(fn, preload)
    pending = list(indices)
    pending.reverse()
    slots: list[_Slot] = []
    try:
        for _ in range(min(workers, len(pending))):
            slots.append(_Slot(context, fn))
        for slot in slots:
            _hand_out(slot, items, pending)
        while any(slot.index is not None for slot in slots):
            busy = {slot.conn: slot for slot in slots if slot.index is not None}
            for ready in wait(list(busy)):
                slot = busy[ready]
                index = slot.index
                assert index is not None
                result: R
                try:
                    _, result = slot.conn.recv()
                except (EOFError, OSError):
                    slot.process.join()
                    result = on_crash(index, f"worker process ended unexpectedly (exit code {slot.process.exitcode})")
                    slots[slots.index(slot)] = slot = _Slot(context, fn)
                slot.index = None
                on_result(index, result)
                _hand_out(slot, items, pending)
    finally:
        _close(slots)


def _hand_out(slot: _Slot, items: Sequence[Any], pending: list[int]) -> None:
    if pending:
        slot.index = pending.pop()
        slot.conn.send((slot.index, items[slot.index]))
    else:
        slot.index = None


def _close(slots: list[_Slot]) -> None:
    """Stop every worker: idle ones are told to end; busy ones (an interruption) get SIGTERM."""
    for slot in slots:
        if slot.process.is_alive():
            if slot.index is None:
                try:
                    slot.conn.send(None)
                except OSError:
                    slot.process.terminate()
            else:
                slot.process.terminate()
    for slot in slots:
        slot.process.join()
        slot.conn.close()


# -- one bounded worker: a child that may die without taking the parent with it ------------------

class WorkerDied(Exception):  # noqa: N818 - not an error of tokengen's hierarchy: the caller words it
    """A :class:`Bounded` worker ended before it answered, or did not answer in time.

    Attributes:
        signal: the signal that ended it (``"SIGABRT"``), or None.
        exit_code: its exit code when it exited, or None.
        timed_out: True when it ran past the time limit (it was then killed).
        memory: True when it answered that it ran out of memory (a ``MemoryError``).
    """

    def __init__(self, *, signal: str | None = None, exit_code: int | None = None, timed_out: bool = False, memory: bool = False):
        super().__init__(signal or exit_code or ("timed out" if timed_out else "out of memory"))
        self.signal, self.exit_code, self.timed_out, self.memory = signal, exit_code, timed_out, memory


def _bounded_worker(conn: Connection, fn: Callable[[Any], Any], memory: int | None) -> None:
    if memory is not None:
        try:
            import resource
        except ImportError:  # Windows: no such limit
            pass
        else:
            _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
            resource.setrlimit(resource.RLIMIT_DATA, (memory if hard == resource.RLIM_INFINITY else min(memory, hard), hard))
    _worker(conn, fn)


class Bounded:
    """One worker process (started as :data:`START_METHOD` says, never by ``fork`` alone) whose
    data memory is limited to ``memory`` bytes (``RLIMIT_DATA``: the heap and private writable
    mappings, enforced by Linux 4.7 and later; not ``RLIMIT_AS``, since pdfium builds that use
    PartitionAlloc reserve about 32 GiB of address space when loaded, pypdfium2 4.18 among them), called
    one job at a time by :meth:`call`, each within ``seconds`` of wall-clock time. A context manager:
    the worker ends on leaving it.

    ``fn`` is a module-level function (pickled by name) that must not raise; a ``MemoryError`` it
    catches should be returned as the value :data:`OUT_OF_MEMORY` so :meth:`call` reports it.
    """

    def __init__(self, fn: Callable[[Any], Any], memory: int | None, seconds: float | None):
        self.seconds = seconds
        self.slot = _Slot(_context(fn), fn, _bounded_worker, (memory,))

    def call(self, item: Any) -> Any:
        """``fn(item)`` in the worker.

        Raises:
            WorkerDied: the worker ended (killed, aborted, out of memory) or ran past ``seconds``
                (it is then killed); the worker cannot be called again.
        """
        slot = self.slot
        try:
            slot.conn.send((0, item))
            if not slot.conn.poll(self.seconds):
                slot.process.kill()
                slot.process.join()
                raise WorkerDied(timed_out=True)
            _, result = slot.conn.recv()
        except (EOFError, OSError):
            slot.process.join()
            code = slot.process.exitcode
            name = None
            if code is not None and code < 0:
                try:
                    name = signal.Signals(-code).name
                except ValueError:
                    name = f"signal {-code}"
            raise WorkerDied(signal=name, exit_code=None if name else code) from None
        if isinstance(result, str) and result == OUT_OF_MEMORY:
            raise WorkerDied(memory=True)
        return result

    def close(self) -> None:
        """End the worker (told to stop when idle, else killed) and wait for it."""
        _close([self.slot])

    def __enter__(self) -> Bounded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: What a :class:`Bounded` worker's function returns when it ran out of memory.
OUT_OF_MEMORY = "tokengen.workers: out of memory"
