import Glibc

/// The sun's day at a place, computed locally (no data, no network): solar noon and the times
/// the sun's centre is at a given altitude, by the sunrise equation as NOAA and Meeus give it
/// (Meeus, *Astronomical Algorithms*, 2nd ed., 1998, ch. 15 and 25, simplified: mean anomaly,
/// equation of centre, ecliptic longitude, declination). Within a minute or two of published
/// tables at latitudes below the polar circles; nil when the sun never reaches the altitude.
package enum Sun {
  /// Civil twilight: the sun 6° below the horizon (dawn, dusk).
  package static let civilTwilight = -6.0

  /// Solar noon on the UTC day of `day` (days since 1970-01-01) at `longitude`, as seconds
  /// since the epoch; and the half-day's length in seconds between the sun's altitudes
  /// `altitude` and the meridian (nil when the sun never reaches it that day).
  package static func noon(day: Int, latitude: Double, longitude: Double, altitude: Double) -> (noon: Int64, half: Int64?) {
    let rad = Double.pi / 180
    let n = Double(day) - 10_957.5 + 0.5 + 0.0008  // days since J2000.0 (2000-01-01T12:00Z)
    let jStar = n - longitude / 360
    let m = (357.5291 + 0.985_600_28 * jStar).truncatingRemainder(dividingBy: 360)
    let c = 1.9148 * sin(m * rad) + 0.02 * sin(2 * m * rad) + 0.0003 * sin(3 * m * rad)
    let lambda = (m + c + 180 + 102.9372).truncatingRemainder(dividingBy: 360)
    let transit = jStar + 0.0053 * sin(m * rad) - 0.0069 * sin(2 * lambda * rad)
    let noon = Int64(((transit + 10_957.5) * 86_400).rounded())
    let sinDelta = sin(lambda * rad) * sin(23.4397 * rad)
    let cosDelta = cos(asin(sinDelta))
    let cosOmega = (sin(altitude * rad) - sin(latitude * rad) * sinDelta) / (cos(latitude * rad) * cosDelta)
    guard cosOmega >= -1, cosOmega <= 1 else { return (noon, nil) }
    return (noon, Int64((acos(cosOmega) / rad / 360 * 86_400).rounded()))
  }

  /// Dawn, solar noon and dusk (civil twilight) on the local date of `now` at `offset`
  /// seconds east of UTC, as seconds since the epoch (dawn and dusk nil in a polar day or night).
  package static func day(at now: Int64, latitude: Double, longitude: Double, offset: Int)
    -> (dawn: Int64?, noon: Int64, dusk: Int64?)
  {
    let local = CalendarDay.number(at: now, offset: offset)
    let (noon, half) = Self.noon(day: local, latitude: latitude, longitude: longitude, altitude: civilTwilight)
    return (half.map { noon - $0 }, noon, half.map { noon + $0 })
  }
}
