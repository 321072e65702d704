# asyncio beyond the happy path: what each protocol raises, and the loop's order of events.
import asyncio


class Ticker:
    """A learner's async iterator: __aiter__ / __anext__ by hand."""

    def __init__(self, n):
        self.n = n
        self.i = 0

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await asyncio.sleep(0)
        return self.i


class Awaitable:
    def __await__(self):
        yield
        return "from __await__"


async def countdown(n):
    while n > 0:
        yield n
        n -= 1


async def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            break
        received.append(value)


async def sleeper(name, delay, log):
    await asyncio.sleep(delay)
    log.append(name)
    return name


async def worker(name, lock, log):
    async with lock:
        log.append(f"{name} in")
        await asyncio.sleep(0)
        log.append(f"{name} out")


async def limited(i, sem, active, peak):
    async with sem:
        active.append(i)
        peak.append(len(active))
        await asyncio.sleep(0)
        active.remove(i)


async def boom():
    await asyncio.sleep(0)
    raise KeyError("lost")


async def main():
    print([i async for i in Ticker(3)])
    print(await Awaitable())
    print([n async for n in countdown(3)])

    gen = echo()
    print(type(gen).__name__, await gen.__anext__(), await gen.asend("a"), await gen.asend("b"))
    try:
        await gen.asend(None)
    except StopAsyncIteration:
        print("echo finished")

    agen = countdown(5)
    print(await agen.__anext__())
    await agen.aclose()
    try:
        await agen.__anext__()
    except StopAsyncIteration:
        print("closed generator is exhausted")

    try:
        await 3
    except TypeError as e:
        print("TypeError:", e)

    coro = sleeper("x", 0, [])
    await coro
    try:
        await coro
    except RuntimeError as e:
        print("RuntimeError:", e)

    try:
        for x in countdown(2):
            pass
    except TypeError as e:
        print("TypeError:", e)

    try:
        async for x in 5:
            pass
    except TypeError as e:
        print("TypeError:", e)

    try:
        async with Ticker(1):
            pass
    except TypeError as e:
        print("TypeError:", e)

    log = []
    results = await asyncio.gather(
        sleeper("slow", 0.03, log), sleeper("fast", 0.01, log), sleeper("now", 0, log)
    )
    print("finish order:", log, "results:", results)

    log = []
    lock = asyncio.Lock()
    await asyncio.gather(worker("a", lock, log), worker("b", lock, log))
    print("lock:", log, lock.locked())

    sem = asyncio.Semaphore(2)
    active, peak = [], []
    await asyncio.gather(*(limited(i, sem, active, peak) for i in range(5)))
    print("semaphore peak:", max(peak))

    event = asyncio.Event()

    async def waiter(out):
        await event.wait()
        out.append("released")

    out = []
    task = asyncio.create_task(waiter(out))
    await asyncio.sleep(0)
    print("before set:", out, event.is_set())
    event.set()
    await task
    print("after set:", out)

    print("wait_for in time:", await asyncio.wait_for(sleeper("quick", 0, []), timeout=1))

    tasks = [asyncio.create_task(sleeper(n, d, [])) for n, d in [("b", 0.3), ("a", 0.01)]]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    print("first completed:", [t.result() for t in done], len(pending))
    await asyncio.gather(*pending)

    order = []
    for next_done in asyncio.as_completed([sleeper("z", 0.2, []), sleeper("y", 0.01, [])]):
        order.append(await next_done)
    print("as_completed:", order)

    queue = asyncio.Queue(maxsize=1)
    queue.put_nowait(1)
    try:
        queue.put_nowait(2)
    except asyncio.QueueFull:
        print("QueueFull at", queue.qsize())
    print(queue.get_nowait(), queue.empty())
    try:
        queue.get_nowait()
    except asyncio.QueueEmpty:
        print("QueueEmpty")

    task = asyncio.create_task(boom())
    try:
        await task
    except KeyError as e:
        print("task raised", repr(e), "| exception():", repr(task.exception()))

    fut = asyncio.get_running_loop().create_future()
    try:
        fut.result()
    except asyncio.InvalidStateError as e:
        print("InvalidStateError:", e)
    asyncio.get_running_loop().call_soon(fut.set_result, 7)
    print("future:", await fut, fut.done())

    cancelled = asyncio.create_task(asyncio.sleep(5))
    await asyncio.sleep(0)
    print("cancel:", cancelled.cancel(), cancelled.cancel())
    try:
        await cancelled
    except asyncio.CancelledError:
        print("cancelled:", cancelled.cancelled(), isinstance(asyncio.CancelledError(), Exception))

    print(asyncio.iscoroutinefunction(main), asyncio.iscoroutinefunction(print))
    print(asyncio.current_task().get_name())


asyncio.run(main())

try:
    asyncio.run(sleeper)
except ValueError as e:
    print("ValueError:", str(e).split(" at ")[0])

loop = asyncio.new_event_loop()
print(loop.run_until_complete(sleeper("direct", 0, [])))
loop.close()


async def fails():
    await asyncio.sleep(0)
    return 1 / 0


asyncio.run(fails())
