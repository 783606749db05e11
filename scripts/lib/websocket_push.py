"""Waits for push notifications over a Stratus push WebSocket (used by scripts/check-nginx.sh).

Usage: websocket_push.py WS_URL COUNT TRIGGER_COMMAND
Connects to WS_URL (ws://host:port/path?query), reads the first notification (the "fetch to catch
up" every connection begins with), runs TRIGGER_COMMAND in a shell, then waits for COUNT more
notifications and prints each. A minimal RFC 6455 client on the standard library, so the check needs
no WebSocket package.
"""
import base64
import os
import socket
import struct
import subprocess
import sys
import urllib.parse


def connect(url):
    parts = urllib.parse.urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    path = parts.path + ("?" + parts.query if parts.query else "")
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise SystemExit("the connection closed during the handshake")
        head += chunk
    status = head.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        raise SystemExit(f"handshake refused: {status.decode()}")
    return sock


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise SystemExit("the connection closed")
        data += chunk
    return data


def next_text(sock):
    while True:
        first, second = read_exactly(sock, 2)
        opcode, length = first & 0x0F, second & 0x7F
        if length == 126:
            length = struct.unpack(">H", read_exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", read_exactly(sock, 8))[0]
        mask = read_exactly(sock, 4) if second & 0x80 else None
        payload = read_exactly(sock, length)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        if opcode == 1:
            return payload.decode()
        if opcode == 8:
            raise SystemExit(f"the server closed the socket: {payload[2:].decode(errors='replace')}")
        if opcode == 9:  # ping: answer with a masked pong
            mask = os.urandom(4)
            sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def main():
    url, count, trigger = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sock = connect(url)
    print("connected:", next_text(sock), flush=True)
    subprocess.run(trigger, shell=True, check=True)
    for _ in range(count):
        print("notification:", next_text(sock), flush=True)


main()
