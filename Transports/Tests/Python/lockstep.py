#!/usr/bin/env python3
"""A WebSocket peer for vcproto-tap's tests (Python `websockets`): plays one side of a script.

    lockstep.py server PORT SCRIPT [N]   serves N connections (default 1) on 127.0.0.1:PORT (0: any
                                         free port; prints "port N")
    lockstep.py client URL SCRIPT [N] [--close CODE]   N clients at once (default 1) connect to URL

SCRIPT is JSON Lines of {"direction": "client_to_server"|"server_to_client", "data": "<text>"} or
{"direction": ..., "opcode": 2, "data": "<base64>"}. Each side sends its own steps in order and,
for the other side's steps, waits for the message and checks it arrived with the same bytes and
the same kind (text or binary), so the frames cross in the script's order. The client then closes
with CODE (default 1000) and both print what they saw: "ok N messages", the close code the other
side sent, the subprotocol and the request path. Any difference exits 1. Every wait has a timeout.
"""
import asyncio
import base64
import json
import sys

import websockets

TIMEOUT = 20


def load(path):
    steps = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            data = record["data"]
            if record.get("opcode") == 2:
                steps.append((record["direction"], base64.b64decode(data)))
            else:
                steps.append((record["direction"], data))
    return steps


async def play(ws, steps, mine):
    for direction, payload in steps:
        if direction == mine:
            await ws.send(payload)
        else:
            got = await asyncio.wait_for(ws.recv(), TIMEOUT)
            if type(got) is not type(payload) or got != payload:
                print(f"mismatch: expected {payload!r:.200} got {got!r:.200}", flush=True)
                sys.exit(1)
    return len(steps)


async def server(port, steps, count):
    done = asyncio.Event()
    served = [0]

    async def handler(ws):
        n = await play(ws, steps, "server_to_client")
        try:
            await asyncio.wait_for(ws.wait_closed(), TIMEOUT)
        finally:
            print(f"server ok {n} messages close {ws.close_code} path {ws.request.path} "
                  f"subprotocol {ws.subprotocol}", flush=True)
            served[0] += 1
            if served[0] >= count:
                done.set()

    async with websockets.serve(handler, "127.0.0.1", port, subprotocols=["vcproto.test"],
                                compression=None, max_size=None) as srv:
        print(f"port {srv.sockets[0].getsockname()[1]}", flush=True)
        await asyncio.wait_for(done.wait(), 120)


async def client(url, steps, code):
    async with websockets.connect(url, subprotocols=["vcproto.test"], compression=None,
                                  max_size=None, open_timeout=TIMEOUT) as ws:
        n = await play(ws, steps, "client_to_server")
        await ws.close(code, "done")
        print(f"client ok {n} messages close {ws.close_code} subprotocol {ws.subprotocol}", flush=True)


async def clients(url, steps, count, code):
    await asyncio.gather(*(client(url, steps, code) for _ in range(count)))


def main():
    role, where, script = sys.argv[1:4]
    rest = sys.argv[4:]
    code = 1000
    if "--close" in rest:
        code = int(rest[rest.index("--close") + 1])
        del rest[rest.index("--close"):rest.index("--close") + 2]
    count = int(rest[0]) if rest else 1
    steps = load(script)
    if role == "server":
        asyncio.run(server(int(where), steps, count))
    else:
        asyncio.run(clients(where, steps, count, code))


if __name__ == "__main__":
    main()
