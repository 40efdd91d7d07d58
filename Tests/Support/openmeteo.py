#!/usr/bin/env python3
"""Loopback stand-in for Open-Meteo's forecast and air-quality APIs, used by the wx tests.

    python3 Tests/Support/openmeteo.py [--mode MODE] [--port 0] [--exit-with-parent]

Binds 127.0.0.1, prints exactly one line "PORT <n>" on stdout, then serves until killed.

Follows the documented format (../shared/notes/open-meteo.md): GET .../forecast and
.../air-quality with comma lists `latitude` and `longitude` of equal length; one location
answers a single object, several a JSON array in the same order. Coordinates come back
snapped to a 0.25° grid. Weather is a function of the asked coordinates (see `weather`).

Forecast answers hold what is asked of `current`, `daily` and `hourly` (every variable wx
asks for; an unknown name is a 400 with a reason, as the real API answers), `forecast_days`
days and `forecast_hours` hours from the current hour (the location's local time is
2026-11-23T12:00 UTC plus its offset, one hour per 15° of longitude).

Modes: ok; nulls (temperature null for every second location, humidity and wind null
everywhere, one daily maximum null, every second hour's values null, no sunrise); error (400
with the error object); 429 (the first request answers 429 with Retry-After: 1, then ok; the
same request asked again before that second has passed is refused again and counted as early);
429-always; slow:SECONDS (each answer waits); wrong-length (an array one location short);
fail-after:N (requests after the Nth answer 400); html (200 text/html); huge:MB (the first
location also holds a member "padding", an array of MB megabytes of zeros, sent in pieces);
bad-time (the first location's current time holds an escape sequence); no-hourly (no
`hourly` object); imperial, ms, knots (values and units blocks in °F, mp/h and inch; m/s;
knots), kelvin (temperatures in K, a unit wx refuses), bad-offset (the first location's
utc_offset_seconds 25 hours), no-current (air-quality locations without `current`), events
(hours of known events: EVENT_HOURS).
Control: GET /__mode?set=MODE, /__stats (requests, peak in flight, locations per request,
bytes of forecast and air-quality answers),
/__stats?reset=1, /__sent (every location object sent, with the coordinates asked), /__paths (every request's
path and query, in order: the benchmark's peer fetches the same).

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


CURRENT = {"temperature_2m", "relative_humidity_2m", "wind_speed_10m", "weather_code", "is_day",
           "apparent_temperature", "precipitation", "wind_direction_10m", "wind_gusts_10m", "cloud_cover",
           "pressure_msl", "visibility", "dew_point_2m"}
DAILY = {"weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_probability_max",
         "wind_speed_10m_max", "sunrise", "sunset", "uv_index_max", "precipitation_sum", "precipitation_hours",
         "wind_direction_10m_dominant", "wind_gusts_10m_max"}
HOURLY = {"temperature_2m", "apparent_temperature", "precipitation_probability", "precipitation", "weather_code",
          "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "uv_index", "is_day", "relative_humidity_2m"}


def asked(q, name):
    return [v for v in q.get(name, [""])[0].split(",") if v]


def hourly(lat, lon, local, hours, code, temp, nulls):
    """`hours` hours from the local current hour: a daily cycle around `temp`."""
    start = local.replace(minute=0)
    out = {"time": [], "temperature_2m": [], "apparent_temperature": [], "precipitation_probability": [],
           "precipitation": [], "weather_code": [], "wind_speed_10m": [], "wind_direction_10m": [],
           "wind_gusts_10m": [], "uv_index": [], "is_day": []}
    for k in range(hours):
        t = start + datetime.timedelta(hours=k)
        blank = nulls and k % 2 == 1
        day = 7 <= t.hour < 17
        swing = (-4, -5, -5, -4, -2, 0, 2, 4, 5, 6, 6, 5)[(t.hour // 2) % 12]

        def v(x):
            return None if blank else x
        out["time"].append(t.strftime("%Y-%m-%dT%H:%M"))
        out["temperature_2m"].append(v(round(temp + swing, 1)))
        out["apparent_temperature"].append(v(round(temp + swing - 2.5, 1)))
        out["precipitation_probability"].append(v((k * 7 + int(abs(lat))) % 101))
        out["precipitation"].append(v(round(((k * 3) % 10) / 10, 1)))
        out["weather_code"].append(v(CODES[(CODES.index(code) + k // 6) % len(CODES)]))
        out["wind_speed_10m"].append(v(round(abs(lon) % 30 + k % 5, 1)))
        out["wind_direction_10m"].append(v((int(abs(lon) * 10) + k * 15) % 360))
        out["wind_gusts_10m"].append(v(round(abs(lon) % 30 + 10 + k % 5, 1)))
        out["uv_index"].append(v(round(max(0, 6 - abs(t.hour - 12)) * 1.35, 2) if day else 0.0))
        out["is_day"].append(v(1 if day else 0))
    return out


def weather(lat, lon, days, index, mode, q=None, hours=None):
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
    item = full_weather(lat, lon, local, offset, code, temp, nulls, dates, maxes, days, index)
    if mode == "bad-time" and index == 0:
        item["current"]["time"] = "2026-11-23T1\u001b[2J"
    if q is not None:
        # Only what was asked, as the real API answers.
        item["current"] = {k: v for k, v in item["current"].items() if k in ("time", "interval") or k in asked(q, "current")}
        item["daily"] = {k: v for k, v in item["daily"].items() if k == "time" or k in asked(q, "daily")}
        if asked(q, "hourly") and mode != "no-hourly":
            item["hourly_units"] = {"time": "iso8601", "temperature_2m": "°C"}
            h = hourly(lat, lon, local, hours if hours is not None else 24 * days, code, temp, nulls)
            if mode == "events":
                events(h, item["daily"])
            item["hourly"] = {k: v for k, v in h.items() if k == "time" or k in asked(q, "hourly")}
    if mode in UNIT_MODES:
        in_units(item, *UNIT_MODES[mode])
    if mode == "bad-offset" and index == 0:
        item["utc_offset_seconds"] = 25 * 3600
    return item


# Mode events: hours of known events from the current hour (hour 0), the same at every place
# (EventTests, Tests/wxTests/AlertsTests.swift, reads the same table): hour -> values set.
EVENT_HOURS = {
    2: {"weather_code": 63, "precipitation_probability": 80, "precipitation": 1.5},
    3: {"weather_code": 63, "precipitation_probability": 90, "precipitation": 1.0},
    4: {"weather_code": 61, "precipitation_probability": 60, "precipitation": 0.5},
    8: {"weather_code": 95, "precipitation_probability": 70, "precipitation": 2.0},
    12: {"temperature_2m": -3.0}, 13: {"temperature_2m": -4.5},
    16: {"wind_gusts_10m": 75.0},
    18: {"uv_index": 9.0},
    20: {"temperature_2m": 31.0}, 21: {"apparent_temperature": 33.0},
    26: {"weather_code": 73, "precipitation_probability": 40, "precipitation": 0.8},
}


def events(h, daily):
    """Every hour calm (dry, mild, light wind, low UV) but those of EVENT_HOURS; tomorrow's high
    7 degrees under today's."""
    for k in range(len(h["time"])):
        calm = {"weather_code": 1, "precipitation_probability": 10, "precipitation": 0.0, "temperature_2m": 10.0,
                "apparent_temperature": 9.0, "wind_gusts_10m": 20.0, "uv_index": 1.0}
        calm.update(EVENT_HOURS.get(k, {}))
        for key, value in calm.items():
            h[key][k] = value
    maxes = daily.get("temperature_2m_max")
    if maxes and len(maxes) > 1:
        maxes[0], maxes[1] = 12.0, 5.0


