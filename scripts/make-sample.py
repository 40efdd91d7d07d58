#!/usr/bin/env python3
"""Generate Data/sample-weathers.json, the bundled sample catalogue for wx.

The values are invented (plausible late-November weather for real city
names); they are not live weather and are not copied from any service.
The output is deterministic: running this script twice gives identical bytes.

Usage: python3 scripts/make-sample.py [-o PATH]
"""

import argparse
import json
import zlib
import random
from pathlib import Path

SEED = 20261122
FORECAST_DATES = ("2026-11-23", "2026-11-24")

# city, country, latitude, longitude, temperature (°C), description.
# Integer temperatures are deliberate (London must be exactly 18, written as 18).
# Canberra and Wellington intentionally share id 45 (see DUPLICATE_ID_WITH_PREVIOUS).
CITIES = [
    ("New York", "United States", 40.7128, -74.006, 9.4, "Clear sky"),
    ("London", "United Kingdom", 51.5074, -0.1278, 18, "Partly cloudy"),
    ("Paris", "France", 48.8566, 2.3522, 11.2, "Cloudy"),
    ("東京", "Japan", 35.6762, 139.6503, 14.8, "Sunny"),
    ("Sydney", "Australia", -33.8688, 151.2093, 23.6, "Sunny"),
    ("Berlin", "Germany", 52.52, 13.405, 5.3, "Cloudy"),
    ("Moscow", "Russia", 55.7558, 37.6173, -1.8, "Snow"),
    ("Cairo", "Egypt", 30.0444, 31.2357, 24, "Clear sky"),
    ("Rio de Janeiro", "Brazil", -22.9068, -43.1729, 27.9, "Scattered clouds"),
    ("Mumbai", "India", 19.076, 72.8777, 30.5, "Sunny"),
    ("São Paulo", "Brazil", -23.5505, -46.6333, 22.4, "Rain showers"),
    ("Zürich", "Switzerland", 47.3769, 8.5417, 6.1, "Cloudy"),
    ("Zurich", "Canada", 43.4217, -81.627, 4.7, "Partly cloudy"),
    ("Bogotá", "Colombia", 4.711, -74.0721, 14.3, "Rain"),
    ("Łódź", "Poland", 51.7592, 19.456, 3.9, "Cloudy"),
    ("Kraków", "Poland", 50.0647, 19.945, 2.6, "Scattered clouds"),
    ("Malmö", "Sweden", 55.605, 13.0038, 5.8, "Rainy"),
    ("Reykjavík", "Iceland", 64.1466, -21.9426, -2.5, "Snow"),
    ("Gießen", "Germany", 50.5841, 8.6784, 6.7, "Rain showers"),
    ("Tromsø", "Norway", 69.6492, 18.9553, -4.3, "Snow"),
    ("N'Djamena", "Chad", 12.1348, 15.0557, 33.1, "Sunny"),
    ("Winston-Salem", "United States", 36.0999, -80.2442, 13.6, "Partly cloudy"),
    ("Ho Chi Minh City", "Vietnam", 10.8231, 106.6297, 31.2, "Rain showers"),
    ("York", "United Kingdom", 53.959, -1.0815, 8.2, "Rain"),
    ("Salem", "United States", 44.9429, -123.0351, 10.1, "Rainy"),
    ("Chicago", "United States", 41.8781, -87.6298, 3.4, "Partly Cloudy"),
    ("Paris", "United States", 33.6609, -95.5555, 15.7, "Partly Cloudy"),
    ("Paris", "Canada", 43.1939, -80.3845, 4.2, "Cloudy"),
    ("São Tomé", "São Tomé and Príncipe", 0.3365, 6.7273, 27.3, "Scattered clouds"),
    ("Toronto", "Canada", 43.6532, -79.3832, 3.8, "Cloudy"),
    ("Madrid", "Spain", 40.4168, -3.7038, 12.9, "Sunny"),
    ("Rome", "Italy", 41.9028, 12.4964, 15.4, "Partly cloudy"),
    ("Beijing", "China", 39.9042, 116.4074, 4.5, "Clear sky"),
    ("Seoul", "South Korea", 37.5665, 126.978, 7.2, "Clear sky"),
    ("Mexico City", "Mexico", 19.4326, -99.1332, 17.8, "Partly cloudy"),
    ("Buenos Aires", "Argentina", -34.6037, -58.3816, 22.9, "Sunny"),
    ("Lagos", "Nigeria", 6.5244, 3.3792, 29.6, "Scattered clouds"),
    ("Nairobi", "Kenya", -1.2921, 36.8219, 19.3, "Rain showers"),
    ("Bangkok", "Thailand", 13.7563, 100.5018, 30.8, "Rainy"),
    ("Singapore", "Singapore", 1.3521, 103.8198, 31, "Rain"),
    ("Dubai", "United Arab Emirates", 25.2048, 55.2708, 29, "Sunny"),
    ("Istanbul", "Turkey", 41.0082, 28.9784, 13.1, "Cloudy"),
    ("Amsterdam", "Netherlands", 52.3676, 4.9041, 7.4, "Rain"),
    ("Vienna", "Austria", 48.2082, 16.3738, 4.9, "Partly cloudy"),
    ("Canberra", "Australia", -35.2809, 149.13, 19.6, "Clear sky"),
    ("Wellington", "New Zealand", -41.2865, 174.7762, 15.2, "Partly Cloudy"),
    ("Oslo", "Norway", 59.9139, 10.7522, 0.8, "Cloudy"),
    ("Helsinki", "Finland", 60.1699, 24.9384, 1.2, "Cloudy"),
    ("Lisbon", "Portugal", 38.7223, -9.1393, 16.5, "Scattered clouds"),
    ("Dublin", "Ireland", 53.3498, -6.2603, 9.1, "Rain"),
    ("Athens", "Greece", 37.9838, 23.7275, 17.6, "Sunny"),
    ("Cape Town", "South Africa", -33.9249, 18.4241, 21.7, "Clear sky"),
    ("Lima", "Peru", -12.0464, -77.0428, 19.9, "Cloudy"),
    ("Santiago", "Chile", -33.4489, -70.6693, 24.8, "Sunny"),
    ("Jakarta", "Indonesia", -6.2088, 106.8456, 30.2, "Rain showers"),
    ("Manila", "Philippines", 14.5995, 120.9842, 29.4, "Rainy"),
    ("Hanoi", "Vietnam", 21.0278, 105.8342, 24.6, "Partly cloudy"),
    ("Vancouver", "Canada", 49.2827, -123.1207, 7.9, "Rain"),
    ("Anchorage", "United States", 61.2181, -149.9003, -7.8, "Snow"),
    ("Edinburgh", "United Kingdom", 55.9533, -3.1883, 6.4, "Scattered clouds"),
    ("Copenhagen", "Denmark", 55.6761, 12.5683, 5.1, "Partly cloudy"),
    ("Prague", "Czech Republic", 50.0755, 14.4378, 3.5, "Cloudy"),
]

