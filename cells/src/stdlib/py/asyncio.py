"""asyncio, as the lab has it: one event loop that runs coroutines as CPython 3.11's does.

`run`, tasks (`create_task`, `ensure_future`, cancelling), futures, `sleep`, `gather`, `wait`,
`wait_for`, `as_completed`, `Queue`, `Event`, `Lock`, `Semaphore`. Callbacks run in the order
CPython's loop runs them (each step of a task is one callback, a future's done-callbacks are
scheduled when it completes), so interleavings print as in CPython. While no callback is ready
the loop sleeps until its next timer; a loop with neither (every task waiting on a future that
nothing will complete, where CPython would wait forever) raises instead of hanging the cell.
"""

import collections as _collections
import time as _time
import _lab

__all__ = [
    "run", "sleep", "gather", "wait", "wait_for", "as_completed", "create_task", "ensure_future",
    "get_event_loop", "get_running_loop", "new_event_loop", "set_event_loop", "current_task",
    "all_tasks", "iscoroutine", "iscoroutinefunction", "shield", "Future", "Task", "Queue",
    "Event", "Lock", "Semaphore", "CancelledError", "TimeoutError", "InvalidStateError",
    "QueueEmpty", "QueueFull", "FIRST_COMPLETED", "FIRST_EXCEPTION", "ALL_COMPLETED",
]

FIRST_COMPLETED = "FIRST_COMPLETED"
FIRST_EXCEPTION = "FIRST_EXCEPTION"
ALL_COMPLETED = "ALL_COMPLETED"


class CancelledError(BaseException):
    """The operation was cancelled."""


class InvalidStateError(Exception):
    """Invalid internal state of a Future or Task."""


class QueueEmpty(Exception):
    """Raised when Queue.get_nowait() is called on an empty Queue."""


class QueueFull(Exception):
    """Raised when Queue.put_nowait() is called on a full Queue."""


# Since Python 3.11, asyncio's TimeoutError is the built-in one.
TimeoutError = TimeoutError


def iscoroutine(obj):
    return _lab.is_coroutine(obj)


def iscoroutinefunction(func):
    return _lab.is_coroutine_function(func)


# --- the event loop -----------------------------------------------------------------------------

class _State:
    """The module's mutable state (module functions here do not rebind globals)."""

    running_loop = None
    event_loop = None
    task_count = 0
    current_tasks = {}


class Handle:
    def __init__(self, callback, args, loop):
        self._callback = callback
        self._args = args
        self._loop = loop
        self._cancelled = False

    def cancel(self):
        self._cancelled = True

    def cancelled(self):
        return self._cancelled

    def _run(self):
        self._callback(*self._args)


class TimerHandle(Handle):
    def __init__(self, when, callback, args, loop):
        super().__init__(callback, args, loop)
        self._when = when

    def when(self):
        return self._when


class AbstractEventLoop:
    pass


