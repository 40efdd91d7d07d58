import Foundation
import Testing

/// `wx fav`: behaviour, survival across syncs, concurrency and crashes.
@Suite struct FavouritesTests {
  @Test func addResolvesLikeShowAndListsCurrentWeather() throws {
    let home = TempHome()
    // Springfield: several US cities, none ten times another (Paris is Paris, France).
    let ambiguous = try home.wx("fav", "add", "Springfield")
    #expect(ambiguous.status == 64 && ambiguous.stderr.contains("Springfield, MO"), "\(ambiguous)")
    #expect(!FileManager.default.fileExists(atPath: home.favourites))
    let added = try home.wx("fav", "add", "Paris", "zurich, switzerland", "London")
    #expect(added.status == 0, "\(added)")
    #expect(
      added.stdout.contains("added Zürich, Zurich, Switzerland") && added.stdout.contains("added Paris, Île-de-France, France"))
    #expect(added.stderr.contains("\"Paris\" is Paris, Île-de-France, France (2,138,551 people)"), "\(added)")
    let again = try home.wx("fav", "add", "london")
    #expect(again.status == 0 && again.stdout.contains("already a favourite"))
    let unknown = try home.wx("fav", "add", "Xqzville")
    #expect(unknown.status == 66)
    let json = try home.wx("fav", "list", "--json").json()
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(items.map { $0["city"] as? String } == ["Paris", "Zürich", "London"])
    for item in items {
      for key in ["city", "country", "id", "added", "temperature", "unit", "description"] {
        #expect(item[key] != nil, "missing \(key)")
      }
    }
    let london = try home.wx("show", "London", "--json").json()
    #expect(items[2]["temperature"] as? Double == london["temperature"] as? Double)
    #expect(maskingAges(try home.wx("fav").stdout) == maskingAges(try home.wx("fav", "list").stdout))
    let byName = try home.wx("fav", "list", "--sort", "name", "--json").json()["items"] as? [[String: Any]]
    #expect(byName?.map { $0["city"] as? String } == ["London", "Paris", "Zürich"])
    let byTemp = try home.wx("fav", "list", "--sort", "temperature", "--json").json()["items"] as? [[String: Any]]
    let temps = byTemp?.compactMap { $0["temperature"] as? Double } ?? []
    #expect(temps == temps.sorted(by: >) && temps.count == 3)
  }

  @Test func removeTakesOnlyFavourites() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo", "Lima")
    let notFav = try home.wx("fav", "remove", "Berlin")
    #expect(notFav.status == 66 && notFav.stderr.contains("not a favourite"), "\(notFav)")
    let mixed = try home.wx("fav", "remove", "Oslo", "Berlin")
    #expect(mixed.status == 66)
    #expect((try home.wx("fav", "list", "--json").json()["items"] as? [Any])?.count == 2)
    #expect(try home.wx("fav", "rm", "oslo").status == 0)
    let left = try home.wx("fav", "list", "--json").json()["items"] as? [[String: Any]]
    #expect(left?.map { $0["city"] as? String } == ["Lima"])
  }

  @Test func favouritesSurviveResyncAndMarkMissingCities() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London", "Oslo")
    // A catalogue without London.
    var data = try records(sampleFile)
    data.removeAll { $0["city"] as? String == "London" }
    let file = home.path + "/no-london.json"
    try JSONSerialization.data(withJSONObject: data).write(to: URL(fileURLWithPath: file))
    let api = try FakeAPI(data: file)
    try #require(try home.wx("sync", "--url", api.url).status == 0)
    let items = try #require(try home.wx("fav", "list", "--json").json()["items"] as? [[String: Any]])
    #expect(items.count == 2)
    let london = try #require(items.first { $0["city"] as? String == "London" })
    #expect(london["temperature"] is NSNull)
    #expect(london["in_catalogue"] as? Bool == false)
    #expect(try home.wx("fav", "list").stdout.contains("not in the current catalogue"))
    #expect(try home.wx("fav", "remove", "London").status == 0)  // still removable
  }

  /// Past a hundred favourites `wx fav` reads a page through the store's index of their
  /// order (issue 30: 10,000 favourites within 2× of 3): every page is that page of the
  /// whole list, which `--format` prints from the records themselves, and a removal shows.
  @Test func pagesOfManyFavouritesAreThePagesOfTheWholeList() throws {
    let home = TempHome()
    let found = try home.wx("search", "san", "--json", "--per-page", "150").json()
    let ids = try #require(found["items"] as? [[String: Any]]).compactMap { ($0["geonameid"] as? Int).map(String.init) }
    #expect(ids.count == 150)
    #expect(try home.run(["fav", "add"] + ids).status == 0)
    let whole = try home.wx("fav", "--format", "%l").stdout.split(separator: "\n").map(String.init)
    #expect(whole.count > 100 && whole.count <= 150, "\(whole.count)")
    // `%l` names the region of places that share a name and a country among the lines.
    func pages(_ total: Int) throws -> [String] {
      var places: [(name: String, region: String?)] = []
      var page = 1
      while true {
        let json = try home.wx("fav", "--json", "--per-page", "20", "--page", "\(page)").json()
        #expect(json["total"] as? Int == total)
        for item in try #require(json["items"] as? [[String: Any]]) {
          places.append(("\(item["city"] as? String ?? "?"), \(item["country"] as? String ?? "?")", item["region"] as? String))
        }
        if page >= json["pages"] as? Int ?? 0 { break }
        page += 1
      }
      return places.map { p in
        guard places.filter({ $0.name == p.name }).count > 1, let region = p.region, !region.isEmpty else { return p.name }
        return String(p.name.split(separator: ",")[0]) + ", " + region
      }
    }
    #expect(try pages(whole.count) == whole)
    #expect(try home.wx("fav", "rm", ids[0]).status == 0)
    let after = try home.wx("fav", "--format", "%l").stdout.split(separator: "\n").map(String.init)
    #expect(after == Array(whole.dropFirst()))
    #expect(try pages(after.count) == after)
    #expect(try home.wx("doctor").stdout.contains(try Regex("favourites +ok, \(after.count) records")))
  }

  /// A catalogue of `n` invented cities, seeded as the bundled sample.
  static func bigSample(_ n: Int, in home: TempHome) throws -> String {
    let dir = home.path + "/data"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let cities = (0..<n).map { i -> [String: Any] in
      [
        "id": i + 1, "city": "Testville \(i)", "country": "Testland", "latitude": 1.5, "longitude": 2.5,
        "temperature": Double(i % 40), "weather_description": "Sunny", "humidity": 50, "wind_speed": 10,
        "forecast": [] as [Any],
      ]
    }
    try JSONSerialization.data(withJSONObject: cities).write(to: URL(fileURLWithPath: dir + "/sample-weathers.json"))
    return dir
  }

  @Test func concurrentWritersLoseNothing() throws {
    let home = TempHome()
    // 8 writers of 12 each; `make stress` 8 of 50.
    let each = ProcessInfo.processInfo.environment["WX_STRESS"] == nil ? 12 : 50
    let data = try Self.bigSample(8 * each, in: home)
    let env = ["WX_DATA_DIR": data, "WX_LOCK_TIMEOUT": "60"]
    try #require(try home.wx("list", env: env).status == 0)
    let statuses = ConcurrentBox<[Int32]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { p in
      for k in 0..<each {
        let r = try? home.wx("fav", "add", "Testville \(p * each + k)", env: env)
        statuses.mutate { $0.append(r?.status ?? -1) }
      }
    }
    #expect(statuses.value.count == 8 * each && statuses.value.allSatisfy { $0 == 0 })
    let list = try home.wx("fav", "list", "--json", "--per-page", "1000", env: env)
    let items = try #require(try list.json()["items"] as? [[String: Any]])
    #expect(Set(items.compactMap { $0["city"] as? String }) == Set((0..<(8 * each)).map { "Testville \($0)" }))
  }

  @Test func killedWritersNeverLoseAnAcknowledgedFavourite() throws {
    let home = TempHome()
    let data = try Self.bigSample(300, in: home)
    let env = ["WX_DATA_DIR": data]
    try #require(try home.wx("list", env: env).status == 0)
    var acknowledged = Set<String>()
    var rng = SystemRandomNumberGenerator()
    let kills = ProcessInfo.processInfo.environment["WX_STRESS"] == nil ? 60 : 1000
    for i in 0..<kills {
      let name = "Testville \(i % 300)"
      let p = try RawChild(
        wxBinary, ["fav", "add", name],
        environment: ["WX_HOME": home.path, "WX_DATA_DIR": data, "LANG": "C.UTF-8"])
      usleep(UInt32.random(in: 0...12_000, using: &rng))
      kill(p.pid, SIGKILL)
      if p.wait().exitedCleanly { acknowledged.insert(name) }
      let list = try home.wx("fav", "list", "--json", "--per-page", "1000", env: env)
      try #require(list.status == 0, "after kill \(i): \(list)")
      let present = Set((try list.json()["items"] as? [[String: Any]] ?? []).compactMap { $0["city"] as? String })
      try #require(acknowledged.isSubset(of: present), "kill \(i) lost \(acknowledged.subtracting(present))")
    }
    #expect(try home.wx("doctor", env: env).status == 0)
  }

  @Test(arguments: ["after_tmp_written", "after_fsync", "after_rename", "before_dir_fsync"])
  func aCrashAtEachPublishStepLeavesOldOrNew(_ point: String) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo")
    let r = try home.wx("fav", "add", "Lima", env: ["WX_FAILPOINT": point])
    #expect(r.status != 0)
    let names = (try home.wx("fav", "list", "--json").json()["items"] as? [[String: Any]])?.compactMap { $0["city"] as? String }
    let published = point == "after_rename" || point == "before_dir_fsync"
    #expect(names == (published ? ["Oslo", "Lima"] : ["Oslo"]), "\(point)")
    try home.wx("fav", "add", "Cairo")  // the next writer cleans up
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains(".tmp.") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// Unquoted words: a name several cities share is reported as that name, not by its first
  /// word; "Name, CC" pairs are read as pairs.
  @Test func unquotedNamesAreReadAsPeopleTypeThem() throws {
    let home = TempHome()
    let records = [
      weatherRecord(id: 1, city: "Los Angeles", country: "United States"),
      weatherRecord(id: 2, city: "Los Angeles", country: "Chile"),
      weatherRecord(id: 3, city: "Los Alamos", country: "United States"),
      weatherRecord(id: 4, city: "Paris", country: "France"),
      weatherRecord(id: 5, city: "Paris", country: "Canada"),
      weatherRecord(id: 6, city: "London", country: "United Kingdom"),
      weatherRecord(id: 7, city: "London", country: "Canada"),
      weatherRecord(id: 8, city: "Paris", country: "Canada"),
    ]
    let api = try FakeAPI(data: try writeRecords(records, in: home))
    try #require(try home.wx("sync", "--url", api.url).status == 0)
    // Unquoted words are one name; the largest of the Los Angeles is taken, and said so.
    let shared = try home.wx("fav", "add", "Los", "Angeles")
    #expect(shared.status == 0 && shared.stderr.hasPrefix("wx: \"Los Angeles\" is Los Angeles, California"), "\(shared)")
    #expect(try home.wx("fav", "rm", "Los", "Angeles").status == 0)
    let pairs = try home.wx("fav", "add", "Paris,", "FR", "London,", "GB")
    // (Paris, CA is two cities: only FR is asked for.)
    #expect(pairs.status == 0 && pairs.stdout == "added Paris, France\nadded London, United Kingdom\n", "\(pairs)")
    let one = try home.wx("fav", "add", "Los", "Angeles,", "CL")
    #expect(one.status == 0 && one.stdout == "added Los Angeles, Chile\n", "\(one)")
    // No Paris there: the closest, by region.
    let none = try home.wx("show", "Paris, Germany")
    #expect(none.status == 66 && none.stderr.contains("closest: Paris, Île-de-France, France"), "\(none)")
    // A comma left out is not two places (it added London, England and Ontario, California):
    // nothing is added, and the closest names say which London, Ontario's first.
    let parted = try home.wx("fav", "add", "london", "ontario")
    #expect(parted.status == 66 && parted.stderr.contains("closest: London, Ontario, Canada"), "\(parted)")
    #expect(parted.stdout.isEmpty)
    // A name the next words begin is still its own place: Tokyo and New York are two.
    let two = try home.wx("fav", "add", "paris", "new", "york")
    #expect(two.status == 0 && two.stdout.contains("New York"), "\(two)")
    let kept = try home.wx("fav").stdout
    #expect(!kept.contains("Ontario") && kept.components(separatedBy: "London").count == 2, "\(kept)")
  }

  /// A lock held by something that did not write its pid (a script's `flock`) leaves the pid
  /// of a writer that has since died in the file: the message names no one then.
  @Test func aStalePidInTheLockIsNotNamed() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo")
    try "999999\n".write(toFile: home.path + "/wx.lock", atomically: false, encoding: .utf8)
    let locker = try RawChild("/usr/bin/flock", [home.path + "/wx.lock", "/bin/sleep", "30"], environment: [:])
    defer { kill(locker.pid, SIGKILL); locker.wait() }
    var busy = try home.wx("fav", "add", "Cairo", env: ["WX_LOCK_TIMEOUT": "1"])
    for _ in 0..<50 where busy.status == 0 {  // flock may not hold it yet: undo and retry
      try home.wx("fav", "remove", "Cairo")
      usleep(100_000)
      busy = try home.wx("fav", "add", "Cairo", env: ["WX_LOCK_TIMEOUT": "1"])
    }
    #expect(busy.status == 75, "\(busy)")
    #expect(busy.stderr == "wx: another wx process is writing in \(home.path); try again in a moment\n", "\(busy)")
  }

  /// Readers never wait: `wx show` while another process holds the lock prints at once and
  /// only says the last city was not saved (with a long lock timeout it would hang here
  /// until the harness's 20 s ran out).
  @Test func showDoesNotWaitForTheLockToSaveTheLastCity() throws {
    let home = TempHome()
    try home.wx("show", "Oslo")
    let locker = try RawChild("/usr/bin/flock", [home.path + "/wx.lock", "/bin/sleep", "60"], environment: [:])
    defer { kill(locker.pid, SIGKILL); locker.wait() }
    // Wait until flock holds it: `flock -n` fails then (up to 120 s by the clock: a loaded
    // suite can starve a new process).
    var held = false
    let deadline = Date().addingTimeInterval(120)
    while !held && Date() < deadline {
      held = try runProcess("/usr/bin/flock", ["-n", home.path + "/wx.lock", "/bin/true"], environment: [:]).status != 0
      if !held { usleep(50_000) }
    }
    try #require(held)
    let show = try home.wx("show", "Cairo", env: ["WX_LOCK_TIMEOUT": "300"], timeout: 20)
    #expect(show.status == 0 && show.stdout.contains("Cairo"), "\(show)")
    #expect(show.stderr.contains("the last city was not saved"), "\(show)")
    #expect(show.stderr.split(separator: "\n").count == 1, "\(show)")
  }

  @Test func aStoppedLockHolderMakesOthersBusyUntilItResumes() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo")
    let holder = try RawChild(
      wxBinary, ["fav", "add", "Lima"],
      environment: [
        "WX_HOME": home.path, "WX_FAILPOINT": "stop:after_tmp_written", "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "WX_NOW": TempHome.sampleNow, "WX_ATLAS": "off",
      ])
    var reaped = false
    defer { if !reaped { kill(holder.pid, SIGKILL); holder.wait() } }
    // Wait until it has stopped itself while holding the lock (by its failpoint: SIGSTOP).
    let stop = holder.waitUntilStopped()
    try #require(stop == SIGSTOP, "the lock holder did not stop itself: \(stop.map { "stopped by signal \($0)" } ?? "ended")")
    let before = home.snapshot()
    // A writer gives up after its WX_LOCK_TIMEOUT (one waiting for the stopped holder would
    // run into the harness's timeout instead).
    let busy = try home.wx("fav", "add", "Cairo", env: ["WX_LOCK_TIMEOUT": "1"])
    #expect(busy.status == 75, "\(busy)")
    #expect(busy.stderr.contains("busy") || busy.stderr.contains("another wx process"))
    #expect(busy.stderr.contains("pid \(holder.pid)") && busy.stderr.contains("is writing in \(home.path);"), "\(busy)")
    #expect(home.snapshot() == before)
    kill(holder.pid, SIGCONT)
    reaped = true
    #expect(holder.wait().exitedCleanly)
    #expect(try home.wx("fav", "add", "Cairo").status == 0)
    let names = (try home.wx("fav", "list", "--json").json()["items"] as? [[String: Any]])?.compactMap { $0["city"] as? String }
    #expect(names == ["Oslo", "Lima", "Cairo"])
  }
}
