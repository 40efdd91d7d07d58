#!/usr/bin/env python3
"""Loopback WebSocket (RFC 6455) server that plays a script, for the wx AQI tests.

    python3 Tests/Support/wsserver.py --script FILE [--port 0] [--log FILE]
        [--exit-with-parent] [--cert PEM --key PEM [--tls12]]

Binds 127.0.0.1, prints exactly one line "PORT <n>" on stdout, then serves until
killed (SIGTERM/SIGINT exit 0). Each accepted connection is handshaken
(Sec-WebSocket-Accept from Sec-WebSocket-Key) and then plays the next section of
the script; connections after the last section are upgraded and held open, silent.
With --cert and --key it speaks TLS, for wss:// (the tests make a certificate and
trust it through SSL_CERT_FILE); --tls12 caps it at TLS 1.2. A handshake that fails
counts no connection; the server name a client sends (SNI) is logged as "sni NAME"
(or "sni -" for none).

Script: one command per line; blank lines and lines starting with # are ignored;
a line "---" starts the section for the next connection.

    send TEXT            one text frame (TEXT is the rest of the line, as is)
    fragments N TEXT     TEXT as a text frame split into N fragments (continuations)
    binary TEXT          one binary frame holding TEXT's UTF-8 bytes
    ping TEXT            a ping; the client's pong is logged
    sleep MS             wait MS milliseconds
    close [CODE]         send a close frame (default 1000), wait up to 2 s for the
                         client's close frame, then close the socket
    drop                 close the socket at once, without a close frame
    hold                 keep the connection open until the client closes it
                         (the default at the end of a section)
    reject STATUS        (first line only) answer the handshake with HTTP STATUS
                         instead of upgrading, then close
    badaccept            (first line only) upgrade with a wrong Sec-WebSocket-Accept
    masked TEXT          one text frame, masked (servers must not mask: RFC 6455 5.1)

Server frames are not masked; client frames are unmasked and checked (a client
frame without a mask is logged as "error unmasked"). With --log, one line per
event is appended and flushed: "connect N PATH", "text N PAYLOAD",
"pong N PAYLOAD", "close N CODE", "end N".

Python 3.11 standard library only.
"""

import argparse
import base64
import hashlib
import socket
import struct
import sys
import threading
import time

from loopback import exit_on_signals_and_with_parent

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Log:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.fh = open(path, "a", encoding="utf-8") if path else None

    def __call__(self, line):
        if not self.fh:
            return
        with self.lock:
            self.fh.write(line + "\n")
            self.fh.flush()


def parse_script(text):
    sections, current = [], []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.strip() == "---":
            sections.append(current)
            current = []
            continue
        word, _, rest = line.partition(" ")
        if word not in {"send", "fragments", "binary", "ping", "sleep", "close", "drop", "hold", "reject", "badaccept",
                        "masked"}:
            raise ValueError(f"unknown script command: {line!r}")
        current.append((word, rest))
    sections.append(current)
    return sections


def frame(opcode, payload, fin=True, mask=None):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if mask:
        return head + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
    return head + payload


