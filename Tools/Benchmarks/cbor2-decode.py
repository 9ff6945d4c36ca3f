"""The baseline of `ftw-bench cbor`: Python's cbor2 decoding the envelopes given as hex lines on stdin.

    python3 cbor2-decode.py PASSES ROUNDS < envelopes.hex

Prints the best round's seconds per envelope and whether cbor2's `loads` is the native extension, or `missing` when
cbor2 is not installed. `ftw-bench cbor mix` prints the envelopes; with ROUNDS 1 the script runs under callgrind.
"""
import sys
import time

try:
    import cbor2
except ImportError:
    print("missing")
    sys.exit(0)

loads = cbor2.loads
kind = "native" if type(loads).__name__ == "builtin_function_or_method" else "pure Python"
mix = [bytes.fromhex(line) for line in sys.stdin.read().split()]
passes, rounds = int(sys.argv[1]), int(sys.argv[2])
best = None
for _ in range(rounds):
    start = time.perf_counter()
    for _ in range(passes):
        for envelope in mix:
            loads(envelope)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(best / (passes * len(mix)), kind)
