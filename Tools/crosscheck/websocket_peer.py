#!/usr/bin/env python3
"""The other end for ftw-core's WebSocket cross-checks, built on Python's `websockets` package.

    websocket_peer.py server         echo server on 127.0.0.1; prints "PORT <n>", runs until stdin closes
    websocket_peer.py client <port>  exchanges messages with a server at ws://127.0.0.1:<port>/crosscheck,
                                     prints "OK" and exits 0 when every check passed

Server commands (text messages): "fragment text" and "fragment binary" answer with a fragmented message;
"close <code> <reason>" closes with that code and reason. Anything else is echoed.

The client expects the Swift test server to echo, and to close with 4409 "493828" on "close please".
Compression is off on both ends, as the relay has it. Every run gives up after 30 seconds.
"""

import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

DEADLINE_SECONDS = 30


async def echo(ws):
    async for message in ws:
        if message == "fragment text":
            await ws.send(["Hel", "lo ", "world"])
        elif message == "fragment binary":
            await ws.send([b"\x00\x01", b"\x02", b"\x03"])
        elif isinstance(message, str) and message.startswith("close "):
            _, code, reason = message.split(" ", 2)
            await ws.close(int(code), reason)
        else:
            await ws.send(message)


async def run_server():
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=1 << 20) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


async def run_client(port):
    uri = f"ws://127.0.0.1:{port}/crosscheck"
    async with connect(uri, compression=None, max_size=1 << 20) as ws:
        await ws.send("Hello")
        expect(await ws.recv() == "Hello", "text echo")
        for length in (1, 125, 126, 65535, 65536):
            payload = bytes(i % 251 for i in range(length))
            await ws.send(payload)
            expect(await ws.recv() == payload, f"binary echo of {length} bytes")
        await ws.send(["Grü", "ße ", "⚡"])
        expect(await ws.recv() == "Grüße ⚡", "fragmented text echo")
        await ws.send([b"\x01\x02", b"\x03"])
        expect(await ws.recv() == b"\x01\x02\x03", "fragmented binary echo")
        await (await ws.ping(b"crosscheck"))
        await ws.send("close please")
        try:
            await ws.recv()
            raise AssertionError("the server did not close")
        except ConnectionClosed as closed:
            expect(closed.rcvd is not None, "a close frame from the server")
            expect(closed.rcvd.code == 4409, f"close code {closed.rcvd.code}")
            expect(closed.rcvd.reason == "493828", f"close reason {closed.rcvd.reason!r}")
    print("OK", flush=True)


def main():
    if sys.argv[1:2] == ["server"]:
        job = run_server()
    elif sys.argv[1:2] == ["client"] and len(sys.argv) == 3:
        job = run_client(int(sys.argv[2]))
    else:
        sys.exit(__doc__)
    asyncio.run(asyncio.wait_for(job, DEADLINE_SECONDS))


if __name__ == "__main__":
    main()
