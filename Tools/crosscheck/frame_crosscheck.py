#!/usr/bin/env python3
"""Checks ftw-frame's frames against cbor2 (FrameCrossCheckTests runs it when FTW_CROSSCHECK=1).

stdin: one message a line, `<json>\t<frame hex>`: the message as ftw-frame's JSON (see CBORJSON) and the frame
ftw-frame encoded for it. For each line this decodes the frame with its own header rules and cbor2, compares the
envelope with the JSON value by value (types, order and float bits included), checks the bytes of box-side bodies
against cbor2's canonical encoding, and prints `ok <hex>`: the same envelope written by cbor2 its own way (keys
shuffled, floats at full width or shortest), for the test to read back with our decoder. A line that disagrees
prints `mismatch <line number>: <what>`.
"""
import json
import random
import struct
import sys

import cbor2

CONTROL = {"hello", "sub", "cmd", "tick", "delta", "cmd.ack", "cmd.result", "error", "session.terminate", "event"}
APP_SIDE = {"hello", "sub", "plan.get", "price.get", "hist.query", "api.req", "cmd"}
BULK_BUCKETS = [1024, 4096, 16384]


def from_json_pairs(pairs):
    """ftw-frame's $ forms (see CBORJSON) as cbor2's Python values; other objects as ordered dicts."""
    if pairs and pairs[0][0].startswith("$"):
        name, value = pairs[0]
        if name == "$bytes":
            return bytes.fromhex(value)
        if name == "$float":
            return float(value.replace("Infinity", "inf").replace("NaN", "nan"))
        if name == "$undefined":
            return cbor2.undefined
        if name == "$simple":
            return cbor2.CBORSimpleValue(value)
        if name == "$tag":
            return cbor2.CBORTag(value, pairs[1][1])
        if name == "$map":
            return {key: item for key, item in value}
        raise ValueError(f"unknown form {name}")
    return dict(pairs)


def same(ours, theirs, path="$"):
    """None when the values are the same CBOR item (bool is not int, float bits count), else where they differ."""
    if type(ours) is not type(theirs):
        return f"{path}: {type(ours).__name__} vs {type(theirs).__name__}"
    if isinstance(ours, float):
        equal = (ours != ours and theirs != theirs) or struct.pack(">d", ours) == struct.pack(">d", theirs)
        return None if equal else f"{path}: {ours!r} vs {theirs!r}"
    if isinstance(ours, dict):
        if list(ours) != list(theirs):
            return f"{path}: keys {list(ours)} vs {list(theirs)}"
        for key in ours:
            found = same(ours[key], theirs[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(ours, list):
        if len(ours) != len(theirs):
            return f"{path}: {len(ours)} vs {len(theirs)} items"
        for index, (left, right) in enumerate(zip(ours, theirs)):
            found = same(left, right, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if ours == theirs else f"{path}: {ours!r} vs {theirs!r}"


def check_frame(frame, message_type):
    """The payload, after checking the header and padding as protocol.md §1.2-1.3 describes them."""
    if len(frame) < 6 or frame[0] != 1 or frame[3] != 0:
        raise ValueError("bad header")
    length = frame[4] << 8 | frame[5]
    lane = 0 if message_type in CONTROL else 1
    if frame[1] != lane:
        raise ValueError(f"{message_type} on lane {frame[1]}, not {lane}")
    if lane == 0 and len(frame) not in (256, 512):
        raise ValueError(f"lane 0 frame of {len(frame)} bytes")
    if lane == 1 and len(frame) != min(size for size in BULK_BUCKETS if size >= 6 + length):
        raise ValueError(f"bulk frame of {len(frame)} bytes for a {length}-byte payload")
    if any(frame[6 + length:]):
        raise ValueError("padding is not zero")
    return frame[6:6 + length]


def box_envelope(value):
    """A box-side envelope as the box writes it: t, id, b in that order, the body in canonical order."""
    out = bytearray([0xA0 + len(value)])
    for key in ("t", "id", "b"):
        if key in value:
            out += cbor2.dumps(key) + cbor2.dumps(value[key], canonical=(key == "b"))
    return bytes(out)


def shuffled(value, chooser):
    if isinstance(value, dict):
        items = [(key, shuffled(item, chooser)) for key, item in value.items()]
        chooser.shuffle(items)
        return dict(items)
    if isinstance(value, list):
        return [shuffled(item, chooser) for item in value]
    return value


def main():
    chooser = random.Random(20261202)
    for number, line in enumerate(sys.stdin.buffer.read().decode("utf-8").splitlines(), start=1):
        text, frame_hex = line.split("\t")
        expected = json.loads(text, object_pairs_hook=from_json_pairs)
        try:
            payload = check_frame(bytes.fromhex(frame_hex), expected["t"])
            decoded = cbor2.loads(payload)
        except Exception as error:  # noqa: BLE001 - any refusal is a mismatch to report
            print(f"mismatch {number}: {error}")
            continue
        difference = same(expected, decoded)
        if difference is None and expected["t"] not in APP_SIDE and box_envelope(decoded) != payload:
            difference = "not the box's canonical bytes"
        if difference:
            print(f"mismatch {number}: {difference}")
            continue
        print("ok", cbor2.dumps(shuffled(decoded, chooser), canonical=chooser.random() < 0.3).hex())


if __name__ == "__main__":
    main()