# Units as a request with temperature_unit, wind_speed_unit or precipitation_unit gets them
# (the units blocks name every variable's unit; ../shared/notes/open-meteo.md): mode -> (°F?,
# wind unit, precipitation unit, temperature unit's name).
UNIT_MODES = {"imperial": ("°F", "mp/h", "inch"), "ms": ("°C", "m/s", "mm"), "knots": ("°C", "kn", "mm"),
              "kelvin": ("K", "km/h", "mm")}


def in_units(item, temp_unit, wind_unit, rain_unit):
    """Converts the item's values from °C, km/h and mm and names the units in its blocks."""
    def temp(v):
        if v is None:
            return None
        return round(v * 9 / 5 + 32, 1) if temp_unit == "°F" else round(v + 273.15, 2) if temp_unit == "K" else v
    wind = {"km/h": 1, "m/s": 1 / 3.6, "mp/h": 1 / 1.609344, "kn": 1 / 1.852}[wind_unit]
    rain = {"mm": 1, "inch": 1 / 25.4}[rain_unit]

    def is_temp(key):
        return "temperature" in key or key.startswith("dew_point")

    def convert(block, key, v):
        if v is None:
            return None
        if is_temp(key):
            return temp(v)
        if key.startswith("wind_speed") or key.startswith("wind_gusts"):
            return round(v * wind, 2)
        if key in ("precipitation", "precipitation_sum"):
            return round(v * rain, 3)
        return v

    def unit(key):
        if is_temp(key):
            return temp_unit
        if key.startswith("pressure"):
            return "hPa"
        if key == "visibility":
            return "m"
        if key.startswith("wind_speed") or key.startswith("wind_gusts"):
            return wind_unit
        if key in ("precipitation", "precipitation_sum"):
            return rain_unit
        return "%" if "probability" in key or "humidity" in key else ""
    for name in ("current", "daily", "hourly"):
        block = item.get(name)
        if not block:
            continue
        units = {"time": "iso8601"}
        for key, v in block.items():
            if key in ("time", "interval"):
                continue
            units[key] = unit(key)
            block[key] = [convert(name, key, x) for x in v] if isinstance(v, list) else convert(name, key, v)
        item[name + "_units"] = units


