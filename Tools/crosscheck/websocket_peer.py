#!/usr/bin/env python3
"""The other end for ftw-core's WebSocket cross-checks, built on Python's `websockets` package.

    websocket_peer.py server [CERT KEY]    echo server on 127.0.0.1; prints "PORT <n>", runs until stdin closes;
                                           with a PEM certificate chain and key it serves wss:// (Python's ssl)
    websocket_peer.py client <port> [CA]   exchanges messages with a server at ws://127.0.0.1:<port>/crosscheck,
                                           prints "OK" and exits 0 when every check passed; with a CA file it
                                           dials wss:// and verifies the server (chain and host name) against it

Server commands (text messages): "fragment text" and "fragment binary" answer with a fragmented message;
"close <code> <reason>" closes with that code and reason. Anything else is echoed.

The client expects the Swift test server to echo, and to close with 4409 "493828" on "close please".
Compression is off on both ends, as the relay has it. Every run gives up after 30 seconds.
"""

import asyncio
import ssl
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


async def run_server(tls=None):
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=1 << 20, ssl=tls) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def server_context(certificate, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certificate, key)
    return context


def client_context(ca_file):
    context = ssl.create_default_context(cafile=ca_file)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


async def run_client(port, tls=None):
    uri = f"{'wss' if tls else 'ws'}://127.0.0.1:{port}/crosscheck"
    async with connect(uri, compression=None, max_size=1 << 20, ssl=tls) as ws:
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
    if sys.argv[1:2] == ["server"] and len(sys.argv) in (2, 4):
        job = run_server(server_context(*sys.argv[2:4]) if len(sys.argv) == 4 else None)
    elif sys.argv[1:2] == ["client"] and len(sys.argv) in (3, 4):
        job = run_client(int(sys.argv[2]), client_context(sys.argv[3]) if len(sys.argv) == 4 else None)
    else:
        sys.exit(__doc__)
    asyncio.run(asyncio.wait_for(job, DEADLINE_SECONDS))


if __name__ == "__main__":
    main()