DUPLICATE_ID_WITH_PREVIOUS = {"Wellington"}  # shares Canberra's id, like the live API

# (humidity range, wind range km/h) per description.
CLIMATE = {
    "Sunny": ((30, 55), (5, 18)),
    "Clear sky": ((35, 60), (4, 16)),
    "Partly cloudy": ((50, 70), (8, 22)),
    "Partly Cloudy": ((50, 70), (8, 22)),
    "Cloudy": ((60, 80), (10, 25)),
    "Scattered clouds": ((50, 72), (6, 20)),
    "Rain": ((80, 95), (12, 30)),
    "Rainy": ((82, 96), (10, 28)),
    "Rain showers": ((75, 92), (10, 26)),
    "Snow": ((78, 92), (14, 35)),
}

# Plausible next-day descriptions for each current description.
NEXT = {
    "Sunny": ["Sunny", "Clear sky", "Partly cloudy"],
    "Clear sky": ["Clear sky", "Sunny", "Scattered clouds"],
    "Partly cloudy": ["Partly cloudy", "Cloudy", "Sunny", "Rain showers"],
    "Partly Cloudy": ["Partly Cloudy", "Cloudy", "Sunny"],
    "Cloudy": ["Cloudy", "Partly cloudy", "Rain", "Scattered clouds"],
    "Scattered clouds": ["Scattered clouds", "Partly cloudy", "Sunny"],
    "Rain": ["Rain", "Rain showers", "Cloudy"],
    "Rainy": ["Rainy", "Rain showers", "Cloudy"],
    "Rain showers": ["Rain showers", "Partly cloudy", "Rain"],
    "Snow": ["Snow", "Cloudy"],
}


