import Foundation
import Testing

/// `wx aqi show`: the chart, recomputed here from the algorithm documented in Chart.swift.
@Suite struct AQIChartTests {
  static let series: [Double] = [120.1, 302.2, 50.23, 100.5, 179.64, 401, 0, 999.99, 250, 250]

  /// Independent implementation of the documented algorithm.
  static func expected(_ values: [Double], times: [Int64], unicode: Bool, height: Int = 8) -> [String] {
    let lo = values.min()!, hi = values.max()!
    let steps = unicode ? 8 : 2
    let levels = values.map { v in
      hi == lo ? height * steps / 2 : 1 + Int(((v - lo) / (hi - lo) * Double(height * steps - 1)).rounded())
    }
    let hiLabel = String(format: "%.2f", hi), loLabel = String(format: "%.2f", lo)
    let w = max(hiLabel.count, loLabel.count)
    func padLeft(_ s: String) -> String { String(repeating: " ", count: w - s.count) + s }
    let blocks = Array("▁▂▃▄▅▆▇█")
    var lines: [String] = []
    for row in 0..<height {
      let k = height - 1 - row
      var line =
        row == 0
        ? padLeft(hiLabel) + (unicode ? " ┤" : " |")
        : row == height - 1
          ? padLeft(loLabel) + (unicode ? " ┤" : " |")
          : String(repeating: " ", count: w) + (unicode ? " │" : " |")
      for u in levels {
        let fill = min(steps, max(0, u - steps * k))
        line += " " + (unicode ? (fill == 0 ? " " : String(blocks[fill - 1])) : (fill == 2 ? "#" : fill == 1 ? "." : " "))
      }
      while line.hasSuffix(" ") { line.removeLast() }
      lines.append(line)
    }
    lines.append(
      String(repeating: " ", count: w) + (unicode ? " └" : " +") + String(repeating: unicode ? "─" : "-", count: 2 * values.count)
    )
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.locale = Locale(identifier: "en_US_POSIX")
    f.dateFormat = "yyyy-MM-dd"
    let sameDay =
      f.string(from: Date(timeIntervalSince1970: Double(times.first!)))
      == f.string(from: Date(timeIntervalSince1970: Double(times.last!)))
    f.dateFormat = sameDay ? "HH:mm:ss" : "MM-dd HH:mm"
    let a = f.string(from: Date(timeIntervalSince1970: Double(times.first!)))
    let b = f.string(from: Date(timeIntervalSince1970: Double(times.last!)))
    let axis =
      values.count == 1 || a == b ? a : a + String(repeating: " ", count: max(1, 2 * values.count - 1 - a.count - b.count)) + b
    lines.append(String(repeating: " ", count: w + 3) + axis)
    return lines
  }

  @Test func asciiAndUnicodeChartsOfAKnownSeries() throws {
    let frames = Self.series.map { aqiFrame([("Delhi", $0)]) + "\nsleep 30" }
    let server = try WSServer([frames.joined(separator: "\n")])
    let home = TempHome()
    #expect(try watch(home, server, count: Self.series.count).status == 0)
    let json = try home.wx("aqi", "show", "Delhi", "--json").json()
    let readings = try #require(json["readings"] as? [[String: Any]])
    #expect(readings.map { $0["aqi"] as? Double } == Self.series)
    #expect(
      readings.map { $0["category"] as? String } == [
        "Moderate", "Very Poor", "Good", "Satisfactory", "Moderate", "Severe", "Good", "Severe", "Poor", "Poor",
      ])
    #expect(json["min"] as? Double == 0 && json["max"] as? Double == 999.99)
    let times = readings.map { seconds($0["time"] as! String) }

    let ascii = try home.wx("aqi", "show", "delhi", "--ascii")
    #expect(ascii.status == 0, "\(ascii)")
    var lines = ascii.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "Delhi - air quality (NAQI), 10 readings", "--ascii spells the middle dot in ASCII")
    let chart = Self.expected(Self.series, times: times, unicode: false)
    #expect(Array(lines[1...chart.count]) == chart, "\n\(ascii.stdout)\nexpected:\n\(chart.joined(separator: "\n"))")
    #expect(lines[chart.count + 1].hasPrefix("latest 250.00 Poor ("), "\(ascii)")
    #expect(lines[chart.count + 1].hasSuffix(") - min 0.00 - max 999.99"), "\(ascii)")
    #expect(!ascii.stdout.unicodeScalars.contains { $0.value > 0x7F })

    // A non-UTF-8 locale falls back to ASCII too.
    let cLocale = try home.wx("aqi", "show", "delhi", env: ["LANG": "C"])
    #expect(maskingAges(cLocale.stdout) == maskingAges(ascii.stdout), "\(cLocale)")
    #expect(maskingAges(ascii.stdout).contains("latest 250.00 Poor (<age>) - min"))

    let unicode = try home.wx("aqi", "show", "Delhi")
    lines = unicode.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let uchart = Self.expected(Self.series, times: times, unicode: true)
    #expect(Array(lines[1...uchart.count]) == uchart, "\n\(unicode.stdout)\nexpected:\n\(uchart.joined(separator: "\n"))")
  }

  @Test func theOracleMatchesAHandDrawnChart() {
    // 0, 50, 100 in half rows: 1, 1 + round(7.5) = 9, 16.
    #expect(
      Self.expected([0, 50, 100], times: [0, 60, 120], unicode: false) == [
        "100.00 |     #",
        "       |     #",
        "       |     #",
        "       |   . #",
        "       |   # #",
        "       |   # #",
        "       |   # #",
        "  0.00 | . # #",
        "       +------",
        "         00:00:00 00:02:00",
      ])
    // A flat series stands half height; equal first and last times are printed once.
    #expect(
      Self.expected([7, 7], times: [0, 0], unicode: true) == [
        "7.00 ┤", "     │", "     │", "     │", "     │ █ █", "     │ █ █", "     │ █ █", "7.00 ┤ █ █", "     └────",
        "       00:00:00",
      ])
  }
}
