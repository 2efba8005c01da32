#!/usr/bin/env python3
"""Times whole processes side by side, as a user runs them.

Usage: processes.py --runs N [--sentences S] NAME COMMAND [NAME COMMAND ...]

The commands run alternately (A B A B ...), so a machine that slows down part-way slows both alike. For each: the
median wall-clock time of N runs, and the peak resident memory (ru_maxrss of the child). With --sentences, the rate
per second; the last line gives each command's time relative to the first one's.
"""
import argparse
import resource
import statistics
import subprocess
import time


def run_once(command):
    start = time.perf_counter()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    return elapsed


def peak_memory(command):
    out = subprocess.run(
        ["python3", "-c",
         "import resource,subprocess,sys;"
         "subprocess.run(sys.argv[1],shell=True,check=True,stdout=subprocess.DEVNULL);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)", command],
        check=True, capture_output=True, text=True)
    return int(out.stdout.strip()) / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sentences", type=int)
    parser.add_argument("pairs", nargs="+")
    args = parser.parse_args()
    names, commands = args.pairs[0::2], args.pairs[1::2]
    times = {name: [] for name in names}
    for _ in range(args.runs):
        for name, command in zip(names, commands):
            times[name].append(run_once(command))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, command in zip(names, commands):
        line = f"{name}: median {medians[name]:.3f} s of {args.runs} (best {min(times[name]):.3f} s)"
        if args.sentences:
            line += f", {args.sentences / medians[name]:,.0f} sentences/s"
        line += f", peak resident {peak_memory(command):.1f} MB"
        print(line)
    first = names[0]
    for name in names[1:]:
        print(f"{first} is {medians[name] / medians[first]:.1f}x as fast as {name} (whole processes, medians)")


if __name__ == "__main__":
    main()
