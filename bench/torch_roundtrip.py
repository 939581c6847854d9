"""PyTorch eager reference for BenchmarkRoundTrip in runtime/bench_test.go.

Times (a + b) * c on n = 4096 float32 elements followed by
torch.cuda.synchronize(), the same writer -> reader round trip the runtime's
benchmark evaluates, and prints microseconds per round trip.

Usage: python3 bench/torch_roundtrip.py [--n 4096] [--iters 20000] [--repeats 5]
"""

import argparse
import time

import torch


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--iters", type=int, default=20000)
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()

    dev = torch.device("cuda")
    a = torch.arange(args.n, dtype=torch.float32, device=dev)
    b = torch.ones(args.n, dtype=torch.float32, device=dev)
    c = torch.full((args.n,), 2.0, dtype=torch.float32, device=dev)
    want = (a + b) * c

    for _ in range(1000):  # warm-up: kernels, caching allocator
        r = (a + b) * c
        torch.cuda.synchronize()
    assert torch.equal(r, want)

    best = float("inf")
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for _ in range(args.iters):
            r = (a + b) * c
            torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / args.iters)
    print(f"torch {torch.__version__} {torch.cuda.get_device_name()}: "
          f"(a+b)*c n={args.n} + synchronize: {best * 1e6:.2f} us per round trip "
          f"(best of {args.repeats} x {args.iters})")


if __name__ == "__main__":
    main()