class BaseEventLoop(AbstractEventLoop):
    def __init__(self):
        self._ready = _collections.deque()
        self._scheduled = []
        self._timer_count = 0
        self._stopping = False
        self._closed = False
        self._tasks = []

    def __repr__(self):
        return f"<_UnixSelectorEventLoop running={self.is_running()} closed={self._closed} debug=False>"

    def time(self):
        return _time.monotonic()

    def is_running(self):
        return _State.running_loop is self

    def is_closed(self):
        return self._closed

    def close(self):
        if self.is_running():
            raise RuntimeError("Cannot close a running event loop")
        self._closed = True
        self._ready.clear()
        self._scheduled = []

    def _check_closed(self):
        if self._closed:
            raise RuntimeError("Event loop is closed")

    def call_soon(self, callback, *args, context=None):
        self._check_closed()
        handle = Handle(callback, args, self)
        self._ready.append(handle)
        return handle

    def call_later(self, delay, callback, *args, context=None):
        return self.call_at(self.time() + delay, callback, *args)

    def call_at(self, when, callback, *args, context=None):
        self._check_closed()
        handle = TimerHandle(when, callback, args, self)
        self._timer_count += 1
        self._scheduled.append((when, self._timer_count, handle))
        self._scheduled.sort()
        return handle

    def create_future(self):
        return Future(loop=self)

    def create_task(self, coro, *, name=None, context=None):
        self._check_closed()
        task = Task(coro, loop=self, name=name)
        return task

    def stop(self):
        self._stopping = True

    def run_forever(self):
        self._check_closed()
        if self.is_running():
            raise RuntimeError("This event loop is already running")
        if _State.running_loop is not None:
            raise RuntimeError("Cannot run the event loop while another loop is running")
        _State.running_loop = self
        try:
            while True:
                self._run_once()
                if self._stopping:
                    break
        finally:
            self._stopping = False
            _State.running_loop = None

    def run_until_complete(self, future):
        self._check_closed()
        new_task = not isfuture(future)
        future = ensure_future(future, loop=self)
        future.add_done_callback(_run_until_complete_cb)
        try:
            self.run_forever()
        except BaseException:
            if new_task and future.done() and not future.cancelled():
                future.exception()
            raise
        finally:
            future.remove_done_callback(_run_until_complete_cb)
        if not future.done():
            raise RuntimeError("Event loop stopped before Future completed.")
        return future.result()

    def _run_once(self):
        self._scheduled = [timer for timer in self._scheduled if not timer[2]._cancelled]
        if not self._ready and not self._stopping:
            if not self._scheduled:
                raise RuntimeError(
                    "the event loop has nothing left to run: every task waits on a future that "
                    "nothing will complete (CPython would wait here forever)"
                )
            delay = self._scheduled[0][0] - self.time()
            if delay > 0:
                _time.sleep(delay)
        end = self.time()
        while self._scheduled:
            when, _, handle = self._scheduled[0]
            if when > end:
                break
            self._scheduled.pop(0)
            self._ready.append(handle)
        for _ in range(len(self._ready)):
            handle = self._ready.popleft()
            if not handle._cancelled:
                handle._run()

    def get_debug(self):
        return False

    def set_debug(self, enabled):
        pass


def _run_until_complete_cb(fut):
    fut.get_loop().stop()


def new_event_loop():
    return BaseEventLoop()


def set_event_loop(loop):
    _State.event_loop = loop


def get_running_loop():
    if _State.running_loop is None:
        raise RuntimeError("no running event loop")
    return _State.running_loop


def get_event_loop():
    if _State.running_loop is not None:
        return _State.running_loop
    if _State.event_loop is None or _State.event_loop.is_closed():
        _State.event_loop = new_event_loop()
    return _State.event_loop


def _get_loop(loop=None):
    if loop is not None:
        return loop
    return get_event_loop()


# --- futures and tasks --------------------------------------------------------------------------

_PENDING = "PENDING"
_CANCELLED = "CANCELLED"
_FINISHED = "FINISHED"


def isfuture(obj):
    return getattr(obj, "_asyncio_future_blocking", None) is not None


class Future:
    _asyncio_future_blocking = False

    def __init__(self, *, loop=None):
        self._loop = _get_loop(loop)
        self._state = _PENDING
        self._result = None
        self._exception = None
        self._callbacks = []
        self._cancel_message = None

    def __repr__(self):
        return f"<{type(self).__name__} {self._state_text()}>"

    def _state_text(self):
        if self._state == _FINISHED:
            if self._exception is not None:
                return f"finished exception={self._exception!r}"
            return f"finished result={self._result!r}"
        return self._state.lower()

    def get_loop(self):
        return self._loop

    def cancel(self, msg=None):
        if self._state != _PENDING:
            return False
        self._state = _CANCELLED
        self._cancel_message = msg
        self._schedule_callbacks()
        return True

    def _schedule_callbacks(self):
        callbacks = self._callbacks[:]
        self._callbacks[:] = []
        for callback in callbacks:
            self._loop.call_soon(callback, self)

    def cancelled(self):
        return self._state == _CANCELLED

    def done(self):
        return self._state != _PENDING

    def _make_cancelled_error(self):
        if self._cancel_message is None:
            return CancelledError()
        return CancelledError(self._cancel_message)

    def result(self):
        if self._state == _CANCELLED:
            raise self._make_cancelled_error()
        if self._state != _FINISHED:
            raise InvalidStateError("Result is not set.")
        if self._exception is not None:
            raise self._exception
        return self._result

    def exception(self):
        if self._state == _CANCELLED:
            raise self._make_cancelled_error()
        if self._state != _FINISHED:
            raise InvalidStateError("Exception is not set.")
        return self._exception

    def add_done_callback(self, fn, *, context=None):
        if self._state != _PENDING:
            self._loop.call_soon(fn, self)
        else:
            self._callbacks.append(fn)

    def remove_done_callback(self, fn):
        kept = [f for f in self._callbacks if f != fn]
        removed = len(self._callbacks) - len(kept)
        self._callbacks[:] = kept
        return removed

    def set_result(self, result):
        if self._state != _PENDING:
            raise InvalidStateError(f"{self._state}: {self!r}")
        self._result = result
        self._state = _FINISHED
        self._schedule_callbacks()

    def set_exception(self, exception):
        if self._state != _PENDING:
            raise InvalidStateError(f"{self._state}: {self!r}")
        if isinstance(exception, type):
            exception = exception()
        if type(exception) is StopIteration:
            raise TypeError("StopIteration interacts badly with generators and cannot be raised into a Future")
        self._exception = exception
        self._state = _FINISHED
        self._schedule_callbacks()

    def __await__(self):
        if not self.done():
            self._asyncio_future_blocking = True
            yield self
        if not self.done():
            raise RuntimeError("await wasn't used with future")
        return self.result()

    __iter__ = __await__


