import Foundation
import Testing

/// Records in a freetestapi-shaped JSON file.
package func records(_ path: String) throws -> [[String: Any]] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
}

/// A record in the freetestapi shape, with the given text fields.
package func weatherRecord(
  id: Int, city: String, country: String = "Testland", description: String = "Sunny", date: String = "2026-11-23",
  forecastDescription: String = "Cloudy", temperature: Double = 20, latitude: Double = 1.5, longitude: Double = 2.5
) -> [String: Any] {
  [
    "id": id, "city": city, "country": country, "latitude": latitude, "longitude": longitude, "temperature": temperature,
    "weather_description": description, "humidity": 50, "wind_speed": 10,
    "forecast": [
      ["date": date, "temperature": 21, "weather_description": forecastDescription, "humidity": 40, "wind_speed": 5]
    ],
  ]
}

/// Writes records as a JSON array into `home` and returns the file's path.
package func writeRecords(_ records: [[String: Any]], in home: TempHome, name: String = "api.json") throws -> String {
  // A subfolder: TempHome.snapshot() compares the files of the state folder only.
  try FileManager.default.createDirectory(atPath: home.path + "/api", withIntermediateDirectories: true)
  let path = home.path + "/api/" + name
  try JSONSerialization.data(withJSONObject: records).write(to: URL(fileURLWithPath: path))
  return path
}

/// An ISO 8601 time (as `--json` prints them), as seconds since the epoch.
package func seconds(_ iso: String) -> Int64 {
  let f = ISO8601DateFormatter()
  return Int64(f.date(from: iso)!.timeIntervalSince1970)
}
