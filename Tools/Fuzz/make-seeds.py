#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora into Tools/Fuzz/Seeds/<fuzzer>/ from the vectors and the tests.

Sources: Vectors/*.json (frames, envelopes, handshake), the frames of BoxProtocolTests' SampleMessages.all
(Seeds/sample-frames.txt: bucket and unpadded frame hex, dumped once from the tests), RFC 8949 Appendix A (the
hex strings of CBORAppendixATests.swift), the scenario texts of ScenarioParserTests.swift, the RFC 6455 handshake
and frames of the WebSocket tests, and sealed files made here with Python's `cryptography` (an implementation of
the seal format independent of ours; the nonces are derived, not random, so a rerun changes no seed), and the
inputs the fuzzers found. Needs cbor2 and cryptography. Rerun it when a format changes, and commit the result.
"""
import hashlib
import json
import os
import re
import shutil
import struct

import cbor2
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SEEDS = os.path.join(ROOT, "Tools", "Fuzz", "Seeds")


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as file:
        return file.read()


def vectors(name):
    return json.loads(read("Vectors", name))


def write(fuzzer, name, data):
    folder = os.path.join(SEEDS, fuzzer)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data)


def sample_frames():
    """(name, padded frame) for every sample message frame and every web client frame vector."""
    frames = []
    for index, line in enumerate(read("Tools", "Fuzz", "Seeds", "sample-frames.txt").split("\n")):
        if not line:
            continue
        bucket, text = line.split()
        frame = bytes.fromhex(text)
        frames.append((f"sample-{index:02d}", frame + bytes(int(bucket) - len(frame))))
    for vector in vectors("webapp-vectors.json")["frames"]:
        frames.append((f"webapp-{vector['name']}", bytes.fromhex(vector["bytes"])))
    return frames


def envelopes():
    """(name, envelope bytes) from both vector files and the sample frames."""
    found = [(f"box-{name}", bytes.fromhex(text)) for name, text in vectors("box-envelopes.json")["envelopes"].items()]
    for name, frame in sample_frames():
        length = frame[4] << 8 | frame[5]
        found.append((name, frame[6 : 6 + length]))
    return found


def cbor_seeds():
    appendix = re.findall(r'example\("([0-9a-f]+)"', read("Modules", "Protocol", "Tests", "BoxProtocolTests",
                                                          "CBORAppendixATests.swift"))
    for index, text in enumerate(appendix):
        write("fuzz-cbor", f"rfc8949-{index:02d}", bytes.fromhex(text))
    for name, envelope in envelopes():
        write("fuzz-cbor", name, envelope)


def frame_seeds():
    for name, frame in sample_frames():
        write("fuzz-frame", name, frame)
    for name, envelope in envelopes()[:6]:
        header = bytes([1, 0, 0, 0, len(envelope) >> 8, len(envelope) & 0xFF])
        write("fuzz-frame", name, header + envelope + bytes(512 - 6 - len(envelope)))


MESSAGE_TYPES = [
    "hello", "hello_ok", "sub", "snap", "delta", "tick", "plan.get", "plan", "price.get", "price", "hist.query",
    "hist.chunk", "hist.end", "api.req", "api.head", "api.chunk", "api.end", "cmd", "cmd.ack", "cmd.result",
    "event", "error", "session.terminate", "plan.v2",
]


def message_seeds():
    """Layout of fuzz-messages: type index, id flag, 8 id bytes, the body's CBOR."""
    for name, envelope in envelopes():
        value = cbor2.loads(envelope)
        if value.get("t") not in MESSAGE_TYPES or "b" not in value:
            continue
        head = bytes([MESSAGE_TYPES.index(value["t"]), 1 if "id" in value else 0])
        head += struct.pack(">Q", value.get("id", 0) << 32)
        write("fuzz-messages", name, head + cbor2.dumps(value["b"]))
    tile = b"".join(struct.pack("<i", value) for value in range(-6, 6))
    write("fuzz-messages", "tile-data", bytes([len(MESSAGE_TYPES), 0]) + bytes(8) + bytes([3, 4]) + tile)


def noise_seeds():
    handshake = vectors("webapp-vectors.json")["handshake"]
    write("fuzz-noise", "message1", bytes([2]) + bytes.fromhex(handshake["message1"]))
    write("fuzz-noise", "message2", bytes([3]) + bytes.fromhex(handshake["message2"]))
    # The window alone: in order, a replay, the far edge, a jump near the end of the sequence space.
    write("fuzz-noise", "window-in-order", bytes([0]) + bytes([1, 0, 1, 1, 1, 2, 2, 0]))
    write("fuzz-noise", "window-edges", bytes([0]) + bytes([1, 200, 2, 63, 2, 64, 2, 62, 3, 1, 3, 0, 2, 5]))
    write("fuzz-noise", "window-absolute", bytes([0, 0]) + struct.pack(">Q", 2**63) + bytes([2, 1, 1, 70]))
    # The transport: seal three, deliver out of order and again, tamper, deliver junk, jump near the last nonce.
    script = [0, 3, 1, 2, 3, 0, 0, 0, 5, 9, 9, 9, 9, 9, 1, 2, 1, 0, 1, 0, 1, 1, 2, 1, 7, 3, 30] + [0x55] * 30
    script += [4, 3, 2, 0, 2, 1, 0, 1, 3]
    write("fuzz-noise", "transport", bytes([1] + script))


def websocket_frame(opcode, payload, mask=None, final=True):
    head = bytes([(0x80 if final else 0) | opcode])
    bit = 0x80 if mask is not None else 0
    if len(payload) < 126:
        head += bytes([bit | len(payload)])
    elif len(payload) < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", len(payload))
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", len(payload))
    if mask is None:
        return head + payload
    return head + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def websocket_seeds():
    mask = bytes([0x37, 0xFA, 0x21, 0x3D])
    stream = [
        (2, b"\x01" * 300, True), (1, "héllo".encode(), True), (9, b"ping", True), (1, b"frag", False),
        (10, b"", True), (0, b"mented", True), (8, struct.pack(">H", 1000) + b"bye", True),
    ]
    for role, masked in ((0, None), (1, mask)):
        data = b"".join(websocket_frame(op, payload, masked, final) for op, payload, final in stream)
        write("fuzz-websocket", f"stream-{role}", bytes([role, 0, 7]) + data)
        write("fuzz-websocket", f"stream-small-{role}", bytes([role, 1, 0]) + data)
    request = (
        "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://example.com\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    response = (
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    )
    write("fuzz-websocket", "request", bytes([2]) + request.encode())
    write("fuzz-websocket", "response", bytes([3]) + response.encode())


SEAL_KEY = bytes([0x5E]) * 32
SITE = "0123456789abcdef"
SEALED_NAMES = [("snapshot", 1), ("home", 2), ("ring", 3), ("tiles", 4), ("prefs", 5)]


def sealed_file(index, contents):
    prefix, kind = SEALED_NAMES[index]
    header = b"FTWS" + bytes([1, kind]) + SITE.encode()
    nonce = hashlib.sha256(header + contents).digest()[:12]  # fixed, so a rerun changes no seed
    associated = header + f"{prefix}-{SITE}".encode()
    return header + nonce + AESGCM(SEAL_KEY).encrypt(nonce, contents, associated)


def sealed_seeds():
    for index, (prefix, _) in enumerate(SEALED_NAMES):
        contents = f"the {prefix} of a home".encode() * (index + 1)
        write("fuzz-sealed", f"open-{prefix}", bytes([0, index]) + sealed_file(index, contents))
        write("fuzz-sealed", f"name-{prefix}", bytes([2]) + f"{prefix}-{SITE}".encode())
    write("fuzz-sealed", "open-empty", bytes([0, 0]) + sealed_file(0, b""))
    write("fuzz-sealed", "reseal", bytes([1, 2, 2]) + bytes(range(8)) + b"five minutes of the ring")


def scenario_seeds():
    tests = ("Apps", "Headless", "Tests", "HeadlessToolingTests")
    texts = re.findall(r'"""\n(.*?)"""', read(*tests, "ScenarioParserTests.swift"), re.S)
    texts += re.findall(r"/// ```\n(.*?)/// ```", read("Apps", "Headless", "Sources", "HeadlessTooling", "Scenario",
                                                       "ScenarioParser.swift"), re.S)
    texts += re.findall(r'"""\n(.*?)"""', read(*tests, "ScenarioVerbParserTests.swift"), re.S)
    for index, text in enumerate(texts):
        lines = [re.sub(r"^\s*(/// )?", "", line) for line in text.split("\n")]
        write("fuzz-scenario", f"tests-{index:02d}", "\n".join(lines).encode())
    write("fuzz-scenario", "durations", b"wait 500ms; wait 5s; wait 2m; wait 1h; wait 1m30s; wait 1h2m3s4ms; wait 7d\n")


def finding_seeds():
    """What the fuzzers found (Tools/Fuzz/README.md), so every run starts by checking them again."""
    nan_keys = bytes.fromhex("a2" + "fb7ff8000000000001" + "00" + "fb7ff8000000000002" + "00")
    write("fuzz-cbor", "finding-nan-keys", nan_keys)
    nan_sub = bytes.fromhex("a2" + "6174" + "63737562" + "6162" + "a2" + "666275636b6574" + "190100" + "62687a"
                            + "fb7ff8000000000001")
    header = bytes([1, 0, 0, 0, 0, len(nan_sub)])
    write("fuzz-frame", "finding-nan-hz", header + nan_sub + bytes(256 - len(header) - len(nan_sub)))
    write("fuzz-scenario", "finding-duration-overflow", b"launch\nwait 4187659681844312291s\n")


def main():
    for entry in os.listdir(SEEDS):
        if os.path.isdir(os.path.join(SEEDS, entry)):
            shutil.rmtree(os.path.join(SEEDS, entry))
    cbor_seeds()
    frame_seeds()
    message_seeds()
    noise_seeds()
    websocket_seeds()
    sealed_seeds()
    scenario_seeds()
    finding_seeds()
    for entry in sorted(os.listdir(SEEDS)):
        folder = os.path.join(SEEDS, entry)
        if os.path.isdir(folder):
            files = os.listdir(folder)
            size = sum(os.path.getsize(os.path.join(folder, name)) for name in files)
            print(f"{entry}: {len(files)} seeds, {size} bytes")


if __name__ == "__main__":
    main()
