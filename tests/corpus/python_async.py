# Theme: async - async def coroutines, await, asyncio.run of a main coroutine,
# asyncio.sleep(0) yielding control, asyncio.gather returning ordered results,
# create_task, async generators / async for, async context managers, Queue
# based producer/consumer, exceptions in gather, wait_for timeouts.
import asyncio

events = []


async def load_shard(shard_id, size):
    events.append(f"start shard {shard_id}")
    total = 0
    for i in range(size):
        total += i * shard_id
        await asyncio.sleep(0)  # hand control back to the event loop
    events.append(f"done shard {shard_id}")
    return shard_id, total


async def fetch_metric(name, value):
    await asyncio.sleep(0)
    return {name: value}


async def add(a, b):
    await asyncio.sleep(0)
    return a + b


async def chain_of_awaits():
    x = await add(1, 2)
    y = await add(x, 10)
    z = await add(y, y)
    return [x, y, z]


async def ticker(name, n, log):
    for i in range(n):
        log.append(f"{name}{i}")
        await asyncio.sleep(0)
    return name * n


async def batches(data, batch_size):
    """An async generator yielding batches."""
    for start in range(0, len(data), batch_size):
        await asyncio.sleep(0)
        yield data[start:start + batch_size]


class AsyncResource:
    def __init__(self, name, log):
        self.name = name
        self.log = log

    async def __aenter__(self):
        await asyncio.sleep(0)
        self.log.append(f"open {self.name}")
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await asyncio.sleep(0)
        self.log.append(f"close {self.name} ({exc_type.__name__ if exc_type else 'clean'})")
        return False


async def failing(msg):
    await asyncio.sleep(0)
    raise ValueError(msg)


async def producer(queue, items):
    for item in items:
        await queue.put(item)
    await queue.put(None)


async def consumer(queue, results):
    while True:
        item = await queue.get()
        if item is None:
            break
        results.append(item * item)


async def slow():
    await asyncio.sleep(10)
    return "never"


async def main():
    coro = add(2, 3)
    print("coroutine type:", type(coro).__name__, "| iscoroutine:", asyncio.iscoroutine(coro))
    print("awaited:", await coro)
    print("chain:", await chain_of_awaits())

    results = await asyncio.gather(load_shard(1, 3), load_shard(2, 2), load_shard(3, 1))
    print("gather results (in argument order):", results)
    print("interleaving:", events)

    metrics = await asyncio.gather(*(fetch_metric(n, v) for n, v in [("loss", 0.2), ("acc", 0.9)]))
    merged = {}
    for m in metrics:
        merged.update(m)
    print("merged metrics:", merged)

    log = []
    t1 = asyncio.create_task(ticker("a", 3, log))
    t2 = asyncio.create_task(ticker("b", 2, log))
    print("task done before await:", t1.done())
    r1 = await t1
    r2 = await t2
    print("tasks:", r1, r2, "| log:", log, "| done:", t1.done(), t2.result())

    seen = []
    async for batch in batches(list(range(7)), 3):
        seen.append(batch)
    print("async for batches:", seen)
    squares = [x * x async for b in batches([1, 2, 3, 4], 2) for x in b]
    print("async comprehension:", squares)

    res_log = []
    async with AsyncResource("dataset", res_log) as res:
        res_log.append(f"using {res.name}")
    try:
        async with AsyncResource("cache", res_log):
            raise KeyError("missing")
    except KeyError:
        res_log.append("handled KeyError")
    print("async with:", res_log)

    try:
        await asyncio.gather(add(1, 1), failing("bad batch"))
    except ValueError as e:
        print("gather raised:", e)
    mixed = await asyncio.gather(add(1, 1), failing("oops"), add(2, 2), return_exceptions=True)
    print("return_exceptions:", [r if not isinstance(r, Exception) else f"{type(r).__name__}({r})" for r in mixed])

    queue = asyncio.Queue()
    out = []
    await asyncio.gather(producer(queue, [1, 2, 3, 4]), consumer(queue, out))
    print("queue results:", out, "| empty:", queue.empty())

    try:
        await asyncio.wait_for(slow(), timeout=0.01)
    except asyncio.TimeoutError:
        print("wait_for timed out")

    task = asyncio.create_task(slow())
    await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        print("task cancelled:", task.cancelled())

    async def square_later(x):
        await asyncio.sleep(0)
        return x * x
    total = sum(await asyncio.gather(*[square_later(i) for i in range(5)]))
    print("sum of gathered squares:", total)
    return "main finished"


if __name__ == "__main__":
    print(asyncio.run(main()))
    print("asyncio.run returns plain values:", asyncio.run(add(20, 22)))
