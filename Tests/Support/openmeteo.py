#!/usr/bin/env python3
"""Loopback stand-in for Open-Meteo's forecast and air-quality APIs, used by the wx tests.

    python3 Tests/Support/openmeteo.py [--mode MODE] [--port 0] [--exit-with-parent]

Binds 127.0.0.1, prints exactly one line "PORT <n>" on stdout, then serves until killed.

Follows the documented format (../shared/notes/open-meteo.md): GET .../forecast and
.../air-quality with comma lists `latitude` and `longitude` of equal length; one location
answers a single object, several a JSON array in the same order. Coordinates come back
snapped to a 0.25° grid. Weather is a function of the asked coordinates (see `weather`).

Modes: ok; nulls (temperature null for every second location, humidity and wind null
everywhere, one daily maximum null); error (400 with the error object); 429 (the first
request answers 429 with Retry-After: 1, then ok); 429-always; slow:SECONDS (each answer
waits); wrong-length (an array one location short); fail-after:N (requests after the Nth
answer 400); html (200 text/html).
Control: GET /__mode?set=MODE, /__stats (requests, peak in flight, locations per request),
/__stats?reset=1, /__sent (every location object sent, with the coordinates asked).

Python 3.11 standard library only.
"""

import argparse
import datetime
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from loopback import serve_http

JSON_CT = "application/json; charset=utf-8"
CODES = [0, 1, 2, 3, 45, 51, 61, 63, 80, 95, 71, 99]
BASE = datetime.datetime(2026, 11, 23, 12, 0)


def snapped(v):
    return round(round(v / 0.25) * 0.25, 4)


def weather(lat, lon, days, index, mode):
    """The location object for (lat, lon) asked at position `index` of its request."""
    offset = int(round(lon / 15)) * 3600
    local = BASE + datetime.timedelta(seconds=offset)
    code = CODES[int(abs(lat) * 100 + abs(lon) * 10) % len(CODES)]
    temp = round(30 - abs(lat) / 2 + (abs(lon) % 7), 1)
    nulls = mode == "nulls"
    dates = [(local.date() + datetime.timedelta(days=k)).isoformat() for k in range(days)]
    maxes = [round(temp + k, 1) for k in range(days)]
    if nulls and days > 1:
        maxes[1] = None
    return {
        "latitude": snapped(lat), "longitude": snapped(lon), "generationtime_ms": 0.1,
        "utc_offset_seconds": offset, "timezone": "Etc/GMT", "timezone_abbreviation": "GMT",
        "elevation": 10.0,
        "current_units": {"time": "iso8601", "interval": "seconds", "temperature_2m": "°C"},
        "current": {
            "time": local.strftime("%Y-%m-%dT%H:%M"), "interval": 900,
            "temperature_2m": None if nulls and index % 2 == 1 else temp,
            "relative_humidity_2m": None if nulls else 40 + int(abs(lat)) % 50,
            "wind_speed_10m": None if nulls else round(abs(lon) % 30, 1),
            "weather_code": code, "is_day": 1,
        },
        "daily_units": {"time": "iso8601", "temperature_2m_max": "°C"},
        "daily": {
            "time": dates,
            "weather_code": [CODES[(CODES.index(code) + k) % len(CODES)] for k in range(days)],
            "temperature_2m_max": maxes,
            "temperature_2m_min": [round(temp - 8 + k, 1) for k in range(days)],
            "precipitation_probability_max": [10 * k for k in range(days)],
            "wind_speed_10m_max": [round(abs(lon) % 30 + 5, 1) for _ in range(days)],
        },
    }


def air(lat, lon):
    v = int(abs(lat) * 3 + abs(lon)) % 180
    return {
        "latitude": snapped(lat), "longitude": snapped(lon), "utc_offset_seconds": 0, "timezone": "GMT",
        "current": {"time": "2026-11-23T12:00", "interval": 3600, "us_aqi": v, "european_aqi": v // 3,
                    "pm2_5": round(v / 7, 1), "pm10": round(v / 5, 1)},
    }


class State:
    def __init__(self, mode):
        self.lock = threading.Lock()
        self.mode = mode
        self.requests = 0
        self.in_flight = 0
        self.peak = 0
        self.sizes = []
        self.sent = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def send(self, status, body, ctype=JSON_CT, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.done()  # answered: no longer in flight, before the client can read it and ask again
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        st = self.server.state
        url = urlsplit(self.path)
        q = parse_qs(url.query)
        if url.path == "/__mode":
            if "set" in q:
                with st.lock:
                    st.mode = q["set"][0]
            return self.send(200, {"mode": st.mode})
        if url.path == "/__stats":
            with st.lock:
                out = {"requests": st.requests, "peak": st.peak, "sizes": st.sizes}
                if "reset" in q:
                    st.requests, st.peak, st.sizes = 0, 0, []
            return self.send(200, out)
        if url.path == "/__sent":
            with st.lock:
                return self.send(200, st.sent)
        if not (url.path.endswith("/forecast") or url.path.endswith("/air-quality")):
            return self.send(404, {"error": True, "reason": "Not found"})
        with st.lock:
            st.requests += 1
            number = st.requests
            st.in_flight += 1
            st.peak = max(st.peak, st.in_flight)
            mode = st.mode
        self.tracked = True
        try:
            self.answer(st, url, q, mode, number)
        finally:
            self.done()

    def done(self):
        """Counts this request out of flight, once."""
        if getattr(self, "tracked", False):
            self.tracked = False
            st = self.server.state
            with st.lock:
                st.in_flight -= 1

    def answer(self, st, url, q, mode, number):
        if mode.startswith("slow:"):
            time.sleep(float(mode[5:]))
        else:
            time.sleep(0.05)  # long enough for concurrent requests to overlap
        lats = q.get("latitude", [""])[0].split(",")
        lons = q.get("longitude", [""])[0].split(",")
        with st.lock:
            st.sizes.append(len(lats))
        if mode == "error" or (mode.startswith("fail-after:") and number > int(mode[11:])):
            return self.send(400, {"error": True, "reason": "Cannot initialize WeatherVariable from invalid String value"})
        if mode == "429" and number == 1 or mode == "429-always":
            return self.send(429, {"error": True, "reason": "Minutely API request limit exceeded. Please try again in one minute."},
                             headers=[("Retry-After", "1")])
        if mode == "html":
            return self.send(200, b"<html>busy</html>", ctype="text/html")
        try:
            coords = [(float(a), float(b)) for a, b in zip(lats, lons, strict=True)]
        except ValueError:
            return self.send(400, {"error": True, "reason": "Parameter 'latitude' and 'longitude' must have the same number of elements"})
        days = int(q.get("forecast_days", ["7"])[0])
        if not 0 <= days <= 16:
            return self.send(400, {"error": True, "reason": "Forecast days is invalid. Allowed range 0 to 16."})
        if url.path.endswith("/air-quality"):
            items = [air(a, b) for a, b in coords]
        else:
            items = [weather(a, b, days, i, mode) for i, (a, b) in enumerate(coords)]
        with st.lock:
            for (a, b), item in zip(coords, items):
                st.sent.append({"latitude": a, "longitude": b, "kind": url.path.rsplit("/", 1)[1], "item": item})
        if mode == "wrong-length" and len(items) > 1:
            items = items[:-1]
        self.send(200, items[0] if len(items) == 1 else items)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description="Loopback stand-in for Open-Meteo.")
    ap.add_argument("--mode", default="ok")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--exit-with-parent", action="store_true")
    args = ap.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    server.state = State(args.mode)
    return serve_http(server, args.exit_with_parent)


if __name__ == "__main__":
    sys.exit(main())