class Conn:
    def __init__(self, sock, number, log):
        self.sock, self.number, self.log = sock, number, log
        self.buf = b""
        self.closed_by_client = threading.Event()
        self.lock = threading.Lock()

    def read_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def handshake(self, reject, badaccept=False):
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "?"
        headers = {}
        for l in lines[1:]:
            k, _, v = l.partition(":")
            headers[k.strip().lower()] = v.strip()
        self.log(f"connect {self.number} {path}")
        if reject:
            body = b"no websocket here\n"
            self.sock.sendall(
                f"HTTP/1.1 {reject} Nope\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode() + body)
            return False
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(hashlib.sha1((key + GUID + ("x" if badaccept else "")).encode()).digest()).decode()
        self.sock.sendall(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        return True

    def send(self, data):
        with self.lock:
            self.sock.sendall(data)

    def reader(self):
        """Reads client frames until EOF; logs pongs, texts and closes."""
        try:
            while True:
                b0, b1 = self.read_exact(2)
                opcode, masked, n = b0 & 0x0F, b1 & 0x80, b1 & 0x7F
                if n == 126:
                    n = struct.unpack("!H", self.read_exact(2))[0]
                elif n == 127:
                    n = struct.unpack("!Q", self.read_exact(8))[0]
                mask = self.read_exact(4) if masked else None
                payload = self.read_exact(n)
                if mask:
                    payload = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
                else:
                    self.log(f"error unmasked {self.number}")
                if opcode == 0x8:
                    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else ""
                    self.log(f"close {self.number} {code}")
                    self.closed_by_client.set()
                    try:
                        self.send(frame(0x8, payload[:2]))
                    except OSError:
                        pass
                    return
                if opcode == 0xA:
                    self.log(f"pong {self.number} {payload.decode('utf-8', 'replace')}")
                elif opcode == 0x1:
                    self.log(f"text {self.number} {payload.decode('utf-8', 'replace')}")
        except (EOFError, OSError):
            self.closed_by_client.set()

    def play(self, steps):
        for word, rest in steps:
            if word == "send":
                self.send(frame(0x1, rest.encode()))
            elif word == "fragments":
                count, _, text = rest.partition(" ")
                data, parts = text.encode(), max(1, int(count))
                size = max(1, -(-len(data) // parts))
                chunks = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
                for i, chunk in enumerate(chunks):
                    self.send(frame(0x1 if i == 0 else 0x0, chunk, fin=i == len(chunks) - 1))
            elif word == "masked":
                self.send(frame(0x1, rest.encode(), mask=b"\x01\x02\x03\x04"))
            elif word == "binary":
                self.send(frame(0x2, rest.encode()))
            elif word == "ping":
                self.send(frame(0x9, rest.encode()))
            elif word == "sleep":
                time.sleep(int(rest) / 1000)
            elif word == "close":
                code = int(rest) if rest.strip() else 1000
                self.send(frame(0x8, struct.pack("!H", code)))
                self.closed_by_client.wait(2)
                return
            elif word == "drop":
                return
            elif word == "hold":
                break
        self.closed_by_client.wait()


def serve(conn_sock, number, steps, log):
    conn = Conn(conn_sock, number, log)
    try:
        reject = next((rest for word, rest in steps[:1] if word == "reject"), None)
        if not conn.handshake(reject, any(word == "badaccept" for word, _ in steps[:1])):
            return
        threading.Thread(target=conn.reader, daemon=True).start()
        conn.play([s for s in steps if s[0] not in ("reject", "badaccept")])
    except (EOFError, OSError):
        pass
    finally:
        try:
            conn_sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        conn_sock.close()
        log(f"end {number}")


def main():
    ap = argparse.ArgumentParser(description="Scripted loopback WebSocket server.")
    ap.add_argument("--script", required=True, help="script file (see the module docstring)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--log", help="append one line per event to this file")
    ap.add_argument("--exit-with-parent", action="store_true")
    ap.add_argument("--cert", help="PEM certificate chain: serve TLS (wss://)")
    ap.add_argument("--key", help="PEM private key for --cert")
    ap.add_argument("--tls12", action="store_true", help="with --cert: TLS 1.2 at most")
    args = ap.parse_args()
    with open(args.script, encoding="utf-8") as fh:
        sections = parse_script(fh.read())
    log = Log(args.log)
    tls = None
    if args.cert:
        import ssl
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.cert, args.key)
        if args.tls12:
            tls.maximum_version = ssl.TLSVersion.TLSv1_2
        # "sni NAME" for each ClientHello: the server it names, or "-".
        tls.sni_callback = lambda _sock, name, _ctx: log(f"sni {name or '-'}")

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(16)

    exit_on_signals_and_with_parent(args.exit_with_parent)

    sys.stdout.write(f"PORT {listener.getsockname()[1]}\n")
    sys.stdout.flush()
    number = 0
    while True:
        sock, _ = listener.accept()
        if tls:
            try:
                sock = tls.wrap_socket(sock, server_side=True)
            except OSError:
                sock.close()
                continue
        number += 1
        steps = sections[number - 1] if number <= len(sections) else [("hold", "")]
        threading.Thread(target=serve, args=(sock, number, steps, log), daemon=True).start()


if __name__ == "__main__":
    main()
