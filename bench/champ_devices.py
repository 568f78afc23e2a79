"""The championship bench's load generator: one device per table, sending its deals with
Idempotency-Keys round-robin across the web nodes, retrying a failure with the same key."""

from __future__ import annotations

import heapq
import http.client
import itertools
import json
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

HOST = "127.0.0.1"
RETRY_STATUSES = {409, 429}  # the key still held by a request that died, or a throttle
"""Besides 5xx: answers a device sends again with the same key."""


@dataclass
class Tally:
    """What the devices saw, counted under one lock."""

    ports: list[int]
    accepted: dict[str, int] = field(default_factory=dict)  # client id -> party id (a 2xx)
    keys: dict[str, str] = field(default_factory=dict)  # client id -> its Idempotency-Key
    latencies: list[float] = field(default_factory=list)  # ms of each answered request
    deal_ms: list[float] = field(default_factory=list)  # first send -> its 2xx, retries in
    statuses: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)  # no answer: the exception's name
    replays: int = 0
    retried: int = 0
    given_up: int = 0
    in_flight: Counter = field(default_factory=Counter)  # port -> requests under way
    started: dict[int, set[int]] = field(default_factory=dict)  # port -> ids of those
    kill: dict[str, object] = field(default_factory=dict)  # port, ids in flight at the kill
    kill_dropped: int = 0  # requests in flight at the kill cut (no answer, not refused)
    samples: list[str] = field(default_factory=list)  # the first 5xx answers
    strays: list[tuple[int, float, str]] = field(default_factory=list)  # cut, not at the kill
    lock: threading.Lock = field(default_factory=threading.Lock)


class Devices:
    """Every table's device: each sends ``deals`` deals, one after another, at a hall's pace."""

    def __init__(self, tally: Tally, token: str, party_ids: list[int], deals: int,
                 seconds: float, seed: int = 1) -> None:
        self.tally = tally
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.deals, self.seconds = deals, seconds
        self.interval = seconds / deals
        self.rng = random.Random(seed)
        self.turn = itertools.count()
        self.request_ids = itertools.count()
        start = time.monotonic() + 0.5
        self.start = start
        self.queue = [(start + self.rng.random() * self.interval, pid, 0) for pid in party_ids]
        heapq.heapify(self.queue)
        self.queue_lock = threading.Lock()
        self.deadline = start + seconds * 3 + 60  # bounded: a stuck run ends anyway

    def _post(self, port: int, party_id: int, body: bytes, key: str) -> tuple[int, bool]:
        """One request to one node; its status and whether it was a replay (raises on none)."""
        tally = self.tally
        rid = next(self.request_ids)
        with tally.lock:
            tally.in_flight[port] += 1
            tally.started.setdefault(port, set()).add(rid)
            if tally.kill.get("port") == port and tally.kill.get("killing"):
                tally.kill["ids"].add(rid)  # type: ignore[attr-defined]
        began = time.perf_counter()
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        status, error = 0, ""
        try:
            conn.request("POST", f"/api/v1/parties/{party_id}/deal/", body=body,
                         headers={**self.headers, "Idempotency-Key": key})
            response = conn.getresponse()
            answer = response.read()
            status = response.status
            with tally.lock:
                tally.latencies.append((time.perf_counter() - began) * 1000)
                tally.statuses[status] += 1
                if status >= 500 and len(tally.samples) < 3:
                    tally.samples.append(f"{status} from :{port}: {answer[:300]!r}")
            return status, response.getheader("Idempotent-Replayed") == "true"
        except (OSError, http.client.HTTPException) as exc:
            error = type(exc).__name__
            raise
        finally:
            conn.close()
            with tally.lock:
                tally.in_flight[port] -= 1
                tally.started[port].discard(rid)
                cut = error and error != "ConnectionRefusedError"
                if cut and rid in tally.kill.get("ids", ()):  # type: ignore[operator]
                    tally.kill_dropped += 1
                elif cut:
                    tally.strays.append((port, time.monotonic(), error))

    def send_deal(self, party_id: int) -> None:
        """One deal, sent until a node answers it other than with a 5xx, 409 or 429."""
        tally, rng = self.tally, self.rng
        side = rng.choice("ab")
        client_id, key = uuid.uuid4().hex, str(uuid.uuid4())
        body = json.dumps({"outcome": rng.choice(("domino", "fish")), "side": side,
                           "points": {"a": 0, "b": 0} | {side: rng.randint(1, 12)},
                           "client_id": client_id}).encode()
        began = time.perf_counter()
        for attempt in itertools.count():
            if attempt:
                with tally.lock:
                    tally.retried += 1
                time.sleep(min(2.0, 0.1 * attempt))
            if time.monotonic() > self.deadline:
                with tally.lock:
                    tally.given_up += 1
                return
            port = tally.ports[next(self.turn) % len(tally.ports)]
            try:
                status, replayed = self._post(port, party_id, body, key)
            except (OSError, http.client.HTTPException) as exc:
                with tally.lock:
                    tally.failures[type(exc).__name__] += 1
                continue
            if status >= 500 or status in RETRY_STATUSES:
                continue
            with tally.lock:
                if status < 300:
                    tally.accepted[client_id] = party_id
                    tally.keys[client_id] = key
                    tally.replays += replayed
                    tally.deal_ms.append((time.perf_counter() - began) * 1000)
            return

    def _worker(self) -> None:
        """Take the device whose next deal is due, send it, put the device back."""
        while True:
            with self.queue_lock:
                if not self.queue:
                    return
                due, party_id, sent = heapq.heappop(self.queue)
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            self.send_deal(party_id)
            if sent + 1 < self.deals:
                later = due + self.interval * self.rng.uniform(0.8, 1.2)
                with self.queue_lock:
                    heapq.heappush(self.queue, (later, party_id, sent + 1))

    def run(self, threads: int) -> threading.Thread:
        """Start the devices on ``threads`` client threads; a thread that joins them all."""
        pool = [threading.Thread(target=self._worker, daemon=True) for _ in range(threads)]
        for thread in pool:
            thread.start()

        def join() -> None:
            for thread in pool:
                thread.join(timeout=max(0.0, self.deadline - time.monotonic()) + 5)

        joiner = threading.Thread(target=join, daemon=True)
        joiner.start()
        return joiner


def mark_kill(tally: Tally, port: int) -> None:
    """Note the requests under way to ``port`` now and until :func:`killed` (it is killed)."""
    with tally.lock:
        tally.kill = {"port": port, "ids": set(tally.started.get(port, ())), "killing": True}


def killed(tally: Tally) -> int:
    """The node is dead: the count of the requests that were under way to it at its kill."""
    with tally.lock:
        tally.kill["killing"] = False
        return len(tally.kill["ids"])  # type: ignore[arg-type]
