"""Bounds over the whole process, not one connection (docs/SECURITY.md, "Kernel memory and the
byte budget"): each connection's kernel send queue has a fixed maximum, and one byte budget over
everything held for clients (reply queues, network-lab traffic, kernel send queues) refuses new
network links past its soft mark and cuts the largest holders past its hard mark. The kernel's
queues are read with `ss -tmn`; small budgets (`--byte-budget 1`, MiB) make it quick."""
import asyncio
import re
import subprocess
import time

import websockets

import rawws
from client import Client

# SendRoom.fixedBufferBytes: the kernel reports twice what was set; the room check keeps the
# payload at most half the buffer less 2 KiB.
SNDBUF = 2 * 64 * 1024
MAX_QUEUED = SNDBUF // 2 - 2048


def kernel_queues(port):
    """{peer port: (Send-Q payload bytes, sndbuf, wmem_queued)} of the server's established sockets."""
    out = subprocess.run(["ss", "-tmnH", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True, check=True).stdout
    sockets = {}
    for head, mem in re.findall(r"^(\d+\s+\d+\s+\S+\s+\S+)\s*\n\s*skmem:\(([^)]*)\)", out, re.M):
        _, send_q, _, peer = head.split()
        fields = dict(re.match(r"([a-z]+)(\d+)", f).groups() for f in mem.split(","))
        sockets[int(peer.rsplit(":", 1)[1])] = (int(send_q), int(fields["tb"]), int(fields["w"]))
    return sockets


def never_reader(server, session):
    """A raw viewer of `session` with a tiny receive window that never reads a byte after 101."""
    s = rawws.websocket(server.host, server.port, rcvbuf=4096)
    s.sendall(rawws.frame('{"type":"join","session":"%s"}' % session))
    return s


async def drag(driver, stop):
    """One long drag, a move every 4 ms: a frame for every viewer each time."""
    await driver.pointer("down", 100, dt=0)
    i = 0
    while not stop.is_set():
        i += 1
        await driver.pointer("move", 100 + (i % 200), dt=4)
        await asyncio.sleep(0.004)


async def until_full(port, peers, timeout=8.0):
    """Waits until each of `peers` has a kernel queue near its maximum (or the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        queues = kernel_queues(port)
        full = [p for p in peers if p in queues and queues[p][0] >= MAX_QUEUED - 4096]
        if len(full) == len(peers) or time.monotonic() > deadline:
            return queues
        await asyncio.sleep(0.1)


def test_never_readers_hold_a_fixed_kernel_queue_and_the_budget_refuses_then_sheds(make_server):
    # 1 MiB: soft mark 768 KiB. Seven full never-readers count 7 × ~124 KiB (twice their payload)
    # ≈ 870 KiB, between the marks; three more pass the hard mark.
    server = make_server("--byte-budget", "1")

    async def run():
        driver = await Client.connect(server.url, max_queue=None)
        session = driver.welcome["session"]
        first = [never_reader(server, session) for _ in range(7)]
        peers = [s.getsockname()[1] for s in first]
        stop = asyncio.Event()
        dragging = asyncio.create_task(drag(driver, stop))
        queues = await until_full(server.port, peers)
        sizes = [queues[p] for p in peers if p in queues]
        print(f"\n7 never-readers, ss -tmn Send-Q/tb/w: {sizes}")
        assert len(sizes) == 7, queues
        for send_q, sndbuf, wmem in sizes:
            assert sndbuf == SNDBUF, "SO_SNDBUF fixed at accept: no growth"
            assert MAX_QUEUED - 4096 <= send_q <= MAX_QUEUED, send_q
            assert wmem <= SNDBUF + 8192
        # Past the soft mark: a new network link is refused, and nothing else changes.
        late = await Client.connect(server.url, max_queue=None)
        await late.send({"type": "configure", "network": {"delayMs": 100}})
        error = await late.expect("error")
        assert error["code"] == "over-budget", error
        await late.send({"type": "ping", "seq": 1, "t": 0})
        assert "network" not in await late.expect("pong", seq=1)
        # Past the hard mark: the largest holders are cut until the count is under the soft mark.
        more = [never_reader(server, session) for _ in range(3)]
        everyone = first + more
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            queues = kernel_queues(server.port)
            alive = [s for s in everyone if s.getsockname()[1] in queues]
            if len(alive) < len(everyone):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.5)  # cut within a second (reset at close)
        queues = kernel_queues(server.port)
        viewers = {p: queues[p] for p in (s.getsockname()[1] for s in everyone) if p in queues}
        total = sum(q[0] for q in queues.values())
        print(f"10 never-readers on a 1 MiB budget: {len(viewers)} left, Send-Q total {total} B, "
              f"each {sorted(q[0] for q in viewers.values())}")
        assert len(viewers) < len(everyone), "nobody was cut past the hard mark"
        assert 2 * total <= 1024 * 1024, "the budget counts twice the payload: its total stays under 1 MiB"
        assert all(q[0] <= MAX_QUEUED for q in queues.values())
        stop.set()
        await dragging
        # The driver and the late client still work.
        for client in (driver, late):
            await client.send({"type": "ping", "seq": 2, "t": 0})
            await client.expect("pong", seq=2)
        await driver.close()
        await late.close()
        for s in everyone:
            s.close()

    asyncio.run(asyncio.wait_for(run(), 40))


def test_network_lab_traffic_counts_against_the_budget(make_server):
    # Readers whose 2 s links hold a 240 fps transition: each link holds up to 256 KiB; six of
    # them pass 1 MiB, and the largest are cut with 1008 and a reason.
    server = make_server("--byte-budget", "1")

    async def run():
        clients = [await Client.connect(server.url, max_queue=None) for _ in range(6)]
        for client in clients:
            await client.send({"type": "configure", "fps": 240, "duration": 60, "network": {"delayMs": 2000}})
        for client in clients:
            await client.send({"type": "play"})
        closes = []

        async def watch(client):
            try:
                while True:
                    await client.ws.recv()
            except websockets.ConnectionClosed as closed:
                closes.append(closed.rcvd)

        watchers = [asyncio.create_task(watch(c)) for c in clients]
        done, _ = await asyncio.wait(watchers, timeout=8, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(0.5)
        print(f"\n6 links of 2 s at 240 fps on a 1 MiB budget: closes {[(c.code, c.reason) for c in closes if c]}")
        assert done, "no link was cut past the hard mark"
        assert closes and all(c is not None and c.code == 1008 and "budget" in c.reason for c in closes), closes
        assert len(closes) < len(clients), "only the largest holders go"
        # Another client is served.
        other = await Client.connect(server.url)
        await other.send({"type": "ping", "seq": 1, "t": 0})
        await other.expect("pong", seq=1)
        await other.close()
        for task in watchers:
            task.cancel()
        for client in clients:
            await client.ws.close()

    asyncio.run(asyncio.wait_for(run(), 40))