def pick(rng, seq):
    return seq[int(rng.random() * len(seq))]


def span(rng, lo, hi):
    return lo + rng.random() * (hi - lo)


def build():
    rng = random.Random(SEED)
    records = []
    next_id = 1
    for index, (city, country, lat, lon, temp, desc) in enumerate(CITIES):
        if city in DUPLICATE_ID_WITH_PREVIOUS:
            rid = records[-1]["id"]
        else:
            rid = next_id
            next_id += 1
        (hlo, hhi), (wlo, whi) = CLIMATE[desc]
        humidity = int(round(span(rng, hlo, hhi)))
        wind = span(rng, wlo, whi)
        # Mix of ints and floats: every third record (and a few random ones) gets an int.
        if index % 3 == 0 or rng.random() < 0.2:
            wind = int(round(wind))
        else:
            wind = round(wind, 1)
        forecast = []
        prev_desc = desc
        prev_temp = temp
        for date in FORECAST_DATES:
            f_desc = pick(rng, NEXT[prev_desc])
            prev_temp = prev_temp + span(rng, -2.0, 2.0)  # gentle day-to-day drift
            f_temp = int(round(prev_temp))
            if desc == "Snow":
                f_temp = min(f_temp, 0)  # stay freezing where it is snowing
            fh_lo, fh_hi = CLIMATE[f_desc][0]
            fw_lo, fw_hi = CLIMATE[f_desc][1]
            forecast.append({
                "date": date,
                "temperature": f_temp,
                "weather_description": f_desc,
                "humidity": int(round(span(rng, fh_lo, fh_hi))),
                "wind_speed": int(round(span(rng, fw_lo, fw_hi))),
            })
            prev_desc = f_desc
        records.append({
            "id": rid,
            "city": city,
            "country": country,
            "latitude": lat,
            "longitude": lon,
            "temperature": temp,
            "weather_description": desc,
            "humidity": humidity,
            "wind_speed": wind,
            "forecast": forecast,
        })
    check(records)
    return records


def check(records):
    """Assert the traps the test-suite depends on are present."""
    by = {(r["city"], r["country"]): r for r in records}
    london = by[("London", "United Kingdom")]
    assert london["temperature"] == 18 and isinstance(london["temperature"], int)
    assert london["weather_description"] == "Partly cloudy"
    assert {c for (n, c) in by if n == "Paris"} == {"France", "United States", "Canada"}
    assert by[("Canberra", "Australia")]["id"] == 45
    assert by[("Wellington", "New Zealand")]["id"] == 45
    assert len({r["id"] for r in records}) == len(records) - 1
    descs = [r["weather_description"] for r in records]
    assert "Partly cloudy" in descs and "Partly Cloudy" in descs
    assert sum(1 for r in records if r["weather_description"] == "Snow" and r["temperature"] < 0) >= 2
    assert sum(1 for d in descs if d.startswith("Rain")) >= 5
    assert sum(1 for r in records if isinstance(r["temperature"], int)) >= 3
    winds = [r["wind_speed"] for r in records]
    assert any(isinstance(w, int) for w in winds) and any(isinstance(w, float) for w in winds)


def main():
    default_out = Path(__file__).resolve().parent.parent / "Data" / "sample-weathers.json"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", type=Path, default=default_out)
    args = ap.parse_args()
    text = json.dumps(build(), ensure_ascii=False, indent=1) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    # Its checksum beside it: wx refuses a sample whose bytes no longer match (a flipped bit
    # in a number would otherwise read as other weather).
    data = text.encode("utf-8")
    crc = args.out.with_name(args.out.name.replace(".json", ".crc32"))
    crc.write_text(f"{zlib.crc32(data) & 0xFFFFFFFF:08x} {len(data)}\n", encoding="ascii")
    print(f"wrote {args.out} ({len(CITIES)} records) and {crc.name}")


if __name__ == "__main__":
    main()