def _set_result_unless_cancelled(fut, result):
    if fut.cancelled():
        return
    fut.set_result(result)


class Task(Future):
    def __init__(self, coro, *, loop=None, name=None):
        super().__init__(loop=loop)
        if not iscoroutine(coro):
            raise TypeError(f"a coroutine was expected, got {coro!r}")
        _State.task_count += 1
        self._name = f"Task-{_State.task_count}" if name is None else str(name)
        self._coro = coro
        self._must_cancel = False
        self._fut_waiter = None
        self._num_cancels_requested = 0
        self._loop.call_soon(self.__step)
        self._loop._tasks.append(self)

    def __repr__(self):
        return f"<Task {self._state_text()} name={self._name!r} coro={self._coro!r}>"

    def get_coro(self):
        return self._coro

    def get_name(self):
        return self._name

    def set_name(self, value):
        self._name = str(value)

    def set_result(self, result):
        raise RuntimeError("Task does not support set_result operation")

    def set_exception(self, exception):
        raise RuntimeError("Task does not support set_exception operation")

    def cancel(self, msg=None):
        if self.done():
            return False
        self._num_cancels_requested += 1
        if self._fut_waiter is not None:
            if self._fut_waiter.cancel(msg=msg):
                return True
        self._must_cancel = True
        self._cancel_message = msg
        return True

    def cancelling(self):
        return self._num_cancels_requested

    def uncancel(self):
        if self._num_cancels_requested > 0:
            self._num_cancels_requested -= 1
        return self._num_cancels_requested

    def __step(self, exc=None):
        if self.done():
            raise InvalidStateError(f"_step(): already done: {self!r}, {exc!r}")
        if self._must_cancel:
            if not isinstance(exc, CancelledError):
                exc = self._make_cancelled_error()
            self._must_cancel = False
        self._fut_waiter = None
        _State.current_tasks[id(self._loop)] = self
        try:
            if exc is None:
                result = self._coro.send(None)
            else:
                result = self._coro.throw(exc)
        except StopIteration as stop:
            if self._must_cancel:
                self._must_cancel = False
                Future.cancel(self, msg=self._cancel_message)
            else:
                Future.set_result(self, stop.value)
        except CancelledError:
            Future.cancel(self)
        except (KeyboardInterrupt, SystemExit) as error:
            Future.set_exception(self, error)
            raise
        except BaseException as error:
            Future.set_exception(self, error)
        else:
            blocking = getattr(result, "_asyncio_future_blocking", None)
            if blocking is not None:
                if result is self:
                    self._loop.call_soon(
                        self.__step, RuntimeError(f"Task cannot await on itself: {self!r}")
                    )
                elif blocking:
                    result._asyncio_future_blocking = False
                    result.add_done_callback(self.__wakeup)
                    self._fut_waiter = result
                    if self._must_cancel:
                        if self._fut_waiter.cancel(msg=self._cancel_message):
                            self._must_cancel = False
                else:
                    self._loop.call_soon(
                        self.__step,
                        RuntimeError(
                            f"yield was used instead of yield from in task {self!r} with {result!r}"
                        ),
                    )
            elif result is None:
                self._loop.call_soon(self.__step)
            else:
                self._loop.call_soon(self.__step, RuntimeError(f"Task got bad yield: {result!r}"))
        finally:
            _State.current_tasks.pop(id(self._loop), None)

    def __wakeup(self, future):
        try:
            future.result()
        except BaseException as error:
            self.__step(error)
        else:
            self.__step()


