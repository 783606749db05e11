"""Writes an old-format fixture through a Stratus build's HTTP API, as its users would.

Usage: make-fixture.py --stratus BIN --data DIR [--database POSTGRES_URL]

Starts `BIN serve` on DIR (and, with --database, on that PostgreSQL database), then as user
`fixture-alice` (password `fixture password`) in container iCloud.test.stratus:

  zone Notes      note-1 (text, number, list, an asset file), saved from device `phone` and then
                  changed from device `laptop`; note-2 (a DELETE_SELF reference to note-1); `gone`,
                  created and deleted; 300 more records item-000 ... item-299 from device `phone`
  subscription    `notes`, on zone Notes
  public          `notice-1`, a record of type Notice

and prints Notes' change token after those writes. Tests/StratusServerTests/RecordFormatTests.swift
reads the fixture it made from f60165d (the last build of record format 1).
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import time

CONTAINER = "iCloud.test.stratus"
PASSWORD = "fixture password"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None, headers=None, raw=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    response = connection.getresponse()
    payload = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {payload[:400]!r}")
    return json.loads(payload) if payload else {}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stratus", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--database")
    arguments = parser.parse_args()
    store = ["--data", arguments.data] + (["--database", arguments.database] if arguments.database else [])
    port = free_port()
    server = subprocess.Popen([arguments.stratus, "serve", *store, "--port", str(port), "--container", CONTAINER, "--log-level", "error"],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                call(port, "GET", "/healthz")
                break
            except (OSError, SystemExit):
                time.sleep(0.1)
        token = subprocess.run([arguments.stratus, "container", "token", *store, "--container", CONTAINER],
                               check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        query = f"?ckAPIToken={token}"
        signup = call(port, "POST", f"/auth/1/{CONTAINER}/development/signup{query}", {"username": "fixture-alice", "password": PASSWORD})
        auth = {"Authorization": f"Bearer {signup['ckWebAuthToken']}"}
        private = f"/database/1/{CONTAINER}/development/private"
        public = f"/database/1/{CONTAINER}/development/public"

        def post(database, endpoint, body, device="phone"):
            return call(port, "POST", f"{database}/{endpoint}{query}", body, {**auth, "X-Stratus-Device-ID": device})

        notes = {"zoneName": "Notes"}
        post(private, "zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": notes}}]})
        upload = post(private, "assets/upload", {"tokens": [{"recordType": "Note", "fieldName": "file"}]})["tokens"][0]["url"]
        path = upload.split(f"127.0.0.1:{port}", 1)[1]
        receipt = call(port, "POST", path, raw=b"fixture asset bytes written by the f60165d build", headers=auth)["singleFile"]
        saved = post(private, "records/modify", {"zoneID": notes, "operations": [
            {"operationType": "create", "record": {"recordName": "note-1", "recordType": "Note", "fields": {
                "title": {"value": "Written in record format 1"}, "count": {"value": 42, "type": "INT64"},
                "tags": {"value": ["a", "b"], "type": "STRING_LIST"}, "file": {"value": receipt, "type": "ASSETID"}}}},
            {"operationType": "create", "record": {"recordName": "gone", "recordType": "Note", "fields": {"title": {"value": "soon gone"}}}},
        ]})["records"]
        note = saved[0]
        post(private, "records/modify", {"zoneID": notes, "operations": [
            {"operationType": "update", "record": {"recordName": "note-1", "recordType": "Note", "recordChangeTag": note["recordChangeTag"],
                                                   "fields": {"count": {"value": 43, "type": "INT64"}}}},
            {"operationType": "create", "record": {"recordName": "note-2", "recordType": "Note", "fields": {
                "title": {"value": "Points at note-1"},
                "about": {"value": {"recordName": "note-1", "action": "DELETE_SELF"}, "type": "REFERENCE"}}}},
            {"operationType": "forceDelete", "record": {"recordName": "gone"}},
        ]}, device="laptop")
        for start in range(0, 300, 100):
            post(private, "records/modify", {"zoneID": notes, "operations": [
                {"operationType": "create", "record": {"recordName": f"item-{i:03d}", "recordType": "Item",
                                                       "fields": {"title": {"value": f"Item {i}"}, "n": {"value": i, "type": "INT64"}}}}
                for i in range(start, start + 100)]})
        post(private, "subscriptions/modify", {"operations": [{"operationType": "create", "subscription": {
            "subscriptionID": "notes", "subscriptionType": "zone", "zoneID": notes}}]})
        post(public, "records/modify", {"operations": [{"operationType": "create", "record": {
            "recordName": "notice-1", "recordType": "Notice", "fields": {"title": {"value": "Public, from format 1"}}}}]})
        zone = {"zoneID": notes}
        while True:
            changes = post(private, "changes/zone", {"zones": [zone]})["zones"][0]
            zone["syncToken"] = changes["syncToken"]
            if not changes["moreComing"]:
                break
        print(changes["syncToken"])
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
