#!/usr/bin/env python3
"""Loopback stand-in for the freetestapi /weathers endpoint (plus a tiny
AccuWeather stand-in), used by the wx test-suite and benchmarks.

    python3 Tests/Support/fakeapi.py --data FILE.json [--mode MODE] [--port 0]
        [--delay-ms N] [--api-key KEY] [--fail-key KEY]... [--accu-delay-ms N]
        [--exit-with-parent]

Binds 127.0.0.1, prints exactly one line "PORT <n>" on stdout, then serves
until killed (SIGTERM/SIGINT exit cleanly with status 0).

freetestapi side: any path ending in /weathers, query page (1-based, default 1),
limit (default: all), search (case-insensitive substring of city).
Modes with an argument: status:CODE, truncate:N, truncate-frac:F, truncate-page:P
(page P cut in half, the others whole),
redirect-to:URL (302 to URL), retry-after:VALUE (first request 429 with that
Retry-After, then paged), content-type:VALUE (paged, with that Content-Type).
Control: GET /__mode (current mode), /__mode?set=MODE, /__hits, /__hits?reset=1,
/__accu, /__accu?reset=1.
AccuWeather side: GET .../locations/v1/topcities/{N}?apikey=K and
GET .../forecasts/v1/hourly/1hour/{Key}?apikey=K.

Python 3.11 standard library only.
"""

import argparse
import gzip
import json
import math
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from loopback import serve_http

JSON_CT = "application/json; charset=utf-8"
HUGE_SIZE = 300 * 1024 * 1024  # bytes claimed and streamed by the "huge" mode
CHUNK = 64 * 1024
BAD_UTF8_MARK = "\u2063BAD_UTF8\u2063"  # replaced by raw b"\xff\xfe" after encoding
SIMPLE_MODES = {
    "paged", "ignore-page", "429", "429-always", "html", "empty", "wrong-types",
    "missing-field", "nan", "bad-utf8", "zero", "redirect-loop", "redirect",
    "wrong-content-type", "drip", "huge", "object", "dup-page", "all", "huge-unsized", "bad-gzip",
    "not-http", "huge-header", "stall",
}
HTML_PAGE = (b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
             b"<body><h1>502 Bad Gateway</h1><p>The upstream server is unavailable."
             b"</p></body></html>\n")
COUNTRY_IDS = {
    "United States": "US", "United Kingdom": "GB", "France": "FR", "Japan": "JP",
    "Australia": "AU", "Germany": "DE", "Russia": "RU", "Egypt": "EG", "Brazil": "BR",
    "India": "IN", "Switzerland": "CH", "Canada": "CA", "Colombia": "CO", "Poland": "PL",
    "Sweden": "SE", "Iceland": "IS", "Norway": "NO", "Chad": "TD", "Vietnam": "VN",
    "São Tomé and Príncipe": "ST", "Spain": "ES", "Italy": "IT", "China": "CN",
    "South Korea": "KR", "Mexico": "MX", "Argentina": "AR", "Nigeria": "NG", "Kenya": "KE",
    "Thailand": "TH", "Singapore": "SG", "United Arab Emirates": "AE", "Turkey": "TR",
    "Netherlands": "NL", "Austria": "AT", "New Zealand": "NZ",
}
TOPCITIES_RE = re.compile(r"/locations/v1/topcities/(\d+)$")
HOURLY_RE = re.compile(r"/forecasts/v1/hourly/1hour/([^/]+)$")