def current_task(loop=None):
    if loop is None:
        loop = get_running_loop()
    return _State.current_tasks.get(id(loop))


def all_tasks(loop=None):
    if loop is None:
        loop = get_running_loop()
    return {t for t in loop._tasks if not t.done()}


def create_task(coro, *, name=None, context=None):
    return get_running_loop().create_task(coro, name=name)


def ensure_future(coro_or_future, *, loop=None):
    if isfuture(coro_or_future):
        if loop is not None and loop is not coro_or_future.get_loop():
            raise ValueError("The future belongs to a different loop than the one specified as the loop argument")
        return coro_or_future
    if iscoroutine(coro_or_future):
        return _get_loop(loop).create_task(coro_or_future)
    if hasattr(coro_or_future, "__await__"):
        return _get_loop(loop).create_task(_wrap_awaitable(coro_or_future))
    raise TypeError("An asyncio.Future, a coroutine or an awaitable is required")


async def _wrap_awaitable(awaitable):
    return await awaitable


# --- sleeping and waiting -----------------------------------------------------------------------

class _Sleep0:
    """What `sleep(0)` awaits: one bare yield, which hands control to the loop for a turn."""

    def __await__(self):
        yield


async def sleep(delay, result=None):
    if delay <= 0:
        await _Sleep0()
        return result
    loop = get_running_loop()
    future = loop.create_future()
    handle = loop.call_later(delay, _set_result_unless_cancelled, future, result)
    try:
        return await future
    finally:
        handle.cancel()


class _GatheringFuture(Future):
    def __init__(self, children, *, loop):
        super().__init__(loop=loop)
        self._children = children
        self._cancel_requested = False

    def cancel(self, msg=None):
        if self.done():
            return False
        ret = False
        for child in self._children:
            if child.cancel(msg=msg):
                ret = True
        if ret:
            self._cancel_requested = True
        return ret


def gather(*coros_or_futures, return_exceptions=False):
    if not coros_or_futures:
        outer = get_event_loop().create_future()
        outer.set_result([])
        return outer

    def _done_callback(fut):
        nonlocal nfinished
        nfinished += 1
        if outer is None or outer.done():
            return
        if not return_exceptions:
            if fut.cancelled():
                outer.set_exception(fut._make_cancelled_error())
                return
            exc = fut.exception()
            if exc is not None:
                outer.set_exception(exc)
                return
        if nfinished == nfuts:
            results = []
            for child in children:
                if child.cancelled():
                    message = child._cancel_message
                    res = CancelledError("" if message is None else message)
                else:
                    res = child.exception()
                    if res is None:
                        res = child.result()
                results.append(res)
            if outer._cancel_requested:
                outer.set_exception(fut._make_cancelled_error())
            else:
                outer.set_result(results)

    seen = []
    children = []
    nfuts = 0
    nfinished = 0
    loop = None
    outer = None
    for arg in coros_or_futures:
        fut = None
        for known, made in seen:
            if known is arg:
                fut = made
        if fut is None:
            fut = ensure_future(arg, loop=loop)
            if loop is None:
                loop = fut.get_loop()
            nfuts += 1
            seen.append((arg, fut))
            fut.add_done_callback(_done_callback)
        children.append(fut)
    outer = _GatheringFuture(children, loop=loop)
    return outer


def _release_waiter(waiter, *args):
    if not waiter.done():
        waiter.set_result(None)


async def _cancel_and_wait(fut):
    loop = get_running_loop()
    waiter = loop.create_future()

    def callback(_):
        _release_waiter(waiter)

    fut.add_done_callback(callback)
    try:
        fut.cancel()
        await waiter
    finally:
        fut.remove_done_callback(callback)