def full_weather(lat, lon, local, offset, code, temp, nulls, dates, maxes, days, index):
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
            "apparent_temperature": None if nulls else round(temp - 2.5, 1),
            "precipitation": None if nulls else round((index % 4) / 10, 1),
            "wind_direction_10m": None if nulls else int(abs(lon) * 10) % 360,
            "wind_gusts_10m": None if nulls else round(abs(lon) % 30 + 10, 1),
            "pressure_msl": None if nulls else round(1000 + abs(lat) % 30, 1),
            "visibility": None if nulls else 24140.0 - (index % 5) * 4000,
            "dew_point_2m": None if nulls else round(temp - 6.5, 1),
            "cloud_cover": None if nulls else (index * 17) % 101,
        },
        "daily_units": {"time": "iso8601", "temperature_2m_max": "°C"},
        "daily": {
            "time": dates,
            "weather_code": [CODES[(CODES.index(code) + k) % len(CODES)] for k in range(days)],
            "temperature_2m_max": maxes,
            "temperature_2m_min": [round(temp - 8 + k, 1) for k in range(days)],
            "precipitation_probability_max": [10 * k for k in range(days)],
            "wind_speed_10m_max": [round(abs(lon) % 30 + 5, 1) for _ in range(days)],
            "sunrise": [None if nulls else f"{d}T07:{(k * 2) % 60:02d}" for k, d in enumerate(dates)],
            "sunset": [None if nulls else f"{d}T16:{(40 - k) % 60:02d}" for k, d in enumerate(dates)],
            "uv_index_max": [round(1.5 + k * 0.45, 2) for k in range(days)],
            "precipitation_sum": [round(k * 1.3, 1) for k in range(days)],
            "wind_direction_10m_dominant": [(200 + 10 * k) % 360 for k in range(days)],
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
        self.bytes = 0
        self.paths = []  # every forecast or air-quality request's path and query, in order
        self.refused = {}  # query -> when it may be asked again (mode 429)
        self.early = 0  # requests asked again before their Retry-After (mode 429)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def send(self, status, body, ctype=JSON_CT, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        if getattr(self, "tracked", False):
            with self.server.state.lock:
                self.server.state.bytes += len(data)
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
                out = {"requests": st.requests, "peak": st.peak, "sizes": st.sizes, "bytes": st.bytes, "early": st.early}
                if "reset" in q:
                    st.requests, st.peak, st.sizes, st.bytes, st.early = 0, 0, [], 0, 0
            return self.send(200, out)
        if url.path == "/__sent":
            with st.lock:
                return self.send(200, st.sent)
        if url.path == "/__paths":
            with st.lock:
                return self.send(200, st.paths)
        if not (url.path.endswith("/forecast") or url.path.endswith("/air-quality")):
            return self.send(404, {"error": True, "reason": "Not found"})
        with st.lock:
            st.requests += 1
            number = st.requests
            st.paths.append(self.path)
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
        if mode == "429":
            with st.lock:
                early = time.monotonic() < st.refused.get(url.query, 0.0)
                st.early += early
                if number == 1 or early:  # as a rate limiter would: refused again
                    st.refused[url.query] = time.monotonic() + 1
        if mode == "429" and (number == 1 or early) or mode == "429-always":
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
        hours = int(q["forecast_hours"][0]) if "forecast_hours" in q else None
        if hours is not None and not 0 <= hours <= 384:
            return self.send(400, {"error": True, "reason": "Forecast hours is invalid."})
        if url.path.endswith("/forecast"):
            for name, known in (("current", CURRENT), ("daily", DAILY), ("hourly", HOURLY)):
                for v in asked(q, name):
                    if v not in known:
                        return self.send(400, {"error": True, "reason": f"Cannot initialize SurfaceAndPressureVariable from invalid String value {v}."})
        if url.path.endswith("/air-quality"):
            items = [air(a, b) for a, b in coords]
            if mode == "no-current":
                for item in items:
                    del item["current"]
        else:
            items = [weather(a, b, days, i, mode, q, hours) for i, (a, b) in enumerate(coords)]
        with st.lock:
            for (a, b), item in zip(coords, items):
                st.sent.append({"latitude": a, "longitude": b, "kind": url.path.rsplit("/", 1)[1], "item": item})
        if mode == "wrong-length" and len(items) > 1:
            items = items[:-1]
        if mode.startswith("huge:"):
            return self.send_huge(items, int(float(mode[5:]) * (1 << 20)))
        self.send(200, items[0] if len(items) == 1 else items)

    def send_huge(self, items, size):
        """The answer with a member of `size` bytes of zeros in the first location, written
        in 1 MiB pieces (never held whole here either)."""
        first = dict(items[0])
        first["padding"] = "@PAD@"
        doc = json.dumps(first if len(items) == 1 else [first] + items[1:]).encode()
        head, tail = doc.split(b'"@PAD@"')
        zeros = max(1, size // 2)
        self.done()
        self.send_response(200)
        self.send_header("Content-Type", JSON_CT)
        self.send_header("Content-Length", str(len(head) + 2 * zeros + 1 + len(tail)))
        self.end_headers()
        self.wfile.write(head + b"[")
        piece = b"0," * (1 << 19)
        left = zeros - 1
        while left > 0:
            n = min(left, 1 << 19)
            self.wfile.write(piece if n == 1 << 19 else b"0," * n)
            left -= n
        self.wfile.write(b"0]" + tail)


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
