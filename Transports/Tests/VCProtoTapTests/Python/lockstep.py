#!/usr/bin/env python3
"""A WebSocket peer for vcproto-tap's tests (Python `websockets`): plays one side of a script.

    lockstep.py server PORT SCRIPT [--close CODE]   serves on 127.0.0.1:PORT (port 0: any; prints "port N")
    lockstep.py client URL SCRIPT [--close CODE]     connects to URL

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


async def server(port, steps, done):
    async def handler(ws):
        n = await play(ws, steps, "server_to_client")
        try:
            await asyncio.wait_for(ws.wait_closed(), TIMEOUT)
        finally:
            print(f"server ok {n} messages close {ws.close_code} path {ws.request.path} "
                  f"subprotocol {ws.subprotocol}", flush=True)
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


def main():
    role, where, script = sys.argv[1:4]
    code = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--close" else 1000
    steps = load(script)
    if role == "server":
        asyncio.run(server(int(where), steps, asyncio.Event()))
    else:
        asyncio.run(client(where, steps, code))


if __name__ == "__main__":
    main()