async def wait_for(fut, timeout):
    loop = get_running_loop()
    if timeout is None:
        return await fut
    if timeout <= 0:
        fut = ensure_future(fut, loop=loop)
        if fut.done():
            return fut.result()
        await _cancel_and_wait(fut)
        try:
            return fut.result()
        except CancelledError as exc:
            raise TimeoutError() from exc
    waiter = loop.create_future()
    timeout_handle = loop.call_later(timeout, _release_waiter, waiter)

    def callback(_):
        _release_waiter(waiter)

    fut = ensure_future(fut, loop=loop)
    fut.add_done_callback(callback)
    try:
        try:
            await waiter
        except CancelledError:
            if fut.done():
                return fut.result()
            fut.remove_done_callback(callback)
            await _cancel_and_wait(fut)
            raise
        if fut.done():
            return fut.result()
        fut.remove_done_callback(callback)
        await _cancel_and_wait(fut)
        try:
            return fut.result()
        except CancelledError as exc:
            raise TimeoutError() from exc
    finally:
        timeout_handle.cancel()


async def wait(fs, *, timeout=None, return_when=ALL_COMPLETED):
    if isfuture(fs) or iscoroutine(fs):
        raise TypeError(f"expect a list of futures, not {type(fs).__name__}")
    if not fs:
        raise ValueError("Set of Tasks/Futures is empty.")
    if return_when not in (FIRST_COMPLETED, FIRST_EXCEPTION, ALL_COMPLETED):
        raise ValueError(f"Invalid return_when value: {return_when}")
    fs = list(fs)
    if any(iscoroutine(f) for f in fs):
        raise TypeError("Passing coroutines is forbidden, use tasks explicitly.")
    loop = get_running_loop()
    waiter = loop.create_future()
    timeout_handle = None
    if timeout is not None:
        timeout_handle = loop.call_later(timeout, _release_waiter, waiter)
    counter = len(fs)

    def on_completion(f):
        nonlocal counter
        counter -= 1
        if (
            counter <= 0
            or return_when == FIRST_COMPLETED
            or (return_when == FIRST_EXCEPTION and not f.cancelled() and f.exception() is not None)
        ):
            if timeout_handle is not None:
                timeout_handle.cancel()
            if not waiter.done():
                waiter.set_result(None)

    for f in fs:
        f.add_done_callback(on_completion)
    try:
        await waiter
    finally:
        if timeout_handle is not None:
            timeout_handle.cancel()
        for f in fs:
            f.remove_done_callback(on_completion)
    done, pending = set(), set()
    for f in fs:
        if f.done():
            done.add(f)
        else:
            pending.add(f)
    return done, pending


def as_completed(fs, *, timeout=None):
    if isfuture(fs) or iscoroutine(fs):
        raise TypeError(f"expect an iterable of futures, not {type(fs).__name__}")
    loop = get_event_loop()
    todo = [ensure_future(f, loop=loop) for f in fs]
    done = Queue()
    timeout_handle = None

    def on_timeout():
        for f in todo:
            f.remove_done_callback(on_completion)
            done.put_nowait(None)
        todo.clear()

    def on_completion(f):
        if not todo:
            return
        todo.remove(f)
        done.put_nowait(f)
        if not todo and timeout_handle is not None:
            timeout_handle.cancel()

    async def wait_for_one():
        f = await done.get()
        if f is None:
            raise TimeoutError
        return f.result()

    for f in todo:
        f.add_done_callback(on_completion)
    if todo and timeout is not None:
        timeout_handle = loop.call_later(timeout, on_timeout)
    for _ in range(len(todo)):
        yield wait_for_one()


def shield(arg):
    inner = ensure_future(arg)
    if inner.done():
        return inner
    loop = inner.get_loop()
    outer = loop.create_future()

    def inner_done(inner):
        if outer.cancelled():
            return
        if inner.cancelled():
            outer.cancel()
        elif inner.exception() is not None:
            outer.set_exception(inner.exception())
        else:
            outer.set_result(inner.result())

    def outer_done(outer):
        if not inner.done():
            inner.remove_done_callback(inner_done)

    inner.add_done_callback(inner_done)
    outer.add_done_callback(outer_done)
    return outer


# --- running a program's main coroutine ---------------------------------------------------------

def run(main, *, debug=None):
    if _State.running_loop is not None:
        raise RuntimeError("asyncio.run() cannot be called from a running event loop")
    if not iscoroutine(main):
        raise ValueError(f"a coroutine was expected, got {main!r}")
    loop = new_event_loop()
    try:
        task = loop.create_task(main)
        return loop.run_until_complete(task)
    finally:
        try:
            _cancel_all_tasks(loop)
        finally:
            loop.close()


