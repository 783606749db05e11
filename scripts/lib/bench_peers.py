"""Runs one workload against Stratus and against PocketBase, one after the other, on loopback.

Usage: bench_peers.py --stratus BIN --pocketbase BIN [--records 20000] [--small 1000] [--clients keep-alive|plain|both]
                      [--markdown FILE]

Both servers start on free ports in temporary directories; each gets a user who owns the data, and
the same requests go to each, from this one Python process on keep-alive connections:

  writes            RECORDS records created in batches of 400 (Stratus: records/modify; PocketBase:
                    its batch API, enabled for the run)
  full sync         every record read back page by page, as a client syncing from scratch does
                    (Stratus: changes/zone, CloudKit's page of 200; PocketBase: its largest page,
                    1,000, keyset-paged by (updated, id)); the median of 5 passes
  last 100          100 new records, then the time to fetch only them from the last sync position,
                    in a collection of RECORDS and of SMALL records (median of 20)
  realtime          send -> event: one record written, the time until each subscriber hears of it,
                    with 1 and 100 subscribers (Stratus: push WebSockets; PocketBase: its SSE realtime)
  RSS               each server's peak resident memory

Records have three fields (a 24-character title, an integer, a boolean). Only the standard library.

With --clients plain, the client is the simplest that works, as an app's own script would be: every request on
a new connection (`Connection: close`, no keep-alive), and Stratus's record names random UUIDs (as
clients make them; PocketBase makes its own random ids either way) instead of r0, r1, ...
"""
import argparse
import asyncio
import base64
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

BATCH = 400
PASSWORD = "peer-benchmark-password"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, path, deadline=60):
    end = time.time() + deadline
    while time.time() < end:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", path)
            if c.getresponse().status < 500:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"no server on port {port}")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def record_fields(index):
    return {"title": f"item number {index:012d}", "n": index, "done": index % 2 == 0}


PLAIN = False


class Client:
    """One keep-alive HTTP connection; with --plain, a new connection for each request."""

    def __init__(self, port, headers):
        self.port = port
        self.headers = headers
        self.connection = None if PLAIN else http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        connection = self.connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        if self.connection is None:
            headers["Connection"] = "close"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        if self.connection is None:
            connection.close()
        if response.status >= 300:
            raise SystemExit(f"{method} {path}: {response.status} {payload[:300]!r}")
        return json.loads(payload) if payload else {}


