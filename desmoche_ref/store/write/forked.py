"""A generator run in a child process, its items read in this one: the importer judges
hands in a child while this process writes them, so that both cores work (threads do not
help: judging holds the GIL).

The child is forked, so it starts at once with every module already imported; it touches
nothing of the parent's but the pipe it writes (it never uses the book's connections, and
leaves by os._exit, as multiprocessing's forked children do, so nothing of the parent's is
closed or flushed twice). Where fork is not available the generator simply runs here.

The child can also be told one value after it started (`inbox`): the importer forks its
judging child before it has connected to the book, and tells it the recorder's name (which
every stored move's hash holds) once it has.
"""

import multiprocessing

_ITEM, _ERROR, _DONE = 0, 1, 2


def forked(produce, *args, inbox: bool = False):
    """The items of `produce(*args)`, computed in a child forked now (before the caller
    starts any thread of its own: forking a process with threads is unsafe), or in this
    process where fork is not available. Iterate the result to the end or close it: an
    exception in the child is raised here; the child goes when the reading stops (finished,
    failed or abandoned), and dies with this process.

    With `inbox`, `produce` is called with an Inbox first, for the one value the child is
    told later, and the result is (items, the Connection to send it on): send it before
    reading, then close the Connection (closed untold, the child's Inbox reads EOFError)."""
    receiving = sending = None
    if inbox:
        receiving, sending = multiprocessing.Pipe(duplex=False)
        args = (Inbox(receiving),) + args
    if "fork" not in multiprocessing.get_all_start_methods():
        items = produce(*args)  # runs here as it is read: after the telling
    else:
        context = multiprocessing.get_context("fork")
        reader, writer = context.Pipe(duplex=False)
        child = context.Process(target=_run, args=(writer, reader, produce, args, sending), daemon=True,
                                name="desmoche-ref-judge")
        child.start()
        writer.close()  # ours: so that a child that dies leaves the pipe at its end (EOFError)
        if receiving is not None:
            receiving.close()  # the child's
        items = _read(child, reader)
    if sending is None:
        return items
    return items, sending


class Inbox:
    """The value a forked child is told after it started (forked's `inbox`)."""

    def __init__(self, connection):
        self._connection = connection

    def ready(self) -> bool:
        """It has come (reading it will not wait)."""
        return self._connection.poll()

    def read(self):
        """It, once it comes. EOFError if the parent ended without telling: nothing will."""
        try:
            return self._connection.recv()
        finally:
            self._connection.close()


def _read(child, reader):
    try:
        while True:
            try:
                kind, value = reader.recv()
            except EOFError:
                child.join(5)  # it has closed the pipe: it is ending, reap it for its exit code
                raise ChildGone(child.exitcode) from None
            if kind == _DONE:
                return
            if kind == _ERROR:
                raise value
            yield value
    finally:
        reader.close()
        if child.is_alive():
            child.terminate()
        child.join()


class ChildGone(RuntimeError):
    """The child ended without finishing (killed from outside): its exit code."""

    def __init__(self, exitcode):
        super().__init__(f"the child process ended unexpectedly (exit {exitcode})")
        self.exitcode = exitcode


def _run(writer, reader, produce, args, sending=None):
    reader.close()
    if sending is not None:
        sending.close()  # the parent's: when it ends, untold, the Inbox's read sees the end
    try:
        try:
            for item in produce(*args):
                writer.send((_ITEM, item))
        except (BrokenPipeError, KeyboardInterrupt):
            return  # the parent stopped reading, or the person stopped both of us
        except BaseException as e:  # noqa: BLE001 - sent to the parent, which raises it
            writer.send((_ERROR, _sendable(e)))
            return
        writer.send((_DONE, None))
    except (BrokenPipeError, OSError):
        pass
    finally:
        writer.close()


def _sendable(e: BaseException) -> BaseException:
    """`e` if it survives pickling, else a RuntimeError naming it."""
    import pickle

    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:  # noqa: BLE001 - any pickling failure
        return RuntimeError(f"{type(e).__name__}: {e}")


__all__ = ["forked", "ChildGone", "Inbox"]