def _cancel_all_tasks(loop):
    to_cancel = [t for t in loop._tasks if not t.done()]
    if not to_cancel:
        return
    for task in to_cancel:
        task.cancel()
    loop.run_until_complete(gather(*to_cancel, return_exceptions=True))


# --- queues and synchronization -----------------------------------------------------------------

class Queue:
    def __init__(self, maxsize=0):
        self._maxsize = maxsize
        self._getters = _collections.deque()
        self._putters = _collections.deque()
        self._unfinished_tasks = 0
        self._finished = Event()
        self._finished.set()
        self._queue = _collections.deque()

    def __repr__(self):
        return f"<{type(self).__name__} maxsize={self._maxsize!r} _queue={list(self._queue)!r}>"

    def _wakeup_next(self, waiters):
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                break

    def qsize(self):
        return len(self._queue)

    @property
    def maxsize(self):
        return self._maxsize

    def empty(self):
        return not self._queue

    def full(self):
        if self._maxsize <= 0:
            return False
        return self.qsize() >= self._maxsize

    async def _wait_turn(self, waiters, blocked):
        """Waits in line in `waiters` while `blocked()`; one woken and then cancelled passes
        its turn on."""
        while blocked():
            waiter = get_running_loop().create_future()
            waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                waiter.cancel()
                if waiter in waiters:
                    waiters.remove(waiter)
                if not blocked() and not waiter.cancelled():
                    self._wakeup_next(waiters)
                raise

    async def put(self, item):
        await self._wait_turn(self._putters, self.full)
        return self.put_nowait(item)

    def put_nowait(self, item):
        if self.full():
            raise QueueFull
        self._queue.append(item)
        self._unfinished_tasks += 1
        self._finished.clear()
        self._wakeup_next(self._getters)

    async def get(self):
        await self._wait_turn(self._getters, self.empty)
        return self.get_nowait()

    def get_nowait(self):
        if self.empty():
            raise QueueEmpty
        item = self._queue.popleft()
        self._wakeup_next(self._putters)
        return item

    def task_done(self):
        if self._unfinished_tasks <= 0:
            raise ValueError("task_done() called too many times")
        self._unfinished_tasks -= 1
        if self._unfinished_tasks == 0:
            self._finished.set()

    async def join(self):
        if self._unfinished_tasks > 0:
            await self._finished.wait()


class Event:
    def __init__(self):
        self._waiters = _collections.deque()
        self._value = False

    def is_set(self):
        return self._value

    def set(self):
        if not self._value:
            self._value = True
            for fut in self._waiters:
                if not fut.done():
                    fut.set_result(True)

    def clear(self):
        self._value = False

    async def wait(self):
        if self._value:
            return True
        await _wait_in(self._waiters)
        return True


async def _wait_in(waiters):
    """Waits on a new future in line in `waiters` until it is set."""
    fut = get_running_loop().create_future()
    waiters.append(fut)
    try:
        await fut
    finally:
        waiters.remove(fut)


def _wake_first(waiters):
    for fut in waiters:
        if not fut.done():
            fut.set_result(True)
            break


class _ContextManagerMixin:
    """`async with lock:` acquires and releases it."""

    async def __aenter__(self):
        await self.acquire()
        return None

    async def __aexit__(self, exc_type, exc, tb):
        self.release()


class Lock(_ContextManagerMixin):
    def __init__(self):
        self._waiters = _collections.deque()
        self._locked = False

    def locked(self):
        return self._locked

    async def acquire(self):
        if not self._locked and all(w.cancelled() for w in self._waiters):
            self._locked = True
            return True
        await _wait_in(self._waiters)
        self._locked = True
        return True

    def release(self):
        if not self._locked:
            raise RuntimeError("Lock is not acquired.")
        self._locked = False
        _wake_first(self._waiters)


class Semaphore(_ContextManagerMixin):
    def __init__(self, value=1):
        if value < 0:
            raise ValueError("Semaphore initial value must be >= 0")
        self._value = value
        self._waiters = _collections.deque()

    def locked(self):
        return self._value == 0

    async def acquire(self):
        while self._value <= 0:
            await _wait_in(self._waiters)
        self._value -= 1
        return True

    def release(self):
        self._value += 1
        _wake_first(self._waiters)