class Server:
    """A server binary run in a temporary directory on a free port."""

    def __init__(self, binary, directory):
        self.binary, self.directory = binary, directory
        self.port = free_port()
        self.version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()

    def launch(self, arguments, health):
        """Starts the server with `arguments` and waits until `health` answers."""
        self.process = subprocess.Popen([self.binary, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.port, health)


class Stratus(Server):
    name = "Stratus"
    container = "iCloud.dev.stratus"

    def start(self):
        data = os.path.join(self.directory, "stratus-data")
        self.launch(["serve", "--data", data, "--port", str(self.port), "--log-level", "error", "--push-connections-per-user", "128"], "/healthz")
        token = subprocess.run([self.binary, "container", "token", "--data", data], check=True, capture_output=True, text=True)
        self.api = token.stdout.strip().splitlines()[-1]
        signup = Client(self.port, {}).call("POST", f"/auth/1/{self.container}/development/signup?ckAPIToken={self.api}",
                                            {"username": "peer", "password": PASSWORD})
        self.web_token = signup["ckWebAuthToken"]
        self.client = Client(self.port, {"Authorization": f"Bearer {self.web_token}"})
        self.db = f"/database/1/{self.container}/development/private"
        for zone in ("Large", "Small", "Live"):
            self.post("zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": zone}}}]})
        self.post("subscriptions/modify", {"operations": [{"operationType": "create", "subscription": {
            "subscriptionID": "live", "subscriptionType": "zone", "zoneID": {"zoneName": "Live"}}}]})

    def settings(self):
        return "synchronous = FULL (every commit fsynced), WAL; --push-connections-per-user 128"

    def post(self, endpoint, body):
        return self.client.call("POST", f"{self.db}/{endpoint}?ckAPIToken={self.api}", body)

    def create(self, collection, indices):
        self.post("records/modify", {"zoneID": {"zoneName": collection}, "operations": [
            {"operationType": "create", "record": {"recordName": str(uuid.uuid4()) if PLAIN else f"r{i}", "recordType": "Item", "fields": {
                "title": {"value": f["title"]}, "n": {"value": f["n"], "type": "INT64"}, "done": {"value": int(f["done"]), "type": "INT64"}}}}
            for i, f in ((i, record_fields(i)) for i in indices)]})

    def sync(self, collection, position=None):
        """Every change after `position`: (records, the new position)."""
        count = 0
        while True:
            zone = {"zoneID": {"zoneName": collection}, "resultsLimit": 200}
            if position:
                zone["syncToken"] = position
            answer = self.post("changes/zone", {"zones": [zone]})["zones"][0]
            count += len(answer["records"])
            position = answer["syncToken"]
            if not answer["moreComing"]:
                return count, position

    async def subscribe(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        path = f"/push/1/{self.container}/development/websocket?ckAPIToken={self.api}&ckWebAuthToken={self.web_token}"
        writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await reader.readuntil(b"\r\n\r\n")
        await self.next_event((reader, writer))  # the "fetch to catch up" each connection starts with
        return reader, writer

    @staticmethod
    async def next_event(subscriber):
        reader, writer = subscriber
        while True:
            first, second = await reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(await reader.readexactly(2), "big")
            elif length == 127:
                length = int.from_bytes(await reader.readexactly(8), "big")
            payload = await reader.readexactly(length)
            if first & 0x0F == 1:
                return payload
            if first & 0x0F == 9:
                writer.write(bytes([0x8A, 0x80 | length]) + b"\0\0\0\0" + payload)

    def send_one(self, index):
        self.create("Live", [index])


class PocketBase(Server):
    name = "PocketBase"

    def start(self):
        data = os.path.join(self.directory, "pb_data")
        subprocess.run([self.binary, "superuser", "upsert", "bench@example.com", PASSWORD, "--dir", data], check=True, capture_output=True)
        self.launch(["serve", "--http", f"127.0.0.1:{self.port}", "--dir", data], "/api/health")
        anyone = Client(self.port, {})
        admin = anyone.call("POST", "/api/collections/_superusers/auth-with-password", {"identity": "bench@example.com", "password": PASSWORD})
        root = Client(self.port, {"Authorization": admin["token"]})
        root.call("PATCH", "/api/settings", {"batch": {"enabled": True, "maxRequests": BATCH, "timeout": 60, "maxBodySize": 0}})
        owner = "owner = @request.auth.id"
        for collection in ("large", "small", "live"):
            root.call("POST", "/api/collections", {
                "name": collection, "type": "base",
                "fields": [{"name": "title", "type": "text"}, {"name": "n", "type": "number"}, {"name": "done", "type": "bool"},
                           {"name": "owner", "type": "relation", "collectionId": "_pb_users_auth_", "maxSelect": 1, "required": True},
                           {"name": "created", "type": "autodate", "onCreate": True},
                           {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}],
                "indexes": [f"CREATE INDEX idx_{collection}_updated ON {collection} (updated, id)"],
                "listRule": owner, "viewRule": owner, "createRule": "@request.auth.id != '' && @request.body.owner = @request.auth.id"})
        anyone.call("POST", "/api/collections/users/records", {"email": "peer@example.com", "password": PASSWORD, "passwordConfirm": PASSWORD})
        user = anyone.call("POST", "/api/collections/users/auth-with-password", {"identity": "peer@example.com", "password": PASSWORD})
        self.token, self.user = user["token"], user["record"]["id"]
        self.client = Client(self.port, {"Authorization": self.token})

    def settings(self):
        return "its defaults: WAL, synchronous = NORMAL (commits not fsynced); batch API enabled (400 requests)"

    def body(self, index):
        return dict(record_fields(index), owner=self.user)

    def create(self, collection, indices):
        self.client.call("POST", "/api/batch", {"requests": [
            {"method": "POST", "url": f"/api/collections/{collection.lower()}/records", "body": self.body(i)} for i in indices]})

    def sync(self, collection, position=None):
        count = 0
        while True:
            query = "perPage=1000&skipTotal=1&sort=updated,id&fields=id,updated,title,n,done,owner,created"
            if position:
                updated, ident = position
                flt = f"(updated > '{updated}' || (updated = '{updated}' && id > '{ident}'))"
                query += "&filter=" + urllib.parse.quote(flt)
            items = self.client.call("GET", f"/api/collections/{collection.lower()}/records?{query}")["items"]
            count += len(items)
            if items:
                position = (items[-1]["updated"], items[-1]["id"])
            if len(items) < 1000:
                return count, position

    async def subscribe(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(b"GET /api/realtime HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        await reader.readuntil(b"\r\n\r\n")
        connect = json.loads(await self.next_event((reader, writer)))
        client = Client(self.port, {"Authorization": self.token})
        await asyncio.to_thread(client.call, "POST", "/api/realtime", {"clientId": connect["clientId"], "subscriptions": ["live"]})
        return reader, writer

    @staticmethod
    async def next_event(subscriber):
        reader, _ = subscriber
        data = b""
        while True:
            line = (await reader.readline()).rstrip(b"\r\n")
            if line.startswith(b"data:"):
                data += line[5:].strip()
            elif not line and data:
                return data

    def send_one(self, index):
        self.client.call("POST", "/api/collections/live/records", self.body(index))


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


async def realtime(server, subscribers, trials, start):
    opened = [await server.subscribe() for _ in range(subscribers)]
    latencies = []
    for trial in range(trials):
        waits = [asyncio.create_task(server.next_event(s)) for s in opened]
        await asyncio.sleep(0.01)
        sent = time.perf_counter()
        await asyncio.to_thread(server.send_one, start + trial)
        for wait in asyncio.as_completed(waits):
            await wait
            latencies.append((time.perf_counter() - sent) * 1000)
    for _, writer in opened:
        writer.close()
    return statistics.median(latencies), percentile(latencies, 99)


def measure(server, records, small):
    figures = {}
    started = time.perf_counter()
    for start in range(0, records, BATCH):
        server.create("Large", range(start, min(start + BATCH, records)))
    figures["writes_records_per_s"] = records / (time.perf_counter() - started)
    for start in range(0, small, BATCH):
        server.create("Small", range(start, min(start + BATCH, small)))
    # One pass takes Stratus about 0.13 s, so a single pass moved with whatever else the machine did
    # (127,600-168,000 records/s over five runs); the median of five passes is the figure.
    passes = []
    for _ in range(5):
        started = time.perf_counter()
        count, position = server.sync("Large")
        passes.append(time.perf_counter() - started)
        assert count == records, f"{server.name} synced {count} of {records}"
    figures["full_sync_records_per_s"] = records / statistics.median(passes)
    _, small_position = server.sync("Small")
    for collection, at, key in (("Large", position, f"last100_of_{records}_ms"), ("Small", small_position, f"last100_of_{small}_ms")):
        base = records if collection == "Large" else small
        server.create(collection, range(base, base + 100))
        times = []
        for _ in range(20):
            started = time.perf_counter()
            count, _ = server.sync(collection, at)
            times.append((time.perf_counter() - started) * 1000)
            assert count == 100, f"{server.name} fetched {count} of the last 100"
        figures[key] = statistics.median(times)
    for subscribers, trials in ((1, 200), (100, 50)):
        p50, p99 = asyncio.run(realtime(server, subscribers, trials, 1_000_000 * subscribers))
        figures[f"realtime_p50_ms_{subscribers}"] = p50
        figures[f"realtime_p99_ms_{subscribers}"] = p99
    figures["peak_rss_mib"] = peak_rss_mib(server.process.pid)
    return figures


# Each figure, and its target for Stratus / PocketBase (issue 42).
TARGETS = [
    ("writes_records_per_s", ">= 3"),
    ("full_sync_records_per_s", ">= 3"),
    ("last100_of_{records}_ms", "<= 0.5"),
    ("last100_of_{small}_ms", "<= 0.5"),
    ("realtime_p50_ms_1", ""),
    ("realtime_p99_ms_1", ""),
    ("realtime_p50_ms_100", ""),
    ("realtime_p99_ms_100", "<= 0.5"),
    ("peak_rss_mib", ""),
]

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stratus", required=True)
    parser.add_argument("--pocketbase", required=True)
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--clients", choices=["keep-alive", "plain", "both"], default="keep-alive",
                        help="plain: a new connection per request and random record names")
    parser.add_argument("--markdown")
    arguments = parser.parse_args()
    tables = [run(arguments, plain) for plain in {"keep-alive": [False], "plain": [True], "both": [False, True]}[arguments.clients]]
    if arguments.markdown:
        with open(arguments.markdown, "w") as f:
            f.write("\n\n".join(tables) + "\n")


def run(arguments, plain):
    """Measures both servers with one kind of client; prints the table and returns it."""
    global PLAIN
    PLAIN = plain
    results, servers = {}, []
    for kind, binary in ((Stratus, arguments.stratus), (PocketBase, arguments.pocketbase)):
        with tempfile.TemporaryDirectory() as directory:
            server = kind(binary, directory)
            server.start()
            try:
                print(f"{server.name} {server.version}: running", file=sys.stderr, flush=True)
                results[server.name] = measure(server, arguments.records, arguments.small)
            finally:
                server.process.terminate()
                server.process.wait()
            servers.append(server)
    lines = [f"Stratus: {servers[0].version}; {servers[0].settings()}",
             f"PocketBase: {servers[1].version}; {servers[1].settings()}",
             f"{arguments.records:,} records (and {arguments.small:,}), batches of {BATCH}, one Python client on loopback, {os.cpu_count()} cores"
             + ("; plain client: a new connection per request, random record names" if PLAIN else "; keep-alive connections"),
             "", "| figure | Stratus | PocketBase | Stratus / PocketBase | target |", "| --- | --- | --- | --- | --- |"]
    for pattern, target in TARGETS:
        name = pattern.format(records=arguments.records, small=arguments.small)
        ours, theirs = results["Stratus"][name], results["PocketBase"][name]
        lines.append(f"| `{name}` | {ours:.2f} | {theirs:.2f} | {ours / theirs:.2f} | {target} |")
    print("\n".join(lines) + "\n", flush=True)
    return "\n".join(lines)


if __name__ == "__main__":
    main()
