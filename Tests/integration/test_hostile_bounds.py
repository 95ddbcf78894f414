"""Hostile clients against the process-wide bounds (docs/SECURITY.md, "Kernel memory and the byte
budget"): what an attacker holds must not get innocent clients cut. The listener deals accepted
sockets round robin, so with `--threads 2` connection n lands on thread n % 2."""
import asyncio
import time

import rawws
from client import Client
from test_process_bounds import drag, kernel_queues, never_reader


def test_never_readers_on_one_thread_do_not_get_a_client_of_another_thread_cut(make_server):
    # 1 MiB: soft mark 768 KiB. Seven never-readers on thread 0 hold ~870 KiB, between the marks;
    # then thread 0 goes quiet and an eighth, on thread 1, crosses the hard mark. Thread 1 holds less than its share (384 KiB),
    # so it cuts nobody of its own and wakes thread 0, whose largest holders (the never-readers)
    # are cut: the victim on thread 1, a 300 ms network link holding its frames, keeps going.
    server = make_server("--byte-budget", "1", "--threads", "2")

    async def run():
        driver = await Client.connect(server.url, max_queue=None)  # connection 0: thread 0
        victim = await Client.connect(server.url, max_queue=None)  # 1: thread 1
        await victim.send({"type": "configure", "network": {"delayMs": 300}})
        stop = asyncio.Event()
        dragging = [asyncio.create_task(drag(driver, stop))]
        readers = []
        for _ in range(7):  # 2, 4, … 14: thread 0; each odd one (thread 1) closed at once
            readers.append(never_reader(server, driver.welcome["session"]))
            rawws.connect(server.host, server.port).close()
        ports = [s.getsockname()[1] for s in readers]
        await asyncio.sleep(3)  # the never-readers' kernel queues fill (~62 KiB each)
        print(f"\nnever-readers' Send-Q: {sorted(kernel_queues(server.port).get(p, (0,))[0] for p in ports)}")
        stop.set()  # thread 0 goes quiet: its never-readers hold their full queues, nothing grows
        await dragging[0]
        stop.clear()
        dragging[0] = asyncio.create_task(drag(victim, stop))  # thread 1 grows: the link fills
        await asyncio.sleep(1)
        rawws.connect(server.host, server.port).close()  # 16: thread 0
        attacker = await Client.connect(server.url, max_queue=None)  # 17: thread 1
        dragging.append(asyncio.create_task(drag(attacker, stop)))
        rawws.connect(server.host, server.port).close()  # 18: thread 0
        crossing = never_reader(server, attacker.welcome["session"])  # 19: thread 1
        started = time.monotonic()
        while time.monotonic() - started < 4:
            await victim.recv()  # raises ConnectionClosed if the victim was cut
        await victim.send({"type": "ping", "seq": 1, "t": 0})
        await victim.expect("pong", seq=1)
        alive = kernel_queues(server.port)
        cut = [p for p in ports if p not in alive]
        print(f"\nvictim kept; never-readers cut on thread 0: {len(cut)} of 7")
        assert cut, "the never-readers, the largest holders, are cut instead"
        stop.set()
        for task in dragging:
            task.cancel()
        for s in readers + [crossing]:
            s.close()

    asyncio.run(asyncio.wait_for(run(), 40))
