#!/usr/bin/env python3
"""Issue #83's figures: the release demo's `orders watch` against the sample API's /events.

    swift build -c release --product demo
    python3 Benchmarks/push.py latency [ROUNDS] [PAUSE]   # a change made elsewhere, until shown
    python3 Benchmarks/push.py idle                       # requests of a watch left alone 60 s
    python3 Benchmarks/push.py burst                      # GET /orders during 1,000 events in 10 s

Each starts the sample API on a free port and a watch on a database of its own in a temporary
folder, and prints what it measured. The waits here pace a benchmark; no test uses them.
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, ".build", "release", "demo")
SEED = json.load(open(os.path.join(ROOT, "Examples", "api", "orders.json")))[0]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Setup:
    """The sample API, logging its requests, and a watch with its output read line by line."""

    def __init__(self, refresh):
        self.folder = tempfile.mkdtemp()
        self.port = free_port()
        self.api = "http://127.0.0.1:%d" % self.port
        self.log_path = os.path.join(self.folder, "api.log")
        log = open(self.log_path, "w")
        self.server = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "Examples", "api", "server.py"), str(self.port)], stdout=log,
            stderr=log)
        self.wait_for(lambda: self.requests("Sample API") or os.path.getsize(self.log_path) > 0, 10)
        self.lines, self.lock = [], threading.Lock()
        self.watch = subprocess.Popen(
            [DEMO, "orders", "watch", "--api", self.api, "--refresh", str(refresh), "--database",
             os.path.join(self.folder, "watch.sqlite")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in iter(self.watch.stdout.readline, b""):
            with self.lock:
                self.lines.append((time.monotonic(), line.decode("utf-8", "replace")))

    def shown(self, text, after=0):
        with self.lock:
            return next((at for at, line in self.lines if at >= after and text in line), None)

    def requests(self, prefix):
        return sum(1 for line in open(self.log_path) if prefix in line)

    @staticmethod
    def wait_for(condition, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not condition():
            time.sleep(0.005)

    def create(self, first_name):
        order = {key: value for key, value in SEED.items() if key not in ("id", "version")}
        order["firstName"] = first_name
        request = urllib.request.Request(
            self.api + "/orders", data=json.dumps(order).encode(), headers={"Content-Type": "application/json"},
            method="POST")
        urllib.request.urlopen(request).read()

    def stop(self):
        self.watch.stdin.close()
        self.watch.wait(timeout=60)
        self.server.kill()


def latency(rounds=20, pause=1.0):
    setup = Setup(refresh=60)
    setup.wait_for(lambda: setup.shown("Live:"), 30)
    delays = []
    for index in range(rounds):
        name = "Pushed%03d" % index
        setup.create(name)
        sent = time.monotonic()
        setup.wait_for(lambda: setup.shown(name, sent), 90)
        delays.append(((setup.shown(name, sent) or float("inf")) - sent) * 1000)
        time.sleep(pause)
    setup.stop()
    print("live: %s; shown after (ms): %s" % (bool(setup.shown("Live:")), [round(delay) for delay in delays]))
    print("median %.0f ms, max %.0f ms (--refresh 60)" % (statistics.median(delays), max(delays)))


def idle():
    setup = Setup(refresh=30)
    setup.wait_for(lambda: setup.shown("Live:"), 30)
    before = setup.requests('"')
    time.sleep(60)
    after = setup.requests('"')
    setup.stop()
    print("requests in 60 s idle with the stream up: %d (GET /events: %d in all)" % (
        after - before, setup.requests('"GET /events')))


def burst():
    setup = Setup(refresh=60)
    setup.wait_for(lambda: setup.shown("Live:"), 30)
    before = setup.requests('"GET /orders')
    start = time.monotonic()
    for index in range(1000):
        setup.create("Burst%04d" % index)
        time.sleep(max(0, start + (index + 1) / 100 - time.monotonic()))
    elapsed = time.monotonic() - start
    time.sleep(3)
    after = setup.requests('"GET /orders')
    setup.stop()
    print("1,000 events in %.1f s: %d GET /orders" % (elapsed, after - before))


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "latency"
    if command == "latency":
        latency(int(sys.argv[2]) if len(sys.argv) > 2 else 20, float(sys.argv[3]) if len(sys.argv) > 3 else 1.0)
    elif command == "idle":
        idle()
    elif command == "burst":
        burst()
    else:
        sys.exit(__doc__)