def parse_mode(mode):
    """Validate MODE; return it unchanged or raise ValueError."""
    if mode in SIMPLE_MODES:
        return mode
    kind, sep, arg = mode.partition(":")
    if sep:
        if kind in ("status", "bare-status"):
            code = int(arg)
            if 100 <= code <= 599:
                return mode
        elif kind in ("truncate", "truncate-page"):
            if int(arg) >= 0:
                return mode
        elif kind == "truncate-frac":
            if 0.0 <= float(arg) <= 1.0:
                return mode
        elif kind in ("redirect-to", "retry-after", "content-type"):
            return mode
    raise ValueError(f"unknown mode: {mode!r}")


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class State:
    def __init__(self, records, mode, args):
        self.records = records
        self.args = args
        self.lock = threading.Lock()
        self.mode = mode
        self.mode_requests = 0  # /weathers requests since the mode was (re)set
        self.hits = 0
        self.body_cache = {}  # (variant, search, start, end) -> bytes
        self.search_cache = {}  # folded search -> filtered list
        self.inflight = 0
        self.max_inflight = 0
        self.hourly_calls = 0
        self.topcities_calls = 0

    def set_mode(self, mode):
        with self.lock:
            self.mode = mode
            self.mode_requests = 0

    def next_weathers_request(self):
        """Count a /weathers request; return (mode, index within this mode)."""
        with self.lock:
            self.hits += 1
            n = self.mode_requests
            self.mode_requests += 1
            return self.mode, n

    def filtered(self, search):
        if not search:
            return self.records
        key = search.casefold()
        found = self.search_cache.get(key)
        if found is None:
            found = [r for r in self.records if key in str(r.get("city", "")).casefold()]
            self.search_cache[key] = found
        return found

    def body(self, variant, search, start, end):
        """Serialized JSON for items[start:end] (end None = all), cached."""
        key = (variant, search.casefold(), start, end)
        cached = self.body_cache.get(key)
        if cached is not None:
            return cached
        items = self.filtered(search)[start:end]
        if variant == "array":
            data = dumps(items)
        elif variant == "object":
            data = dumps({"data": items})
        else:
            items = [dict(r) for r in items]
            if items:
                if variant == "wrong-types":
                    items[min(2, len(items) - 1)]["temperature"] = "hot"
                elif variant == "missing-field":
                    items[min(4, len(items) - 1)].pop("city", None)
                elif variant == "nan":
                    items[min(1, len(items) - 1)]["temperature"] = math.nan
                elif variant == "bad-utf8":
                    rec = items[min(1, len(items) - 1)]
                    rec["city"] = BAD_UTF8_MARK + str(rec.get("city", ""))
            data = json.dumps(items, ensure_ascii=False, separators=(",", ":"),
                              allow_nan=True).encode("utf-8")
            if variant == "bad-utf8":
                data = data.replace(BAD_UTF8_MARK.encode("utf-8"), b"\xff\xfe")
        if len(self.body_cache) > 4096:
            self.body_cache.clear()
        self.body_cache[key] = data
        return data


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakeapi/1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # silence request logging
        pass

    @property
    def state(self):
        return self.server.state

    # ---- helpers -------------------------------------------------------
    def send(self, code, body=b"", ctype=JSON_CT, headers=None):
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def send_json(self, code, obj, headers=None):
        self.send(code, dumps(obj), headers=headers)

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        q = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        try:
            if path == "/__mode":
                return self.control_mode(q)
            if path == "/__hits":
                with self.state.lock:
                    hits = self.state.hits
                    if q.get("reset"):
                        self.state.hits = hits = 0
                return self.send_json(200, {"hits": hits})
            if path == "/__accu":
                return self.control_accu(q)
            if path.endswith("/weathers"):
                return self.weathers(parts, q)
            m = TOPCITIES_RE.search(path)
            if m:
                return self.topcities(int(m.group(1)), q)
            m = HOURLY_RE.search(path)
            if m:
                return self.hourly(m.group(1), q)
            self.send_json(404, {"error": "not found"})
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    # ---- control -------------------------------------------------------
    def control_mode(self, q):
        if "set" not in q:
            return self.send(200, self.state.mode.encode() + b"\n", "text/plain; charset=utf-8")
        try:
            mode = parse_mode(q["set"])
        except ValueError as e:
            return self.send_json(400, {"error": str(e)})
        self.state.set_mode(mode)
        self.send(200, b"ok", "text/plain; charset=utf-8")

    def control_accu(self, q):
        st = self.state
        with st.lock:
            out = {"max_inflight": st.max_inflight, "hourly_calls": st.hourly_calls,
                   "topcities_calls": st.topcities_calls}
            if q.get("reset"):
                st.max_inflight = st.hourly_calls = st.topcities_calls = 0
        self.send_json(200, out)

    # ---- freetestapi ---------------------------------------------------
    def weathers(self, parts, q):
        mode, nth = self.state.next_weathers_request()
        if self.server.args.delay_ms > 0:
            time.sleep(self.server.args.delay_ms / 1000.0)

        try:
            page = int(q.get("page", "1"))
            limit = int(q["limit"]) if "limit" in q else None
        except ValueError:
            return self.send_json(400, {"error": "page and limit must be integers"})
        if page < 1 or (limit is not None and limit < 1):
            return self.send_json(400, {"error": "page and limit must be >= 1"})
        search = q.get("search", "")

        def span(p):
            if limit is None:
                return (0, None) if p == 1 else (0, 0)
            return ((p - 1) * limit, p * limit)

        if mode.startswith("status:"):
            code = int(mode.split(":", 1)[1])
            return self.send_json(code, {"error": f"simulated HTTP {code}"})
        if mode.startswith("bare-status:"):  # a status with no body (304, 418...)
            return self.send(int(mode.split(":", 1)[1]), b"", None)
        if mode == "not-http":  # another protocol on the port (an SSH server, say)
            self.close_connection = True
            self.wfile.write(b"SSH-2.0-OpenSSH_9.2\r\n" * 4)
            return
        if mode == "huge-header":  # a 4 MB header
            self.send_response(200)
            self.send_header("X-Padding", "a" * (4 << 20))
            self.send_header("Content-Type", JSON_CT)
            self.end_headers()
            return
        if mode == "stall":  # headers, a few bytes, then nothing (slowloris)
            self.send_response(200)
            self.send_header("Content-Type", JSON_CT)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"[")
            self.wfile.flush()
            time.sleep(120)
            return
        if mode == "429-always" or (mode == "429" and nth == 0):
            return self.send_json(429, {"error": "too many requests"}, {"Retry-After": "1"})
        if mode == "html":
            return self.send(200, HTML_PAGE, "text/html; charset=utf-8")
        if mode == "empty":
            return self.send(200, b"")
        if mode == "zero":
            return self.send(200, b"[]")
        if mode == "redirect-loop":
            return self.send(302, b"", None, {"Location": self.path})
        if mode.startswith("redirect-to:"):
            return self.send(302, b"", None, {"Location": mode.split(":", 1)[1]})
        if mode.startswith("retry-after:") and nth == 0:
            return self.send_json(429, {"error": "too many requests"},
                                  {"Retry-After": mode.split(":", 1)[1]})
        if mode == "redirect" and q.get("r") != "1":
            target = parts.path + "?" + (parts.query + "&" if parts.query else "") + "r=1"
            return self.send(302, b"", None, {"Location": target})
        if mode in ("huge", "huge-unsized"):
            return self.huge(sized=mode == "huge")

        variant = "array"
        start, end = span(page)
        if mode == "ignore-page":
            start, end = span(1)
        elif mode == "all":  # page 1 holds every record whatever the limit; then empty
            start, end = (0, None) if page == 1 else (0, 0)
        elif mode == "dup-page":
            if page == 2:
                start, end = span(1)
            elif page >= 3:
                start, end = 0, 0
        elif mode in ("object", "wrong-types", "missing-field", "nan", "bad-utf8"):
            variant = mode
        body = self.state.body(variant, search, start, end)

        ctype = JSON_CT
        if mode == "wrong-content-type":
            ctype = "image/png"
        elif mode.startswith("content-type:"):
            ctype = mode.split(":", 1)[1]
        elif mode.startswith("truncate:"):
            body = body[:int(mode.split(":", 1)[1])]
        elif mode.startswith("truncate-page:"):
            if page == int(mode.split(":", 1)[1]):
                body = body[:len(body) // 2]
        elif mode.startswith("truncate-frac:"):
            body = body[:int(len(body) * float(mode.split(":", 1)[1]))]
        elif mode == "drip":
            return self.drip(body)
        elif mode == "bad-gzip":  # gzip that breaks off into garbage halfway
            packed = gzip.compress(body)
            half = len(packed) // 2
            body = packed[:half] + bytes(b ^ 0x55 for b in packed[half:])
            return self.send(200, body, ctype, {"Content-Encoding": "gzip"})
        self.send(200, body, ctype)

    def drip(self, body):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", JSON_CT)
        self.send_header("Connection", "close")
        self.end_headers()
        for i in range(len(body)):
            self.wfile.write(body[i:i + 1])
            time.sleep(1.0)

    def huge(self, sized=True):
        """HUGE_SIZE bytes of "[" and spaces; unsized: no Content-Length, ended by closing."""
        self.send_response(200)
        self.send_header("Content-Type", JSON_CT)
        if sized:
            self.send_header("Content-Length", str(HUGE_SIZE))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        if not sized:
            self.close_connection = True
        self.close_connection = True  # if the client bails out midway
        self.wfile.write(b"[")
        spaces = b" " * CHUNK
        left = HUGE_SIZE - 1
        while left > 0:
            n = min(left, CHUNK)
            self.wfile.write(spaces if n == CHUNK else spaces[:n])
            left -= n
        self.close_connection = not sized

    # ---- AccuWeather ---------------------------------------------------
    def accu_authorised(self, q):
        if q.get("apikey") == self.server.args.api_key:
            return True
        self.send_json(401, {"Code": "Unauthorized", "Message": "Api Authorization failed"})
        return False

    def echo(self, q):
        """--accu-echo WHERE: answer echoing the key the request carried (a hostile or
        careless server): in a 400 or 404 reason, a Content-Type, a redirect target.
        Returns True when it answered."""
        where, key = self.server.args.accu_echo, q.get("apikey", "")
        if where == "reason400":
            self.send_json(400, {"message": f"Invalid apikey value: {key}"})
        elif where == "reason404":
            self.send_json(404, {"reason": f"no such key {key}"})
        elif where == "content-type":
            self.send(200, b"not json", ctype=f"text/plain; key={key}")
        elif where == "redirect":
            self.send(302, b"", headers={"Location": f"ftp://127.0.0.1/{key}/x"})
        else:
            return False
        return True

    def topcities(self, count, q):
        with self.state.lock:
            self.state.topcities_calls += 1
        if not self.accu_authorised(q) or self.echo(q):
            return
        args = self.server.args
        out = []
        for i, r in enumerate(self.state.records[:count]):
            name = r.get("city", "")
            country = str(r.get("country", ""))
            if args.accu_echo == "field" and i == 0:
                name = f"{name} {q.get('apikey', '')}"
            loc = {
                "Version": 1, "Key": str(100000 + i), "Type": "City", "Rank": 10,
                "LocalizedName": name, "EnglishName": name,
            }
            if not (args.accu_no_country and i % 2 == 1):
                loc["Country"] = {"ID": COUNTRY_IDS.get(country, "XX"), "LocalizedName": country}
            if args.accu_geo and i % 2 == 0:
                loc["GeoPosition"] = {"Latitude": r.get("latitude"), "Longitude": r.get("longitude")}
            out.append(loc)
        # --accu-key N=KEY: the Nth location (from 1) sent with KEY (bad keys, repeated keys).
        for spec in args.accu_key:
            n, _, key = spec.partition("=")
            if 0 < int(n) <= len(out):
                out[int(n) - 1]["Key"] = key
        self.send_json(200, out)

    def hourly(self, key, q):
        st = self.state
        with st.lock:
            st.hourly_calls += 1
            st.inflight += 1
            st.max_inflight = max(st.max_inflight, st.inflight)
        try:
            if self.server.args.accu_delay_ms > 0:
                time.sleep(self.server.args.accu_delay_ms / 1000.0)
        finally:
            with st.lock:
                st.inflight -= 1
        if not self.accu_authorised(q):
            return
        if key in self.server.args.fail_key:
            return self.send_json(503, {"Code": "ServiceUnavailable",
                                        "Message": "Simulated failure"})
        index = int(key) - 100000 if key.isdigit() else -1
        if not 0 <= index < len(st.records):
            return self.send_json(404, {"Code": "ResourceNotFound",
                                        "Message": f"No location for key {key}"})
        rec = st.records[index]
        f = float(rec.get("temperature", 0)) * 9.0 / 5.0 + 32.0
        self.send_json(200, [{
            "DateTime": "2026-11-22T10:00:00+00:00", "EpochDateTime": 1795000000,
            "WeatherIcon": 3, "IconPhrase": "Partly sunny",
            "Temperature": {"Value": int(math.floor(f + 0.5)), "Unit": "F", "UnitType": 18},
            "PrecipitationProbability": 0,
        }])


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (BrokenPipeError, ConnectionResetError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description="Loopback stand-in for freetestapi/AccuWeather.")
    ap.add_argument("--data", required=True, help="JSON array of freetestapi records")
    ap.add_argument("--mode", default="paged", help="initial mode (default paged)")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = ephemeral)")
    ap.add_argument("--delay-ms", type=int, default=0, help="sleep before each /weathers reply")
    ap.add_argument("--api-key", default="testkey", help="accepted AccuWeather apikey")
    ap.add_argument("--fail-key", action="append", default=[],
                    help="AccuWeather location Key whose hourly call returns 503 (repeatable)")
    ap.add_argument("--accu-delay-ms", type=int, default=50,
                    help="sleep inside each hourly call (default 50)")
    ap.add_argument("--accu-echo", default="",
                    help="AccuWeather topcities echoes the key: reason400, reason404, field, content-type, redirect")
    ap.add_argument("--accu-geo", action="store_true",
                    help="AccuWeather: every other location (the 1st, 3rd...) has a GeoPosition")
    ap.add_argument("--accu-no-country", action="store_true",
                    help="AccuWeather: every other location (the 2nd, 4th...) has no Country")
    ap.add_argument("--accu-key", action="append", default=[],
                    help="AccuWeather: N=KEY sends the Nth location with Key KEY (repeatable)")
    ap.add_argument("--exit-with-parent", action="store_true",
                    help="exit when the parent process goes away")
    args = ap.parse_args()
    try:
        mode = parse_mode(args.mode)
    except ValueError as e:
        ap.error(str(e))
    with open(args.data, "rb") as fh:
        records = json.load(fh)
    if not isinstance(records, list):
        ap.error("--data must hold a JSON array")

    server = Server(("127.0.0.1", args.port), Handler)
    server.args = args
    server.state = State(records, mode, args)

    return serve_http(server, args.exit_with_parent)


if __name__ == "__main__":
    sys.exit(main())
